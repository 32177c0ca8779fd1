// Markets for tests and examples. BTC-PERP mirrors Binance's BTCUSDT brackets: price step 0.1,
// one lot = 0.001 BTC, USDT at 6 decimals, so one lot at one tick is 100 quote units
// (0.0001 USDT) and 30,000.0 USDT is 300,000 ticks.

import { parseDecimal } from "@candor/decimal";
import type { PerpMarket, PerpMarketParams } from "./params.ts";
import { definePerpMarket } from "./params.ts";

/** A USDT amount in smallest units: `usdt("12.5")` is 12,500,000n. Throws on bad text. */
export function usdt(text: string): bigint {
  const parsed = parseDecimal(text, 6, { allowNegative: true });
  if (!parsed.ok) throw new RangeError(`not a USDT amount: ${text}`);
  return parsed.value;
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
        notionalFloor: usdt("50000"),
        maintenanceMarginRateBps: 50,
        maintenanceAmount: usdt("50"),
        leverageMax: 100,
      },
      {
        notionalFloor: usdt("250000"),
        maintenanceMarginRateBps: 100,
        maintenanceAmount: usdt("1300"),
        leverageMax: 50,
      },
      {
        notionalFloor: usdt("1000000"),
        maintenanceMarginRateBps: 250,
        maintenanceAmount: usdt("16300"),
        leverageMax: 20,
      },
      {
        notionalFloor: usdt("10000000"),
        maintenanceMarginRateBps: 500,
        maintenanceAmount: usdt("266300"),
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
