// The savings arithmetic, exact in bigint. Every rounding is down, in the operator's favour by
// less than one smallest unit per subscription; the remainder is never promised, so it stays in
// the yield account. Shared by the kernel and its reference model.

export const DAY_MS = 86_400_000;
/** The daily rate's denominator: `dailyRateE8 / 10⁸`. */
export const RATE_DENOMINATOR = 100_000_000n;

/** The whole cycle's interest: amount × rate × days, rounded down. */
export function interestTotalOf(amount: bigint, dailyRateE8: number, cycleDays: number): bigint {
  return (amount * BigInt(dailyRateE8) * BigInt(cycleDays)) / RATE_DENOMINATOR;
}

/** Interest paid by the end of day `day` (0…cycleDays): total × day / days, rounded down. */
export function interestThrough(total: bigint, day: number, cycleDays: number): bigint {
  return (total * BigInt(day)) / BigInt(cycleDays);
}

/** What day `day` (1-based) pays: the difference of the cumulative amounts, so the sum is exact. */
export function interestOfDay(total: bigint, day: number, cycleDays: number): bigint {
  return interestThrough(total, day, cycleDays) - interestThrough(total, day - 1, cycleDays);
}

/** The early-redemption penalty: principal × bps / 10,000, rounded down. */
export function penaltyOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps)) / 10_000n;
}
