/** A loan product as the deployment configures it (whole units as decimal strings). */
export interface LoanProductConfig {
  productId: string;
  loanAsset: string;
  collateralAsset: string;
  instrumentId: string;
  ltvInitialBps: number;
  ltvMarginCallBps: number;
  ltvLiquidationBps: number;
  amountMin: string;
  amountMax: string;
  termDays: number;
  dailyRatePpm: number;
  reviewRequired: boolean;
}

/**
 * The products a new deployment starts with: USDT lent against BTC or ETH (Binance crypto-loan
 * style terms), one lent at once and one reviewed by an operator. Configured once by journaled
 * `loans_configure` commands; the operator changes them through
 * `PUT /api/v1/operator/loans/products`.
 */
export const defaultLoanProducts: readonly LoanProductConfig[] = [
  {
    productId: "BTC-USDT-7D",
    loanAsset: "USDT",
    collateralAsset: "BTC",
    instrumentId: "BTCUSDT",
    ltvInitialBps: 6_500,
    ltvMarginCallBps: 7_500,
    ltvLiquidationBps: 8_500,
    amountMin: "10",
    amountMax: "100000",
    termDays: 7,
    dailyRatePpm: 300,
    reviewRequired: false,
  },
  {
    productId: "BTC-USDT-30D-REVIEWED",
    loanAsset: "USDT",
    collateralAsset: "BTC",
    instrumentId: "BTCUSDT",
    ltvInitialBps: 6_000,
    ltvMarginCallBps: 7_500,
    ltvLiquidationBps: 8_500,
    amountMin: "1000",
    amountMax: "500000",
    termDays: 30,
    dailyRatePpm: 250,
    reviewRequired: true,
  },
  {
    productId: "ETH-USDT-7D",
    loanAsset: "USDT",
    collateralAsset: "ETH",
    instrumentId: "ETHUSDT",
    ltvInitialBps: 6_500,
    ltvMarginCallBps: 7_500,
    ltvLiquidationBps: 8_500,
    amountMin: "10",
    amountMax: "50000",
    termDays: 7,
    dailyRatePpm: 350,
    reviewRequired: false,
  },
];
