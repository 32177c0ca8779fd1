/**
 * Decimal strings ↔ scaled integers. A price or quantity is a `bigint` count of
 * 10^-scale units (scale 2: `12345n` is "123.45"). No floats touch these values.
 */

const decimalPattern = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Formats `value` (in 10^-scale units) as a decimal string with exactly `scale` decimals. */
export function formatDecimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? "-" : ""}${whole}${scale > 0 ? `.${fraction}` : ""}`;
}

/**
 * Parses a decimal string into 10^-scale units. Returns null for anything that is not a plain
 * decimal, and for more non-zero decimals than `scale` allows: over-precise input is rejected,
 * never rounded. Trailing zeros beyond the scale are accepted ("1.2300" at scale 2).
 */
export function parseDecimal(text: string, scale: number): bigint | null {
  if (text.length === 0 || text.length > 64) return null;
  const match = decimalPattern.exec(text);
  if (!match) return null;
  const [, sign, whole = "0", fraction = ""] = match;
  const kept = fraction.slice(0, scale);
  if (/[^0]/.test(fraction.slice(scale))) return null;
  const value = BigInt(whole + kept.padEnd(scale, "0"));
  return sign ? -value : value;
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
