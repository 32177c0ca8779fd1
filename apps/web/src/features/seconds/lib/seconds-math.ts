import { formatDecimal, parseDecimal } from "@candor/decimal";

/** Basis points as a percent decimal string: 8500 → "85", 5406 → "54.06". Integer arithmetic. */
export function bpsToPercent(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const rest = bps % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}

/**
 * What a win pays on top of the stake, as the kernel computes it: stake × payoutBps / 10,000,
 * rounded down to the asset's decimals. Undefined while the stake is not a valid amount.
 */
export function payoutOf(stake: string, payoutBps: number, decimals: number): string | undefined {
  const parsed = parseDecimal(stake, decimals);
  if (!parsed.ok || parsed.value <= 0n) return undefined;
  return formatDecimal((parsed.value * BigInt(payoutBps)) / 10_000n, decimals);
}

/** Whole seconds left until `expiresAtMs` (never negative). */
export function secondsLeft(expiresAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1_000));
}
