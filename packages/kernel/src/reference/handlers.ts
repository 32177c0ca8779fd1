// The reference data's commands: define_asset, define_market, set_market_session, record_tick.

import { parseAmount, SCALE_MAX } from "../amount/amount.ts";
import { AMOUNT_SANITY_MAX } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { buildMarket, ID_PATTERN, installMarket, marketView, updateBand } from "./markets.ts";
import type { AssetState } from "./state.ts";
import type { Tick } from "./types.ts";
import { emit } from "../events.ts";

export const defineAsset: Handler<"define_asset"> = (state, command) => {
  if (!ID_PATTERN.test(command.assetId)) return fail("asset_invalid");
  if (command.scale < 0 || command.scale > SCALE_MAX) return fail("asset_invalid");
  if (
    command.amountMax !== null &&
    (command.amountMax <= 0n || command.amountMax > AMOUNT_SANITY_MAX)
  ) {
    return fail("asset_invalid");
  }
  const assets = state.reference.assets;
  if (assets.has(command.assetId)) return fail("asset_exists");
  const asset: AssetState = {
    assetId: command.assetId,
    scale: command.scale,
    amountMax: command.amountMax,
  };
  assets.set(asset.assetId, asset);
  emit(state, { type: "asset_defined", asset: { ...asset } });
  return DONE;
};

export const defineMarket: Handler<"define_market"> = (state, command) => {
  if (state.reference.markets.has(command.marketId)) return fail("market_exists");
  const market = buildMarket(state, command);
  if (typeof market === "string") return fail(market);
  installMarket(state, market);
  emit(state, { type: "market_defined", market: marketView(market) });
  return DONE;
};

export const setMarketSession: Handler<"set_market_session"> = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  market.open = command.open;
  emit(state, {
    type: "market_session_changed",
    marketId: market.marketId,
    open: market.open,
  });
  return DONE;
};

export const recordTick: Handler<"record_tick"> = (state, command) => {
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  if (command.tickId.length === 0 || command.tickId.length > 128) return fail("reference_invalid");
  if (command.tickAtMs < 0) return fail("timestamp_invalid");
  const price = parseAmount(command.price, SCALE_MAX);
  if (!price.ok || price.value <= 0n) return fail("price_invalid");
  if (command.quantity !== undefined && command.quantity !== null) {
    // Informational (the public trades' size), but a number like the price.
    const quantity = parseAmount(command.quantity, SCALE_MAX);
    if (!quantity.ok || quantity.value < 0n) return fail("reference_invalid");
  }
  const reference = state.reference;
  const last = reference.ticks.get(command.instrumentId);
  if (last !== undefined) {
    if (last.tickId === command.tickId) return fail("tick_exists");
    // The tape only moves forward: an older observation must not replace a newer one.
    if (command.tickAtMs < last.tickAtMs) return fail("tick_out_of_order");
  }
  const tick: Tick = {
    tickId: command.tickId,
    instrumentId: command.instrumentId,
    price: command.price,
    tickAtMs: command.tickAtMs,
    recordedAtMs: command.atMs,
  };
  reference.ticks.set(tick.instrumentId, tick);
  const anchored = reference.marketsByInstrument.get(tick.instrumentId);
  if (anchored !== undefined) {
    for (const market of anchored) updateBand(market, tick.price, tick.tickId);
  }
  emit(state, { type: "tick_recorded", tick: { ...tick } });
  // Products that follow the tape (marks, expiries) see the tick after the reference data.
  for (const module of state.modules) module.onTick?.(state, tick);
  return DONE;
};
