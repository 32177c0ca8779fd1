// The mark price: the price every PnL, margin, liquidation, TP/SL trigger and funding payment
// of a perpetual is measured at. It comes from the tape (the index), optionally moved toward the
// book's mid by a clamped basis, and always says which tape tick it used.

import { parseDecimal, roundToStep, SCALE_MAX } from "@candor/decimal";
import type { PerpMarket } from "./params.ts";
import { BPS, clamp, divFloor, divTrunc, max } from "./units.ts";

/** A tape tick as the perpetual sees it: its id and its price snapped to the market's ticks. */
export interface IndexTick {
  tickId: string;
  /** Index price in whole ticks of the market (≥ 1). */
  priceTicks: bigint;
}

/** Best bid and ask of the perpetual's own book, in ticks; null when that side is empty. */
export interface BookTop {
  bidTicks: bigint | null;
  askTicks: bigint | null;
}

/** A mark price and how it was made. */
export interface MarkPrice {
  /** The mark in whole ticks (≥ 1). */
  priceTicks: bigint;
  /** The index it started from. */
  indexTicks: bigint;
  /** mark − index, in ticks (zero without a usable book). */
  basisTicks: bigint;
  /** Tape tick ids used, oldest first (one: the index tick). */
  tickIds: string[];
}

/**
 * A tape price (decimal string, up to 18 decimals) in whole ticks of `priceStepScaled`
 * (the step in 10^-18 units), to the nearest tick, halves up; at least one tick. Null when the
 * text is not a positive decimal. Nearest, not up or down: the mark is one price for longs and
 * shorts alike, so no direction favours the venue; a tick is far finer than any margin.
 */
export function indexTicksFromPrice(price: string, priceStepScaled: bigint): bigint | null {
  const parsed = parseDecimal(price, SCALE_MAX, { extraZeros: "accept" });
  if (!parsed.ok || parsed.value <= 0n || priceStepScaled <= 0n) return null;
  return max(1n, roundToStep(parsed.value, priceStepScaled) / priceStepScaled);
}

/**
 * mark = index + clamp(basis, −cap, +cap), where
 * - basis = mid − index, mid = (bid + ask) / 2, the half tick rounded toward the index
 *   (toward zero basis) so the book never moves the mark further than it shows;
 * - cap = floor(index × markBasisCapBps / 10,000): down, the tighter clamp.
 * Without both a bid and an ask, with a crossed book, or with a cap of 0 bps the mark is the
 * index. The mark is at least one tick.
 *
 * Binance takes the median of three prices (index with the funding basis, index with a
 * 2.5-minute average book basis, last price); this is its second price with a one-sample
 * average and a hard clamp. A time-averaged basis can be fed in as `book` by the caller.
 */
export function markPrice(market: PerpMarket, index: IndexTick, book: BookTop | null): MarkPrice {
  const indexTicks = index.priceTicks;
  if (indexTicks < 1n) throw new RangeError("index price must be at least one tick");
  let basisTicks = 0n;
  const bid = book?.bidTicks ?? null;
  const ask = book?.askTicks ?? null;
  if (market.markBasisCapBps > 0 && bid !== null && ask !== null && bid < ask) {
    const basis = divTrunc(bid + ask - 2n * indexTicks, 2n);
    const cap = divFloor(indexTicks * BigInt(market.markBasisCapBps), BPS);
    basisTicks = clamp(basis, -cap, cap);
  }
  const priceTicks = max(1n, indexTicks + basisTicks);
  return {
    priceTicks,
    indexTicks,
    basisTicks: priceTicks - indexTicks,
    tickIds: [index.tickId],
  };
}
