/** A seconds product's terms as the deployment configures them (whole units as decimal strings). */
export interface SecondsProductConfig {
  instrumentId: string;
  periodS: number;
  asset: string;
  /** Payout on top of the stake for a win, basis points of the stake. */
  payoutBps: number;
  stakeMin: string;
  stakeMax: string;
  /** Most the house may have reserved for this product's open contracts, per mode. */
  exposureMax: string;
  graceS: number;
}

const periods: readonly [number, number][] = [
  [30, 8_500],
  [60, 8_200],
  [120, 8_000],
  [300, 7_500],
];

/**
 * The products a new deployment starts with (the simulated market's crypto pairs). Configured
 * once, by journaled `seconds_configure` commands; the operator changes them through
 * `PUT /api/v1/operator/seconds/products` (later purchases only).
 */
export const defaultSecondsProducts: readonly SecondsProductConfig[] = [
  "BTCUSDT",
  "ETHUSDT",
].flatMap((instrumentId) =>
  periods.map(([periodS, payoutBps]) => ({
    instrumentId,
    periodS,
    asset: "USDT",
    payoutBps,
    stakeMin: "1",
    stakeMax: "1000",
    exposureMax: "20000",
    graceS: 10,
  })),
);

/** The share of contracts a user must win to break even, basis points, rounded up. */
export function breakEvenWinRateBps(payoutBps: number): number {
  const denominator = BigInt(10_000 + payoutBps);
  return Number((100_000_000n + denominator - 1n) / denominator);
}
