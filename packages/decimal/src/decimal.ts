/**
 * Decimal strings ↔ bigint counts of 10^-scale units: the one codec of Candor. Amounts cross
 * the API as text and are never rounded on the way in; rounding elsewhere always names its
 * direction. No value here ever passes through a JavaScript number.
 */

/** Largest scale (number of decimals) Candor uses. */
export const SCALE_MAX = 18;

/** Why a decimal string was refused. */
export type DecimalError =
  | "amount_empty"
  | "amount_malformed"
  | "amount_too_many_decimals"
  | "amount_negative_not_allowed"
  | "amount_above_maximum";

/** A parsed value, or the reason it was refused. */
export type DecimalResult = { ok: true; value: bigint } | { ok: false; code: DecimalError };

/** Options for {@link parseDecimal}. */
export interface ParseDecimalOptions {
  /** Accept a leading '-'. Default false. */
  allowNegative?: boolean;
  /** Largest accepted absolute value, in 10^-scale units. */
  max?: bigint;
  /**
   * Zeros past the scale ("1.50" at scale 1): rejected by default, as every API amount and
   * every journaled command is; "accept" for price feeds and text a person typed.
   */
  extraZeros?: "reject" | "accept";
}

const pow10Cache: bigint[] = [];

/** 10^exponent as bigint, cached (0 ≤ exponent ≤ 36). */
export function pow10(exponent: number): bigint {
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > 36) {
    throw new RangeError(`pow10: exponent ${exponent} out of range`);
  }
  let cached = pow10Cache[exponent];
  if (cached === undefined) {
    cached = 10n ** BigInt(exponent);
    pow10Cache[exponent] = cached;
  }
  return cached;
}

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > SCALE_MAX) {
    throw new RangeError(`scale ${scale} out of range`);
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function refuse(code: DecimalError): DecimalResult {
  return { ok: false, code };
}

/**
 * Parses "12.345" into 10^-scale units. Refuses empty text, whitespace, a leading '+',
 * exponents, non-ASCII digits, a bare '.', '.5' or '5.', negatives unless allowed, values above
 * `max`, and more decimals than `scale` (zeros past the scale only with `extraZeros: "accept"`).
 */
export function parseDecimal(
  text: string,
  scale: number,
  options: ParseDecimalOptions = {},
): DecimalResult {
  checkScale(scale);
  if (text.length === 0) return refuse("amount_empty");
  let start = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    start = 1;
  }
  let point = -1;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) continue;
    if (code === 46 /* . */ && point === -1) {
      point = i;
      continue;
    }
    return refuse("amount_malformed");
  }
  const integerEnd = point === -1 ? text.length : point;
  if (integerEnd === start) return refuse("amount_malformed");
  if (point === text.length - 1) return refuse("amount_malformed");
  let fraction = point === -1 ? "" : text.slice(point + 1);
  if (fraction.length > scale) {
    const extra = fraction.slice(scale);
    if (options.extraZeros !== "accept" || !/^0+$/.test(extra)) {
      return refuse("amount_too_many_decimals");
    }
    fraction = fraction.slice(0, scale);
  }
  const magnitude =
    BigInt(text.slice(start, integerEnd)) * pow10(scale) +
    (fraction.length === 0 ? 0n : BigInt(fraction) * pow10(scale - fraction.length));
  if (negative && magnitude !== 0n && options.allowNegative !== true) {
    return refuse("amount_negative_not_allowed");
  }
  if (options.max !== undefined && magnitude > options.max) return refuse("amount_above_maximum");
  return { ok: true, value: negative ? -magnitude : magnitude };
}

function split(value: bigint, scale: number): { sign: string; integer: string; fraction: string } {
  checkScale(scale);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const unit = pow10(scale);
  return {
    sign: negative ? "-" : "",
    integer: (magnitude / unit).toString(),
    fraction: scale === 0 ? "" : (magnitude % unit).toString().padStart(scale, "0"),
  };
}

/**
 * Canonical text of 10^-scale units: no '+', no exponent, no trailing fractional zeros, no
 * trailing '.', '-' only for negatives. {@link parseDecimal} inverts it.
 */
export function formatDecimal(value: bigint, scale: number): string {
  const parts = split(value, scale);
  let end = parts.fraction.length;
  while (end > 0 && parts.fraction.charCodeAt(end - 1) === 48) end--;
  const fraction = parts.fraction.slice(0, end);
  return parts.sign + parts.integer + (fraction.length > 0 ? "." + fraction : "");
}

/** Text with exactly `scale` decimals ("1.50" at scale 2), for values shown at a set precision. */
export function formatDecimalFixed(value: bigint, scale: number): string {
  const parts = split(value, scale);
  return parts.sign + parts.integer + (scale > 0 ? "." + parts.fraction : "");
}

/** Rounds toward -infinity. Bare `/` on money stays inside helpers like this one. */
export function divFloor(dividend: bigint, divisor: bigint): bigint {
  if (divisor <= 0n) throw new RangeError("divisor must be positive");
  const quotient = dividend / divisor;
  return dividend % divisor < 0n ? quotient - 1n : quotient;
}

/** Rounds toward +infinity. */
export function divCeil(dividend: bigint, divisor: bigint): bigint {
  if (divisor <= 0n) throw new RangeError("divisor must be positive");
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

/** Rounds a non-negative value to the nearest multiple of `step`, halves away from zero. */
export function roundToStep(value: bigint, step: bigint): bigint {
  const remainder = value % step;
  const down = value - remainder;
  return remainder * 2n >= step ? down + step : down;
}

/** Change from `from` to `to` in basis points, rounded toward zero. Zero when `from` is zero. */
export function changeBps(from: bigint, to: bigint): bigint {
  if (from === 0n) return 0n;
  return ((to - from) * 10_000n) / from;
}
