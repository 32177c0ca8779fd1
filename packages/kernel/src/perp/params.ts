// A perpetual market's parameters, their validation, and the maintenance-margin tier table.
// Prices are integer ticks of `priceStep`, sizes integer lots of `contractSize`, and money is
// integer smallest units of the quote asset (USDT: scale 6), exactly as for spot markets.

import { parseDecimal, pow10, SCALE_MAX } from "@candor/decimal";
import type { RejectCode as PerpRejectCode } from "../reject-codes.ts";
import { BPS } from "./units.ts";

/** Market, instrument and asset ids: the kernel's id characters. */
const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The highest leverage any market may offer. */
export const LEVERAGE_LIMIT = 200;

/** Binance's funding dampener: the interest part moves the rate by at most ±0.05 %. */
export const FUNDING_DAMPENER_BPS = 5n;

/** Milliseconds in a day: funding intervals divide it and interest is quoted per day. */
export const DAY_MS = 86_400_000;

/**
 * One row of the maintenance-margin table ("tax bracket", Binance's leverage and margin
 * brackets). A position whose notional at the mark price is at least `notionalFloor` and below
 * the next tier's floor uses this tier:
 * `maintenance = ceil(notional × maintenanceMarginRateBps / 10,000) − maintenanceAmount`.
 * `maintenanceAmount` makes the requirement continuous across tiers; validation checks it.
 */
export interface MaintenanceTier {
  /** Quote smallest units; the first tier's floor is 0. */
  notionalFloor: bigint;
  /** Maintenance margin rate in basis points (0.40 % = 40). */
  maintenanceMarginRateBps: number;
  /** Quote smallest units subtracted from the rate's product ("cum" on Binance). */
  maintenanceAmount: bigint;
  /** Highest leverage a position of this size may use. */
  leverageMax: number;
}

/** What an operator declares for a perpetual market (`define_perp_market`, in the wiring step). */
export interface PerpMarketParams {
  /** e.g. "BTC-PERP". */
  marketId: string;
  /** Tape instrument whose ticks are the index price, e.g. "BTC-USDT" or "XAU-USD". */
  instrumentId: string;
  /** Settlement and margin asset, e.g. "USDT". */
  quoteAssetId: string;
  /** Decimals of the quote asset (USDT: 6). */
  quoteScale: number;
  /** Price increment, decimal string of quote per one unit of the underlying (e.g. "0.1"). */
  priceStep: string;
  /** Underlying per lot (one contract), decimal string (e.g. "0.001" BTC). */
  contractSize: string;
  /** Smallest order in lots (≥ 1). */
  quantityLotsMin: number;
  /** Largest order and largest position in lots. */
  quantityLotsMax: number;
  /** Highest leverage of the market (1–200); tiers may lower it for large positions. */
  leverageMax: number;
  /** Leverage of an owner who never chose one (Binance: 20). */
  leverageDefault: number;
  /** Maintenance-margin tiers, by increasing notional floor. */
  tiers: MaintenanceTier[];
  /** Maker and taker fees in basis points of the fill's notional (0–1000). */
  feeBpsMaker: number;
  feeBpsTaker: number;
  /** Time between funding settlements (divides a day; Binance: 8 h = 28,800,000). */
  fundingIntervalMs: number;
  /** Funding rate limit per interval in basis points (1–1000). */
  fundingCapBps: number;
  /** Interest part of funding in basis points per day (Binance: 3, i.e. 0.01 % per 8 h). */
  interestBpsPerDay: number;
  /** Market orders trade at most this far from the mark, in basis points (1–5000). */
  priceBandBps: number;
  /** The book's mid may move the mark at most this far from the index (0 = mark is the index). */
  markBasisCapBps: number;
  /** Liquidation fee in basis points of the liquidated notional, to the insurance fund (0–1000). */
  liquidationFeeBps: number;
}

/** Validated parameters with the derived integer units every calculation uses. */
export interface PerpMarket extends PerpMarketParams {
  /** Quote smallest units of one lot at one tick: notional = |lots| × ticks × tickLotUnits. */
  tickLotUnits: bigint;
  /** `priceStep` in units of 10^-18. */
  priceStepScaled: bigint;
  /** `contractSize` in units of 10^-18. */
  contractSizeScaled: bigint;
}

function isIntegerIn(value: number, low: number, high: number): boolean {
  return Number.isSafeInteger(value) && value >= low && value <= high;
}

function positiveDecimal(text: string): bigint | null {
  const parsed = parseDecimal(text, SCALE_MAX);
  return parsed.ok && parsed.value > 0n ? parsed.value : null;
}

/** Quote units of one lot at one tick, or null when it is not a positive whole number. */
function tickLotUnitsOf(params: PerpMarketParams): bigint | null {
  if (!isIntegerIn(params.quoteScale, 0, SCALE_MAX)) return null;
  const step = positiveDecimal(params.priceStep);
  const size = positiveDecimal(params.contractSize);
  if (step === null || size === null) return null;
  // step/10^18 × size/10^18 × 10^quoteScale must be a whole number of quote units.
  const numerator = step * size * pow10(params.quoteScale);
  const denominator = pow10(2 * SCALE_MAX);
  if (numerator % denominator !== 0n) return null;
  const units = numerator / denominator;
  return units > 0n ? units : null;
}

function tierCodes(params: PerpMarketParams): PerpRejectCode[] {
  const tiers = params.tiers;
  if (tiers.length === 0 || tiers.length > 32) return ["perp_tiers_invalid"];
  const codes = new Set<PerpRejectCode>();
  let previous: MaintenanceTier | null = null;
  for (const tier of tiers) {
    if (
      !isIntegerIn(tier.maintenanceMarginRateBps, 1, 5000) ||
      !isIntegerIn(tier.leverageMax, 1, params.leverageMax) ||
      tier.notionalFloor < 0n ||
      tier.maintenanceAmount < 0n
    ) {
      codes.add("perp_tiers_invalid");
      previous = tier;
      continue;
    }
    // Maintenance must stay below half the initial margin at the tier's own leverage cap, so a
    // position opened at that cap starts at most 50 % of the way to liquidation (Binance's rule).
    if (tier.maintenanceMarginRateBps * tier.leverageMax * 2 > Number(BPS)) {
      codes.add("perp_tier_margin_too_high");
    }
    if (previous === null) {
      if (
        tier.notionalFloor !== 0n ||
        tier.maintenanceAmount !== 0n ||
        tier.leverageMax !== params.leverageMax
      ) {
        codes.add("perp_tiers_invalid");
      }
    } else {
      if (
        tier.notionalFloor <= previous.notionalFloor ||
        tier.maintenanceMarginRateBps < previous.maintenanceMarginRateBps ||
        tier.leverageMax > previous.leverageMax
      ) {
        codes.add("perp_tiers_invalid");
      }
      // Continuity at the floor F: F×r_prev − a_prev = F×r − a, exactly, in whole quote units.
      const step =
        tier.notionalFloor *
        BigInt(tier.maintenanceMarginRateBps - previous.maintenanceMarginRateBps);
      if (step % BPS !== 0n || tier.maintenanceAmount !== previous.maintenanceAmount + step / BPS) {
        codes.add("perp_tier_amount_mismatch");
      }
    }
    previous = tier;
  }
  return [...codes];
}

/**
 * Every reason a parameter set is refused, in a fixed order; empty when it is valid.
 * - ids: `market_invalid` (market or quote asset id), `instrument_id_invalid`;
 * - `perp_contract_invalid`: price step or contract size not positive, quote scale not 0–18,
 *   or one lot at one tick not a whole number of quote units;
 * - `perp_lots_invalid`: 1 ≤ quantityLotsMin ≤ quantityLotsMax ≤ 10^12;
 * - `perp_leverage_invalid`: 1 ≤ leverageDefault ≤ leverageMax ≤ 200;
 * - `perp_tiers_invalid`: 1–32 tiers; the first at floor 0 with amount 0 and the market's
 *   leverage cap; floors rising, rates (1–5000 bps) not falling, tier leverage not rising;
 * - `perp_tier_amount_mismatch`: an amount that does not make maintenance continuous;
 * - `perp_tier_margin_too_high`: rate × tier leverage above 50 %;
 * - `perp_fee_invalid`: fees 0–1000 bps;
 * - `perp_funding_invalid`: interval 1 min – 1 day and dividing a day, cap 1–1000 bps,
 *   interest 0–100 bps a day;
 * - `perp_band_invalid`: band 1–5000 bps, mark basis cap 0 – band;
 * - `perp_liquidation_fee_invalid`: 0–1000 bps.
 */
export function validatePerpParams(params: PerpMarketParams): PerpRejectCode[] {
  const codes: PerpRejectCode[] = [];
  if (!ID_PATTERN.test(params.marketId) || !ID_PATTERN.test(params.quoteAssetId)) {
    codes.push("market_invalid");
  }
  if (!ID_PATTERN.test(params.instrumentId)) codes.push("instrument_id_invalid");
  if (tickLotUnitsOf(params) === null) codes.push("perp_contract_invalid");
  if (
    !isIntegerIn(params.quantityLotsMin, 1, 1e12) ||
    !isIntegerIn(params.quantityLotsMax, params.quantityLotsMin, 1e12)
  ) {
    codes.push("perp_lots_invalid");
  }
  const leverageValid =
    isIntegerIn(params.leverageMax, 1, LEVERAGE_LIMIT) &&
    isIntegerIn(params.leverageDefault, 1, params.leverageMax);
  if (!leverageValid) codes.push("perp_leverage_invalid");
  else codes.push(...tierCodes(params));
  if (!isIntegerIn(params.feeBpsMaker, 0, 1000) || !isIntegerIn(params.feeBpsTaker, 0, 1000)) {
    codes.push("perp_fee_invalid");
  }
  if (
    !isIntegerIn(params.fundingIntervalMs, 60_000, DAY_MS) ||
    DAY_MS % params.fundingIntervalMs !== 0 ||
    !isIntegerIn(params.fundingCapBps, 1, 1000) ||
    !isIntegerIn(params.interestBpsPerDay, 0, 100)
  ) {
    codes.push("perp_funding_invalid");
  }
  if (
    !isIntegerIn(params.priceBandBps, 1, 5000) ||
    !isIntegerIn(params.markBasisCapBps, 0, params.priceBandBps)
  ) {
    codes.push("perp_band_invalid");
  }
  if (!isIntegerIn(params.liquidationFeeBps, 0, 1000)) codes.push("perp_liquidation_fee_invalid");
  return codes;
}

/** Validates `params` and derives the integer units; or every reason it is refused. */
export function definePerpMarket(
  params: PerpMarketParams,
): { ok: true; value: PerpMarket } | { ok: false; codes: PerpRejectCode[] } {
  const codes = validatePerpParams(params);
  const tickLotUnits = tickLotUnitsOf(params);
  if (codes.length > 0 || tickLotUnits === null) return { ok: false, codes };
  return {
    ok: true,
    value: {
      ...params,
      tiers: params.tiers.map((tier) => ({ ...tier })),
      tickLotUnits,
      priceStepScaled: positiveDecimal(params.priceStep)!,
      contractSizeScaled: positiveDecimal(params.contractSize)!,
    },
  };
}

/** Index of the tier for a notional (quote units): the last tier whose floor is ≤ notional. */
export function tierIndexFor(market: PerpMarket, notional: bigint): number {
  let index = 0;
  for (let i = 1; i < market.tiers.length; i++) {
    if (market.tiers[i]!.notionalFloor <= notional) index = i;
    else break;
  }
  return index;
}

/** The tier for a notional (quote units). */
export function tierFor(market: PerpMarket, notional: bigint): MaintenanceTier {
  return market.tiers[tierIndexFor(market, notional)]!;
}

/** Highest leverage allowed for a position of this notional: the market's cap and its tier's. */
export function leverageMaxFor(market: PerpMarket, notional: bigint): number {
  return Math.min(market.leverageMax, tierFor(market, notional).leverageMax);
}

/**
 * Largest notional (quote units, inclusive) a position may reach at `leverage`, or null when
 * every tier allows it: just below the floor of the first tier whose cap is below `leverage`.
 */
export function notionalMaxForLeverage(market: PerpMarket, leverage: number): bigint | null {
  for (const tier of market.tiers) {
    if (tier.leverageMax < leverage) return tier.notionalFloor - 1n;
  }
  return null;
}
