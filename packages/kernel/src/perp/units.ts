// Integer helpers shared by the perpetuals math. Everything is bigint: quote smallest units,
// price ticks, lots, basis points and 10^-8 rates. Bare `/` on money stays inside the named
// helpers of `@candor/decimal` (`divFloor`, `divCeil`, `mulDiv`) or `divTrunc` below.

export { divCeil, divFloor, mulDiv } from "@candor/decimal";

/** 10,000 basis points make one. */
export const BPS = 10_000n;

/**
 * Rates (premium, interest, funding) are integers in units of 10^-8 ("E8"): 0.01 % is 10,000.
 * Binance publishes funding rates with 8 decimals, so this is exact for theirs too.
 */
export const RATE_ONE = 100_000_000n;

/** One basis point as an E8 rate. */
export const RATE_PER_BPS = RATE_ONE / BPS;

/** Largest price a perpetual works with, in ticks (the same bound as spot's `PRICE_TICKS_MAX`). */
export const PERP_PRICE_TICKS_MAX = 1_000_000_000_000n;

/** Rounds toward zero (a smaller magnitude). Used where neither side may be favoured. */
export function divTrunc(dividend: bigint, divisor: bigint): bigint {
  if (divisor <= 0n) throw new RangeError("divisor must be positive");
  return dividend / divisor;
}

export function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** `value` limited to [low, high]; `low` must not exceed `high`. */
export function clamp(value: bigint, low: bigint, high: bigint): bigint {
  if (low > high) throw new RangeError("clamp: low above high");
  return value < low ? low : value > high ? high : value;
}

/** -1, 0 or 1. */
export function sign(value: bigint): bigint {
  return value > 0n ? 1n : value < 0n ? -1n : 0n;
}

/** An exact fraction `num / den` with `den > 0`, for prices that are not whole ticks. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** Compares two exact fractions: negative, zero or positive like `a - b`. */
export function compareRatio(a: Ratio, b: Ratio): number {
  if (a.den <= 0n || b.den <= 0n) throw new RangeError("ratio denominator must be positive");
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The largest `n` in [low, high] for which `holds(n)` is true, given that `holds` is true up to
 * some point and false after it (monotone); `low - 1n` when it holds nowhere. Binary search:
 * about 40 calls for a range of 10^12.
 */
export function largestWhere(low: bigint, high: bigint, holds: (n: bigint) => boolean): bigint {
  let found = low - 1n;
  let lo = low;
  let hi = high;
  while (lo <= hi) {
    const mid = lo + (hi - lo) / 2n;
    if (holds(mid)) {
      found = mid;
      lo = mid + 1n;
    } else {
      hi = mid - 1n;
    }
  }
  return found;
}

/**
 * The smallest `n` in [low, high] for which `holds(n)` is true, given that `holds` is false up
 * to some point and true after it (monotone); `high + 1n` when it holds nowhere.
 */
export function smallestWhere(low: bigint, high: bigint, holds: (n: bigint) => boolean): bigint {
  let found = high + 1n;
  let lo = low;
  let hi = high;
  while (lo <= hi) {
    const mid = lo + (hi - lo) / 2n;
    if (holds(mid)) {
      found = mid;
      hi = mid - 1n;
    } else {
      lo = mid + 1n;
    }
  }
  return found;
}

/** Code-unit order of two strings (the kernel's `compareStrings`): locale-free and stable. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
