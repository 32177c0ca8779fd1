import { assert } from "../assert.ts";
import { ok, reject, type Result } from "../reject-codes.ts";

/**
 * Integer count of an asset's smallest unit (USDT micro-unit, BTC satoshi). Never a float.
 * A plain `bigint` alias (not a brand) so arithmetic stays readable; the name documents intent.
 */
export type Amount = bigint;

/** Largest scale (number of decimals) an asset may have. */
export const SCALE_MAX = 18;

/** Rounds toward -infinity. Bare `/` on money stays inside helpers like this one. */
export function divFloor(dividend: bigint, divisor: bigint): bigint {
  assert(divisor > 0n, "divisor must be positive");
  const quotient = dividend / divisor;
  return dividend % divisor < 0n ? quotient - 1n : quotient;
}

/** Rounds toward +infinity. */
export function divCeil(dividend: bigint, divisor: bigint): bigint {
  assert(divisor > 0n, "divisor must be positive");
  const quotient = dividend / divisor;
  return dividend % divisor > 0n ? quotient + 1n : quotient;
}

/** Rounding direction for {@link mulDiv}; always named, never implied. */
export type Rounding = "floor" | "ceil";

/** `value * numerator / denominator` computed exactly, then rounded in the named direction. */
export function mulDiv(
  value: bigint,
  numerator: bigint,
  denominator: bigint,
  rounding: Rounding,
): bigint {
  const product = value * numerator;
  return rounding === "floor" ? divFloor(product, denominator) : divCeil(product, denominator);
}

/** Options for {@link parseAmount}. */
export interface ParseAmountOptions {
  /** Accept a leading '-' (e.g. for operator adjustments). Default false. */
  allowNegative?: boolean;
  /** Largest accepted absolute value, in smallest units. */
  max?: bigint;
}

const pow10Cache: bigint[] = [];
/** 10^exponent as bigint, cached for the scales we use. */
export function pow10(exponent: number): bigint {
  assert(Number.isInteger(exponent) && exponent >= 0 && exponent <= 36, "exponent out of range");
  let cached = pow10Cache[exponent];
  if (cached === undefined) {
    cached = 10n ** BigInt(exponent);
    pow10Cache[exponent] = cached;
  }
  return cached;
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Parses a decimal string (e.g. "12.345") into smallest units at `scale` decimals.
 * Strict by design, because amounts cross the API as text and are never rounded: rejects
 * empty strings, whitespace, a leading '+', exponents, non-ASCII digits, a bare '.', '.5' or
 * '5.', more decimals than `scale` (even trailing zeros), negatives unless allowed, and values
 * above `max`.
 */
export function parseAmount(
  text: string,
  scale: number,
  options: ParseAmountOptions = {},
): Result<Amount> {
  assert(Number.isInteger(scale) && scale >= 0 && scale <= SCALE_MAX, "scale out of range");
  if (text.length === 0) return reject("amount_empty");
  let index = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    index = 1;
  }
  let integerDigits = 0;
  let fractionDigits = 0;
  let seenPoint = false;
  for (let i = index; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isAsciiDigit(code)) {
      if (seenPoint) fractionDigits++;
      else integerDigits++;
    } else if (code === 46 /* . */ && !seenPoint) {
      seenPoint = true;
    } else {
      return reject("amount_malformed");
    }
  }
  if (integerDigits === 0) return reject("amount_malformed");
  if (seenPoint && fractionDigits === 0) return reject("amount_malformed");
  if (fractionDigits > scale) return reject("amount_too_many_decimals");
  const body = text.slice(index);
  const point = body.indexOf(".");
  const integerPart = point === -1 ? body : body.slice(0, point);
  const fractionPart = point === -1 ? "" : body.slice(point + 1);
  const magnitude =
    BigInt(integerPart) * pow10(scale) +
    (fractionDigits === 0 ? 0n : BigInt(fractionPart) * pow10(scale - fractionDigits));
  if (negative && magnitude !== 0n && options.allowNegative !== true) {
    return reject("amount_negative_not_allowed");
  }
  if (options.max !== undefined && magnitude > options.max) return reject("amount_above_maximum");
  return ok(negative ? -magnitude : magnitude);
}

/**
 * Formats smallest units as the canonical decimal string: no '+', no exponent, no trailing
 * fractional zeros, no trailing '.', '-' only for negatives. `parseAmount` inverts it.
 */
export function formatAmount(amount: Amount, scale: number): string {
  assert(Number.isInteger(scale) && scale >= 0 && scale <= SCALE_MAX, "scale out of range");
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const unit = pow10(scale);
  const integerPart = (magnitude / unit).toString();
  let fraction = scale === 0 ? "" : (magnitude % unit).toString().padStart(scale, "0");
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  return (negative ? "-" : "") + integerPart + (fraction.length > 0 ? "." + fraction : "");
}
