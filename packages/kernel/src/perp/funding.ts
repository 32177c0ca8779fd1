// Funding: each interval, longs and shorts pay each other
// `size × mark × tickLotUnits × rate`, where (Binance USDⓈ-M)
//   rate = clamp(P + clamp(I − P, −0.05 %, +0.05 %), −cap, +cap),
// P = the time-weighted premium of the perpetual's book over the index during the interval and
// I = the interest per interval. Payments are zero-sum: payers round up, receivers round down,
// and the few units between them go to a named remainder account.

import type { PerpMarket } from "./params.ts";
import { DAY_MS, FUNDING_DAMPENER_BPS } from "./params.ts";
import { abs, clamp, divCeil, divFloor, divTrunc, max, RATE_ONE, RATE_PER_BPS } from "./units.ts";

/** One premium observation: book vs index at a moment, with the tape tick it used. */
export interface PremiumSample {
  atMs: number;
  /** Tape tick of the index. */
  tickId: string;
  /** (book − index) / index as an E8 rate (10^-8), rounded toward zero. */
  premiumE8: bigint;
}

/**
 * Premium of the book's mid over the index, `(mid − index) / index`, E8, toward zero (a smaller
 * transfer between users; the venue gains nothing either way). `mid = (bid + ask) / 2`.
 */
export function premiumE8FromMid(indexTicks: bigint, bidTicks: bigint, askTicks: bigint): bigint {
  if (indexTicks < 1n) throw new RangeError("index must be at least one tick");
  return divTrunc((bidTicks + askTicks - 2n * indexTicks) * RATE_ONE, 2n * indexTicks);
}

/**
 * Binance's premium from impact prices (the average fill price of a fixed notional on each side):
 * `(max(0, impactBid − index) − max(0, index − impactAsk)) / index`, E8, toward zero. Zero while
 * the index sits inside the impact spread, so a thin quote alone cannot move funding.
 */
export function premiumE8FromImpact(
  indexTicks: bigint,
  impactBidTicks: bigint,
  impactAskTicks: bigint,
): bigint {
  if (indexTicks < 1n) throw new RangeError("index must be at least one tick");
  const spread = max(0n, impactBidTicks - indexTicks) - max(0n, indexTicks - impactAskTicks);
  return divTrunc(spread * RATE_ONE, indexTicks);
}

/**
 * Time-weighted average premium over [startMs, endMs): each sample counts from its time to the
 * next sample's (the last one to `endMs`); before the first sample the premium counts as zero
 * (no evidence, no premium, as dYdX pads missing samples). Samples must be in time order inside
 * the interval. E8, toward zero.
 */
export function averagePremiumE8(
  samples: readonly PremiumSample[],
  startMs: number,
  endMs: number,
): bigint {
  if (!(endMs > startMs)) throw new RangeError("the interval must not be empty");
  let weighted = 0n;
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]!;
    const untilMs = i + 1 < samples.length ? samples[i + 1]!.atMs : endMs;
    if (sample.atMs < startMs || untilMs < sample.atMs || untilMs > endMs) {
      throw new RangeError("premium samples must be in time order inside the interval");
    }
    weighted += sample.premiumE8 * BigInt(untilMs - sample.atMs);
  }
  return divTrunc(weighted, BigInt(endMs - startMs));
}

/** Interest per funding interval, E8: `interestBpsPerDay × interval / day`, toward zero. */
export function interestE8(market: PerpMarket): bigint {
  const perDay = BigInt(market.interestBpsPerDay) * RATE_PER_BPS;
  return divTrunc(perDay * BigInt(market.fundingIntervalMs), BigInt(DAY_MS));
}

/** rate = clamp(P + clamp(I − P, ±0.05 %), ±fundingCapBps), E8. Exact (no division). */
export function fundingRateE8(market: PerpMarket, averagePremium: bigint): bigint {
  const dampener = FUNDING_DAMPENER_BPS * RATE_PER_BPS;
  const cap = BigInt(market.fundingCapBps) * RATE_PER_BPS;
  const rate = averagePremium + clamp(interestE8(market) - averagePremium, -dampener, dampener);
  return clamp(rate, -cap, cap);
}

/** The estimated rate shown before settlement: the same formula over [startMs, nowMs). */
export function estimatedFundingRateE8(
  market: PerpMarket,
  samples: readonly PremiumSample[],
  startMs: number,
  nowMs: number,
): bigint {
  if (nowMs <= startMs) return fundingRateE8(market, 0n);
  return fundingRateE8(market, averagePremiumE8(samples, startMs, nowMs));
}

/** Next settlement time: intervals are aligned to the epoch (8 h: 00:00, 08:00, 16:00 UTC). */
export function nextFundingAtMs(market: PerpMarket, nowMs: number): number {
  const interval = market.fundingIntervalMs;
  return (Math.floor(nowMs / interval) + 1) * interval;
}

/** A position that takes part in a funding settlement. */
export interface FundingPosition {
  /** Whatever identifies it to the caller (owner and margin mode, position id). */
  id: string;
  sizeLots: bigint;
}

/** One position's funding, in quote units: positive receives, negative pays. */
export interface FundingPayment {
  id: string;
  sizeLots: bigint;
  amount: bigint;
}

/** A whole market's funding settlement. */
export interface FundingSettlement {
  rateE8: bigint;
  markTicks: bigint;
  /** Tape ticks used: the premium samples' then the mark's, in that order, each once. */
  tickIds: string[];
  /** One per non-flat position, in input order. */
  payments: FundingPayment[];
  /** Σ paid (positive). */
  paidTotal: bigint;
  /** Σ received (positive). */
  receivedTotal: bigint;
  /** paidTotal − receivedTotal ≥ 0, to the remainder account: Σ amounts + remainder = 0. */
  remainder: bigint;
}

/**
 * Funding of every position of a market at one mark and rate. A position owes
 * `size × mark × u × rate / 10^8` (longs pay a positive rate, shorts a negative one). Payers pay
 * it rounded up, receivers get it rounded down, so the venue never pays out more than it takes
 * in; because long and short open interest are equal, the exact amounts cancel and the
 * remainder is below one unit per position. Throws when open interest is not balanced.
 */
export function fundingSettlement(
  market: PerpMarket,
  positions: readonly FundingPosition[],
  mark: { priceTicks: bigint; tickIds: readonly string[] },
  rateE8: bigint,
  samples: readonly PremiumSample[] = [],
): FundingSettlement {
  let net = 0n;
  for (const p of positions) net += p.sizeLots;
  if (net !== 0n) throw new RangeError("open interest long ≠ short");
  const payments: FundingPayment[] = [];
  let paidTotal = 0n;
  let receivedTotal = 0n;
  for (const p of positions) {
    if (p.sizeLots === 0n) continue;
    const owed = p.sizeLots * mark.priceTicks * market.tickLotUnits * rateE8;
    let amount: bigint;
    if (owed > 0n) {
      amount = -divCeil(owed, RATE_ONE);
      paidTotal += -amount;
    } else {
      amount = divFloor(abs(owed), RATE_ONE);
      receivedTotal += amount;
    }
    payments.push({ id: p.id, sizeLots: p.sizeLots, amount });
  }
  const tickIds = [...new Set([...samples.map((s) => s.tickId), ...mark.tickIds])];
  return {
    rateE8,
    markTicks: mark.priceTicks,
    tickIds,
    payments,
    paidTotal,
    receivedTotal,
    remainder: paidTotal - receivedTotal,
  };
}
