import { getAssets, getMarkets, type Command } from "@candor/kernel";
import type { CandorEngine, CandorCommand } from "./kernel-port.ts";

/*
 * The assets and spot markets every deployment starts with, declared at start-up through the
 * journal like any other command. Kept in this one place so it is easy to replace with the full
 * instrument catalogue of `packages/market` once each instrument's lot and tick suit the kernel
 * (one lot at one tick must be a whole number of quote units).
 */
type AssetDefinition = Omit<Extract<Command, { type: "define_asset" }>, "atMs" | "id" | "type">;
type MarketDefinition = Omit<Extract<Command, { type: "define_market" }>, "atMs" | "id" | "type">;

export const startingAssets: AssetDefinition[] = [
  { assetId: "USDT", scale: 6, amountMax: null },
  { assetId: "BTC", scale: 8, amountMax: null },
  { assetId: "ETH", scale: 8, amountMax: null },
];

const spot = (base: string, priceStep: string, lotSize: string): MarketDefinition => ({
  // The market id is the instrument id of `packages/market`, so ticks of the simulator anchor it.
  marketId: `${base}USDT`,
  baseAssetId: base,
  quoteAssetId: "USDT",
  instrumentId: null,
  priceStep,
  lotSize,
  quantityLotsMin: 1,
  quantityLotsMax: 1_000_000,
  feeBpsMaker: 10,
  feeBpsTaker: 10,
  priceBandBps: 500,
  levelsPerSideMax: null,
  ordersPerBookMax: null,
});

export const startingMarkets: MarketDefinition[] = [
  spot("BTC", "0.01", "0.0001"),
  spot("ETH", "0.01", "0.001"),
];

/**
 * Declares missing assets and markets and opens new markets, idempotently: what the kernel
 * already knows (from the journal) is left alone, so restarts add nothing.
 */
export async function declareStartingMarkets(engine: CandorEngine): Promise<number> {
  const knownAssets = new Set(engine.query((state) => getAssets(state).map((a) => a.assetId)));
  const knownMarkets = new Set(engine.query((state) => getMarkets(state).map((m) => m.marketId)));
  const commands: CandorCommand[] = [];
  for (const asset of startingAssets) {
    if (knownAssets.has(asset.assetId)) continue;
    commands.push({ type: "define_asset", id: `define_asset:${asset.assetId}`, ...asset });
  }
  for (const market of startingMarkets) {
    if (knownMarkets.has(market.marketId)) continue;
    commands.push({ type: "define_market", id: `define_market:${market.marketId}`, ...market });
    commands.push({
      type: "set_market_session",
      id: `open_market:${market.marketId}`,
      marketId: market.marketId,
      open: true,
    });
  }
  for (const command of commands) {
    const applied = await engine.submit(command);
    if (!applied.result.ok) {
      throw new Error(`start-up declaration ${command.id} rejected: ${applied.result.code}`);
    }
  }
  return commands.length;
}
