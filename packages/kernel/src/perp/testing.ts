// Markets for tests and examples. BTC-PERP mirrors Binance's BTCUSDT brackets: price step 0.1,
// one lot = 0.001 BTC, USDT at 6 decimals, so one lot at one tick is 100 quote units
// (0.0001 USDT) and 30,000.0 USDT is 300,000 ticks.

import type { PerpMarket, PerpMarketParams } from "./params.ts";
import { definePerpMarket } from "./params.ts";

/** USDT amounts in smallest units: `usdt(12.5)` is 12,500,000n. Whole and half numbers only. */
export function usdt(amount: number): bigint {
  return BigInt(Math.round(amount * 1_000_000));
}

/** BTC-PERP's parameters; `overrides` replace single fields. */
export function btcPerpParams(overrides: Partial<PerpMarketParams> = {}): PerpMarketParams {
  return {
    marketId: "BTC-PERP",
    instrumentId: "BTC-USDT",
    quoteAssetId: "USDT",
    quoteScale: 6,
    priceStep: "0.1",
    contractSize: "0.001",
    quantityLotsMin: 1,
    quantityLotsMax: 1_000_000,
    leverageMax: 125,
    leverageDefault: 20,
    tiers: [
      { notionalFloor: 0n, maintenanceMarginRateBps: 40, maintenanceAmount: 0n, leverageMax: 125 },
      {
        notionalFloor: usdt(50_000),
        maintenanceMarginRateBps: 50,
        maintenanceAmount: usdt(50),
        leverageMax: 100,
      },
      {
        notionalFloor: usdt(250_000),
        maintenanceMarginRateBps: 100,
        maintenanceAmount: usdt(1_300),
        leverageMax: 50,
      },
      {
        notionalFloor: usdt(1_000_000),
        maintenanceMarginRateBps: 250,
        maintenanceAmount: usdt(16_300),
        leverageMax: 20,
      },
      {
        notionalFloor: usdt(10_000_000),
        maintenanceMarginRateBps: 500,
        maintenanceAmount: usdt(266_300),
        leverageMax: 10,
      },
    ],
    feeBpsMaker: 2,
    feeBpsTaker: 5,
    fundingIntervalMs: 28_800_000,
    fundingCapBps: 30,
    interestBpsPerDay: 3,
    priceBandBps: 500,
    markBasisCapBps: 50,
    liquidationFeeBps: 10,
    ...overrides,
  };
}

/** BTC-PERP, validated; throws when the overrides make it invalid. */
export function btcPerp(overrides: Partial<PerpMarketParams> = {}): PerpMarket {
  const defined = definePerpMarket(btcPerpParams(overrides));
  if (!defined.ok) throw new Error(`invalid test market: ${defined.codes.join(", ")}`);
  return defined.value;
}
