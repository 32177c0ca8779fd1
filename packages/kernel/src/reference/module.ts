// The reference data as a kernel module: assets, markets and the price tape.

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { Json, KernelModule } from "../module.ts";
import { defineAsset, defineMarket, recordTick, setMarketSession } from "./handlers.ts";
import { buildMarket, installMarket } from "./markets.ts";
import { createReferenceState, type ReferenceState } from "./state.ts";

declare module "../state.ts" {
  interface KernelSlices {
    reference: ReferenceState;
  }
}

function big(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

export const referenceModule = {
  name: "reference",
  createState: createReferenceState,
  commands: {
    define_asset: {
      typeCode: 0,
      fields: [
        ["assetId", "string"],
        ["scale", "int"],
        ["amountMax", "bigint?"],
      ],
      result: [],
    },
    define_market: {
      typeCode: 1,
      fields: [
        ["marketId", "string"],
        ["baseAssetId", "string"],
        ["quoteAssetId", "string"],
        ["instrumentId", "string?"],
        ["priceStep", "string"],
        ["lotSize", "string"],
        ["quantityLotsMin", "int"],
        ["quantityLotsMax", "int"],
        ["feeBpsMaker", "int"],
        ["feeBpsTaker", "int"],
        ["priceBandBps", "int"],
        ["levelsPerSideMax", "int?"],
        ["ordersPerBookMax", "int?"],
      ],
      result: [],
    },
    set_market_session: {
      typeCode: 2,
      fields: [
        ["marketId", "string"],
        ["open", "bool"],
      ],
      result: [],
    },
    record_tick: {
      typeCode: 16,
      fields: [
        ["tickId", "string"],
        ["instrumentId", "string"],
        ["price", "string"],
        ["tickAtMs", "int"],
        // Appended (issue 25): the print's size, so every node's public trades show it.
        ["quantity", "string?+"],
      ],
      result: [],
    },
  },
  handlers: {
    define_asset: defineAsset,
    define_market: defineMarket,
    set_market_session: setMarketSession,
    record_tick: recordTick,
  },
  snapshot: {
    write(state) {
      const reference = state.reference;
      const assets = [...reference.assets.values()]
        .sort((a, b) => compareStrings(a.assetId, b.assetId))
        .map((asset): Json => [asset.assetId, asset.scale, big(asset.amountMax)]);
      const ticks = [...reference.ticks.values()]
        .sort((a, b) => compareStrings(a.instrumentId, b.instrumentId))
        .map((tick): Json => [
          tick.instrumentId,
          tick.tickId,
          tick.price,
          tick.tickAtMs,
          tick.recordedAtMs,
        ]);
      const markets = [...reference.markets.values()]
        .sort((a, b) => compareStrings(a.marketId, b.marketId))
        .map((market): Json => [
          market.marketId,
          market.base.assetId,
          market.quote.assetId,
          market.instrumentId,
          market.priceStep,
          market.lotSize,
          market.quantityLotsMin,
          market.quantityLotsMax,
          market.feeBpsMaker,
          market.feeBpsTaker,
          market.priceBandBps,
          market.levelsPerSideMax,
          market.ordersPerBookMax,
          market.open,
        ]);
      return { assets, ticks, markets };
    },
    read(state, json) {
      const reference = state.reference;
      for (const [assetId, scale, amountMax] of json.assets as [string, number, string | null][]) {
        reference.assets.set(assetId, {
          assetId,
          scale,
          amountMax: amountMax === null ? null : BigInt(amountMax),
        });
      }
      for (const [instrumentId, tickId, price, tickAtMs, recordedAtMs] of json.ticks as [
        string,
        string,
        string,
        number,
        number,
      ][]) {
        reference.ticks.set(instrumentId, { tickId, instrumentId, price, tickAtMs, recordedAtMs });
      }
      for (const m of json.markets as Json[][]) {
        const market = buildMarket(state, {
          marketId: m[0] as string,
          baseAssetId: m[1] as string,
          quoteAssetId: m[2] as string,
          instrumentId: m[3] as string,
          priceStep: m[4] as string,
          lotSize: m[5] as string,
          quantityLotsMin: m[6] as number,
          quantityLotsMax: m[7] as number,
          feeBpsMaker: m[8] as number,
          feeBpsTaker: m[9] as number,
          priceBandBps: m[10] as number,
          levelsPerSideMax: m[11] as number,
          ordersPerBookMax: m[12] as number,
        });
        assert(typeof market !== "string", "snapshot market does not validate");
        market.open = m[13] as boolean;
        installMarket(state, market);
      }
    },
  },
} satisfies KernelModule;
