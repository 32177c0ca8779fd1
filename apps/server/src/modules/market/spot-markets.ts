import type { Command } from "@candor/kernel";
import { formatDecimalFixed } from "@candor/decimal";
import type { Instrument } from "@candor/market";
import type { Unstamped } from "../../engine/engine.ts";

/** The kernel market id of a spot instrument: "BTCUSDT" → "BTC-USDT". */
export function spotMarketId(instrument: Instrument): string {
  return `${instrument.base.symbol}-${instrument.quote.symbol}`;
}

/** Instruments with a spot order book (the crypto pairs). */
export function spotInstruments(list: readonly Instrument[]): Instrument[] {
  return list.filter((i) => i.products.includes("spot"));
}

/**
 * Commands that define the spot assets and markets from the catalogue and open them (crypto
 * trades 24/7). Ids are fixed, so running them on every start is harmless: a repeat inside the
 * idempotency window is a duplicate, later ones are rejected with `asset_exists` /
 * `market_exists` and change nothing.
 */
export function spotSetupCommands(list: readonly Instrument[]): Unstamped<Command>[] {
  const spot = spotInstruments(list);
  const assets = new Map<string, number>();
  for (const i of spot) {
    assets.set(i.quote.symbol, i.quote.decimals);
    assets.set(i.base.symbol, i.base.decimals);
  }
  const commands: Unstamped<Command>[] = [...assets].map(([assetId, scale]) => ({
    type: "define_asset",
    id: `setup:asset:${assetId}`,
    assetId,
    scale,
    amountMax: null,
  }));
  for (const i of spot) {
    const marketId = spotMarketId(i);
    commands.push({
      type: "define_market",
      id: `setup:market:${marketId}`,
      marketId,
      baseAssetId: i.base.symbol,
      quoteAssetId: i.quote.symbol,
      instrumentId: i.id,
      priceStep: formatDecimalFixed(i.tickSize, i.priceScale),
      lotSize: formatDecimalFixed(i.lotSize, i.quantityScale),
      quantityLotsMin: 1,
      quantityLotsMax: 10_000_000,
      feeBpsMaker: 10,
      feeBpsTaker: 10,
      priceBandBps: 500,
      levelsPerSideMax: null,
      ordersPerBookMax: null,
    } as Unstamped<Command>);
    commands.push({
      type: "set_market_session",
      id: `setup:session:${marketId}:open`,
      marketId,
      open: true,
    });
  }
  return commands;
}
