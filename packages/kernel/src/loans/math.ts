// The loan terms as arithmetic: all bigint, all rounding stated. Shared by the module, the views
// and the server's quotes; the reference model (loans.reference.ts) re-derives them slowly.

import { parseAmount, SCALE_MAX } from "../amount/amount.ts";
import { assert } from "../assert.ts";

export const DAY_MS = 86_400_000;
/** Overdue interest is 110 % of the agreed rate. */
export const OVERDUE_RATE_NUM = 11n;
export const OVERDUE_RATE_DEN = 10n;
/** Late fee: 1 % of the unpaid principal per overdue day. */
export const LATE_FEE_BPS = 100n;
/** Days overdue before the collateral is liquidated (at the first tick after due + 3 days). */
export const GRACE_DAYS = 3;
/** Early full repayment costs 50 % of the interest of the unaccrued days. */
export const EARLY_FEE_BPS = 5_000n;
const PPM = 1_000_000n;
const BPS = 10_000n;
const PRICE_ONE = 10n ** BigInt(SCALE_MAX);

/** One day's interest on `principal`, rounded down; overdue days at 110 % of the rate. */
export function dayInterest(principal: bigint, dailyRatePpm: number, overdue: boolean): bigint {
  const base = principal * BigInt(dailyRatePpm);
  return overdue ? (base * OVERDUE_RATE_NUM) / (OVERDUE_RATE_DEN * PPM) : base / PPM;
}

/** One overdue day's late fee on `principal`, rounded down. */
export function dayLateFee(principal: bigint): bigint {
  return (principal * LATE_FEE_BPS) / BPS;
}

/** Compensation for repaying in full before maturity: half the remaining days' interest. */
export function earlyRepaymentFee(
  principal: bigint,
  dailyRatePpm: number,
  termDays: number,
  daysAccrued: number,
): bigint {
  const remaining = BigInt(Math.max(0, termDays - daysAccrued));
  return (remaining * dayInterest(principal, dailyRatePpm, false) * EARLY_FEE_BPS) / BPS;
}

/** A tape price as an integer scaled by 10^18. */
export function price18(price: string): bigint {
  const parsed = parseAmount(price, SCALE_MAX);
  assert(parsed.ok && parsed.value > 0n, "tape prices are positive decimals");
  return parsed.value;
}

/** The value of `collateral` (its smallest units) in smallest units of the loan asset, down. */
export function collateralValue(
  collateral: bigint,
  p18: bigint,
  collateralScale: number,
  loanScale: number,
): bigint {
  return (
    (collateral * p18 * 10n ** BigInt(loanScale)) / (10n ** BigInt(collateralScale) * PRICE_ONE)
  );
}

/** The least collateral worth at least `debt` at price `p18` (rounded up). */
export function collateralFor(
  debt: bigint,
  p18: bigint,
  collateralScale: number,
  loanScale: number,
): bigint {
  const num = debt * 10n ** BigInt(collateralScale) * PRICE_ONE;
  const den = p18 * 10n ** BigInt(loanScale);
  return (num + den - 1n) / den;
}

/** Loan-to-value in basis points, rounded up; a worthless collateral is infinitely far in. */
export function ltvBps(debt: bigint, value: bigint): bigint {
  if (debt === 0n) return 0n;
  if (value === 0n) return 10n ** 36n;
  return (debt * BPS + value - 1n) / value;
}

/**
 * The price (scaled by 10^18, rounded up) at or below which the loan reaches `ltvLimitBps`:
 * debt × 10,000 / limit = collateral × price.
 */
export function limitPrice18(
  debt: bigint,
  collateral: bigint,
  ltvLimitBps: number,
  collateralScale: number,
  loanScale: number,
): bigint | null {
  if (collateral === 0n) return null;
  const num = debt * BPS * 10n ** BigInt(collateralScale) * PRICE_ONE;
  const den = BigInt(ltvLimitBps) * collateral * 10n ** BigInt(loanScale);
  return (num + den - 1n) / den;
}
