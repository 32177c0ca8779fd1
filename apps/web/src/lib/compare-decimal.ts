import { parseDecimal } from "./format-amount.ts";

/**
 * Compares two decimal strings exactly (no floats): negative when a < b, 0 when equal,
 * positive when a > b. Strings that are not decimals sort before every number.
 */
export function compareDecimal(a: string, b: string): number {
  const left = parseDecimal(a);
  const right = parseDecimal(b);
  if (!left || !right) return (left ? 1 : 0) - (right ? 1 : 0);
  const scale = Math.max(left.fraction.length, right.fraction.length);
  const toBigInt = (parts: NonNullable<typeof left>) => {
    const magnitude = BigInt(parts.integer + parts.fraction.padEnd(scale, "0"));
    return parts.negative ? -magnitude : magnitude;
  };
  const difference = toBigInt(left) - toBigInt(right);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
