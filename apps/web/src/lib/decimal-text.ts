import { parseDecimal, pow10, SCALE_MAX } from "@candor/decimal";

/*
 * Decimal strings whose scale is not known in advance (prices, quantities and percentages from
 * the API), read through the one codec, `@candor/decimal`, at the scale they are written in.
 */

/** A decimal string as a bigint count of 10^-scale units: "12.50" is 1250 at scale 2. */
export interface ScaledDecimal {
  units: bigint;
  /** Decimals as written (at most the codec's `SCALE_MAX`). */
  scale: number;
}

/** Reads "-1234.5600" at its own scale; undefined for anything that is not a decimal string. */
export function readDecimal(text: string): ScaledDecimal | undefined {
  const point = text.indexOf(".");
  const scale = point === -1 ? 0 : text.length - point - 1;
  if (scale > SCALE_MAX) return undefined;
  const result = parseDecimal(text, scale, { allowNegative: true });
  return result.ok ? { units: result.value, scale } : undefined;
}

/** Both values in units of the finer of their two scales, exactly. */
export function atCommonScale(a: ScaledDecimal, b: ScaledDecimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

/**
 * Compares two decimal strings exactly (no floats): negative when a < b, 0 when equal,
 * positive when a > b. Strings that are not decimals sort before every number.
 */
export function compareDecimal(a: string, b: string): number {
  const left = readDecimal(a);
  const right = readDecimal(b);
  if (!left || !right) return (left ? 1 : 0) - (right ? 1 : 0);
  const [leftUnits, rightUnits] = atCommonScale(left, right);
  return leftUnits === rightUnits ? 0 : leftUnits < rightUnits ? -1 : 1;
}

/** Whether a decimal string is zero ("0", "-0.00"); false for what is not a decimal. */
export function isZeroDecimal(text: string): boolean {
  return readDecimal(text)?.units === 0n;
}
