// Queries of the stock product: what the server reads to answer requests.

import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { holdingView, orderView } from "./orders.ts";
import { holdingKey, inventoryKey } from "./state.ts";
import type {
  StockConfigView,
  StockHoldingView,
  StockInventoryView,
  StockOrderView,
  StockSessionView,
} from "./types.ts";

export function getStockConfigs(state: KernelState): StockConfigView[] {
  return [...state.stocks.configs.values()]
    .map((c) => ({ ...c }))
    .sort((a, b) =>
      a.instrumentId < b.instrumentId ? -1 : a.instrumentId > b.instrumentId ? 1 : 0,
    );
}

export function getStockSession(
  state: KernelState,
  instrumentId: string,
): StockSessionView | undefined {
  const session = state.stocks.sessions.get(instrumentId);
  return session === undefined ? undefined : { ...session };
}

export function getStockInventory(
  state: KernelState,
  mode: Mode,
  instrumentId: string,
): StockInventoryView {
  const inventory = state.stocks.inventory.get(inventoryKey(mode, instrumentId));
  return inventory === undefined
    ? { mode, instrumentId, funded: 0n, available: 0n, reserved: 0n }
    : { ...inventory };
}

/** An owner's pending orders in one mode, newest first. */
export function getStockPendingOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): StockOrderView[] {
  const out: StockOrderView[] = [];
  for (const order of state.stocks.pending.values()) {
    if (order.ownerId === ownerId && order.mode === mode) out.push(orderView(order));
  }
  return out.reverse();
}

export function getStockPendingOrder(
  state: KernelState,
  orderId: number,
): StockOrderView | undefined {
  const order = state.stocks.pending.get(orderId);
  return order === undefined ? undefined : orderView(order);
}

/** An owner's holdings in one mode (those with shares or realised PnL), by instrument. */
export function getStockHoldings(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): StockHoldingView[] {
  const out: StockHoldingView[] = [];
  for (const holding of state.stocks.holdings.values()) {
    if (holding.ownerId !== ownerId || holding.mode !== mode) continue;
    if (holding.quantity === 0n && holding.realisedPnl === 0n) continue;
    out.push(holdingView(holding));
  }
  return out.sort((a, b) => (a.instrumentId < b.instrumentId ? -1 : 1));
}

export function getStockHolding(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  instrumentId: string,
): StockHoldingView | undefined {
  const holding = state.stocks.holdings.get(holdingKey(mode, ownerId, instrumentId));
  return holding === undefined ? undefined : holdingView(holding);
}
