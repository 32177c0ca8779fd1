import { formatDecimal, parseDecimal } from "@candor/decimal";

/**
 * The whole cycle's interest as the kernel reserves it: amount × dailyRateE8 × days / 10⁸,
 * rounded down to the asset's decimals. Undefined while the amount is not a valid amount.
 */
export function expectedInterest(
  amount: string,
  dailyRateE8: number,
  cycleDays: number,
  decimals: number,
): string | undefined {
  const parsed = parseDecimal(amount, decimals);
  if (!parsed.ok || parsed.value <= 0n) return undefined;
  return formatDecimal(
    (parsed.value * BigInt(dailyRateE8) * BigInt(cycleDays)) / 100_000_000n,
    decimals,
  );
}

/** Basis points as a percent decimal string: 50 → "0.5", 100 → "1". Integer arithmetic. */
export function bpsToPercent(bps: number): string {
  return formatDecimal(BigInt(bps), 2);
}

/** Whole hours of a delay in seconds (rounded up: "starts after 1 h" for 10 minutes). */
export function hoursOf(seconds: number): number {
  return Math.ceil(seconds / 3_600);
}
