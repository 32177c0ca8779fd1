// Stocks: the operator's configuration (terms, sessions, the house's inventory) and the
// holder's take-profit and stop-loss. Orders and fills are in orders.ts.

import { emit } from "../events.ts";
import { findOwner } from "../ledger/accounts.ts";
import { AMOUNT_SANITY_MAX } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { ID_PATTERN } from "../reference/markets.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import type { KernelState } from "../state.ts";
import { limitUnitsOf } from "./pricing.ts";
import { holdingKey, type StockConfigState, type StockHoldingState } from "./state.ts";

import {
  closeOrder,
  COMMISSION_BPS_MAX,
  holdingView,
  inventoryOf,
  inventoryView,
  priceText,
  SPREAD_BPS_MAX,
  STAMP_DUTY_BPS_MAX,
  TICK_AGE_MS_MAX,
} from "./orders.ts";

export const stockConfigure: Handler<"stock_configure"> = (state, command) => {
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const existing = state.stocks.configs.get(command.instrumentId);
  const int = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
  if (
    !int(command.priceScale, 0, 8) ||
    !int(command.quantityLotsMax, 1, 1_000_000) ||
    !int(command.spreadBps, 0, SPREAD_BPS_MAX) ||
    !int(command.commissionBps, 0, COMMISSION_BPS_MAX) ||
    !int(command.stampDutyBps, 0, STAMP_DUTY_BPS_MAX) ||
    !int(command.tickAgeMaxMs, 1, TICK_AGE_MS_MAX) ||
    command.lotSize < 1n ||
    command.lotSize > 1_000_000n ||
    command.commissionMin < 0n ||
    command.commissionMin > AMOUNT_SANITY_MAX ||
    command.stampDutyRoundUnits < 1n ||
    command.stampDutyRoundUnits > 1_000_000n ||
    (existing !== undefined && existing.assetId !== asset.assetId)
  ) {
    return fail("stock_terms_invalid");
  }
  const config: StockConfigState = {
    instrumentId: command.instrumentId,
    assetId: asset.assetId,
    priceScale: command.priceScale,
    lotSize: command.lotSize,
    quantityLotsMax: command.quantityLotsMax,
    spreadBps: command.spreadBps,
    commissionBps: command.commissionBps,
    commissionMin: command.commissionMin,
    stampDutyBps: command.stampDutyBps,
    stampDutyRoundUnits: command.stampDutyRoundUnits,
    tickAgeMaxMs: command.tickAgeMaxMs,
    open: command.open,
  };
  state.stocks.configs.set(config.instrumentId, config);
  if (!state.stocks.sessions.has(config.instrumentId)) {
    state.stocks.sessions.set(config.instrumentId, {
      instrumentId: config.instrumentId,
      open: false,
      sessionSeq: 0,
      sessionId: null,
    });
  }
  emit(state, { type: "stock_configured", config: { ...config }, operatorId: command.operatorId });
  return DONE;
};

export const stockSession: Handler<"stock_session"> = (state, command) => {
  const session = state.stocks.sessions.get(command.instrumentId);
  if (session === undefined) return fail("stock_not_configured");
  if (command.sessionId !== null && !/^[ -~]{1,64}$/.test(command.sessionId)) {
    return fail("stock_terms_invalid");
  }
  if (session.open === command.open) {
    session.sessionId = command.sessionId;
    emit(state, { type: "stock_session_changed", session: { ...session } });
    return DONE;
  }
  if (command.open) {
    session.open = true;
    session.sessionSeq++;
    session.sessionId = command.sessionId;
  } else {
    session.open = false;
    // The session ended: its day orders (and queued ones of earlier sessions) expire.
    const byInstrument = state.stocks.pendingByInstrument.get(command.instrumentId);
    const due = [...(byInstrument?.values() ?? [])].filter(
      (o) => o.expiresAfterSession !== null && o.expiresAfterSession <= session.sessionSeq,
    );
    for (const order of due) closeOrder(state, order, "expired");
    session.sessionId = command.sessionId;
  }
  emit(state, { type: "stock_session_changed", session: { ...session } });
  return DONE;
};

export const stockFundInventory: Handler<"stock_fund_inventory"> = (state, command) => {
  const config = state.stocks.configs.get(command.instrumentId);
  if (config === undefined) return fail("stock_not_configured");
  if (
    command.quantity === 0n ||
    command.quantity > 1_000_000_000_000n ||
    command.quantity < -1_000_000_000_000n ||
    command.quantity % config.lotSize !== 0n ||
    !/^[ -~]{1,200}$/.test(command.reference)
  ) {
    return fail("stock_quantity_invalid");
  }
  const inventory = inventoryOf(state, command.mode, command.instrumentId);
  if (inventory.available + command.quantity < 0n) return fail("stock_inventory_insufficient");
  inventory.available += command.quantity;
  inventory.funded += command.quantity;
  emit(state, {
    type: "stock_inventory_changed",
    inventory: inventoryView(inventory),
    fundedChange: command.quantity,
    operatorId: command.operatorId,
    reference: command.reference,
  });
  return DONE;
};

export const stockSetTpSl: Handler<"stock_set_tpsl"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const config = state.stocks.configs.get(command.instrumentId);
  if (config === undefined) return fail("stock_not_configured");
  const holding = state.stocks.holdings.get(
    holdingKey(owner.mode, owner.ownerId, command.instrumentId),
  );
  if (holding === undefined || holding.quantity === 0n) return fail("stock_holding_insufficient");
  const tp =
    command.takeProfit === null ? null : limitUnitsOf(command.takeProfit, config.priceScale);
  const sl = command.stopLoss === null ? null : limitUnitsOf(command.stopLoss, config.priceScale);
  if ((command.takeProfit !== null && tp === null) || (command.stopLoss !== null && sl === null)) {
    return fail("stock_price_invalid");
  }
  if (tp !== null && sl !== null && sl >= tp) return fail("stock_price_invalid");
  setArmed(state, holding, tp, sl);
  holding.takeProfit = tp === null ? null : priceText(tp, config.priceScale);
  holding.stopLoss = sl === null ? null : priceText(sl, config.priceScale);
  emit(state, { type: "stock_holding_changed", holding: holdingView(holding) });
  return DONE;
};

/** Sets a holding's trigger prices and keeps the per-instrument index in step. */
export function setArmed(
  state: KernelState,
  holding: StockHoldingState,
  tp: bigint | null,
  sl: bigint | null,
): void {
  holding.takeProfitUnits = tp;
  holding.stopLossUnits = sl;
  const key = holdingKey(holding.mode, holding.ownerId, holding.instrumentId);
  const armed = state.stocks.armedByInstrument;
  if (tp === null && sl === null) {
    const set = armed.get(holding.instrumentId);
    set?.delete(key);
    if (set?.size === 0) armed.delete(holding.instrumentId);
    holding.takeProfit = null;
    holding.stopLoss = null;
    return;
  }
  let set = armed.get(holding.instrumentId);
  if (set === undefined) {
    set = new Set();
    armed.set(holding.instrumentId, set);
  }
  set.add(key);
}
