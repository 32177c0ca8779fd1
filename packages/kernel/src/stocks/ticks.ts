// Stocks on the tape: a recorded tick fills crossing limit orders and triggers take-profits
// and stop-losses (sent as market sells); a demo reset cancels the owner's demo orders.

import { emit } from "../events.ts";
import { accountOf, systemOwner } from "../ledger/accounts.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { Tick } from "../reference/types.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import { crosses, executablePrice, fillCost, priceUnitsOf } from "./pricing.ts";
import { type StockConfigState, type StockHoldingState, type StockOrderState } from "./state.ts";
import type { StockOrderOrigin, StockSide } from "./types.ts";

import {
  addPending,
  assetScale,
  closeOrder,
  fillOrder,
  holdingView,
  inventoryOf,
  orderView,
} from "./orders.ts";
import { setArmed } from "./configure.ts";

/**
 * record_tick: during the session, pending limit orders of the instrument whose limit the
 * tick's executable price crosses fill (in order-id order), then armed take-profits and
 * stop-losses trigger market sells of the holding's free shares.
 */
export function stocksOnTick(state: KernelState, tick: Tick): void {
  const stocks = state.stocks;
  const config = stocks.configs.get(tick.instrumentId);
  if (config === undefined || stocks.sessions.get(tick.instrumentId)?.open !== true) return;
  const quote = priceUnitsOf(tick.price);
  if (quote === null) return;
  const byInstrument = stocks.pendingByInstrument.get(tick.instrumentId);
  if (byInstrument !== undefined) {
    const due = [...byInstrument.values()].filter((o) =>
      crosses(o.side, o.limitUnits!, executablePrice(config, o.side, quote)),
    );
    due.sort((a, b) => a.orderId - b.orderId);
    for (const order of due)
      fillOrder(state, order, config, tick, executablePrice(config, order.side, quote));
  }
  const armed = stocks.armedByInstrument.get(tick.instrumentId);
  if (armed === undefined) return;
  for (const key of [...armed].sort()) {
    const holding = stocks.holdings.get(key)!;
    let origin: StockOrderOrigin | null = null;
    if (holding.takeProfitUnits !== null && quote >= holding.takeProfitUnits)
      origin = "take_profit";
    else if (holding.stopLossUnits !== null && quote <= holding.stopLossUnits) origin = "stop_loss";
    if (origin === null) continue;
    triggerSell(state, holding, config, tick, quote, origin);
  }
}

function triggerSell(
  state: KernelState,
  holding: StockHoldingState,
  config: StockConfigState,
  tick: Tick,
  quote: bigint,
  origin: StockOrderOrigin,
): void {
  const free = holding.quantity - holding.heldQuantity;
  const quantity = free - (free % config.lotSize);
  const side: StockSide = "sell";
  const executable = executablePrice(config, side, quote);
  const cost = fillCost(config, side, executable, quantity, assetScale(state, config.assetId));
  const house = systemOwner(state, holding.mode, systemOwners.house);
  const houseFund = accountOf(state, house, "fund", config.assetId);
  // Nothing to sell, or the house cannot pay: the trigger stays armed for a later tick.
  if (quantity <= 0n || cost.net <= 0n || houseFund.available < cost.notional) return;
  const order: StockOrderState = {
    orderId: state.stocks.orderIdNext++,
    clientOrderId: origin + ":" + tick.tickId,
    ownerId: holding.ownerId,
    mode: holding.mode,
    instrumentId: holding.instrumentId,
    assetId: holding.assetId,
    side,
    kind: "market",
    tif: "day",
    origin,
    quantity,
    limitPrice: null,
    limitUnits: null,
    prepaid: 0n,
    houseReserved: 0n,
    placedAtMs: state.nowMs,
    expiresAfterSession: null,
    status: "pending",
    closedAtMs: null,
  };
  setArmed(state, holding, null, null);
  holding.heldQuantity += quantity;
  addPending(state, order);
  state.stocks.ordersPlaced++;
  emit(state, { type: "stock_order_placed", order: orderView(order) });
  fillOrder(state, order, config, tick, executable);
}

/** reset_demo: the owner's pending demo orders are cancelled and the shares go back to the house. */
export function stocksOnDemoReset(state: KernelState, owner: OwnerState): number {
  let cancelled = 0;
  for (const order of [...state.stocks.pending.values()]) {
    if (order.mode !== "demo" || order.ownerId !== owner.ownerId) continue;
    closeOrder(state, order, "cancelled");
    cancelled++;
  }
  for (const holding of state.stocks.holdings.values()) {
    if (holding.mode !== "demo" || holding.ownerId !== owner.ownerId) continue;
    if (holding.quantity > 0n) {
      const inventory = inventoryOf(state, "demo", holding.instrumentId);
      inventory.available += holding.quantity;
    }
    setArmed(state, holding, null, null);
    holding.quantity = 0n;
    holding.costBasis = 0n;
    holding.realisedPnl = 0n;
    emit(state, { type: "stock_holding_changed", holding: holdingView(holding) });
  }
  return cancelled;
}
