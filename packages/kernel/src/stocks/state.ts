// The stocks' slice of kernel state: terms, sessions, house inventory, pending orders and
// holdings. Filled and closed orders leave the kernel (their events are the record the server
// projects); the counters remember them, so "closed exactly once" can be checked.

import type { Mode } from "../types.ts";
import type {
  StockConfigView,
  StockHoldingView,
  StockOrderView,
  StockSessionView,
} from "./types.ts";

export type StockConfigState = StockConfigView;
export type StockSessionState = StockSessionView;

/** A pending order; prices as 10^-18 units. */
export interface StockOrderState extends StockOrderView {
  limitUnits: bigint | null;
}

/** A holding; `takeProfitUnits` / `stopLossUnits` as 10^-18 units. */
export interface StockHoldingState extends StockHoldingView {
  takeProfitUnits: bigint | null;
  stopLossUnits: bigint | null;
}

/** The house's shares of one stock in one mode. */
export interface StockInventoryState {
  mode: Mode;
  instrumentId: string;
  funded: bigint;
  available: bigint;
  reserved: bigint;
}

export interface StocksState {
  configs: Map<string, StockConfigState>;
  sessions: Map<string, StockSessionState>;
  /** By `mode|instrumentId`. */
  inventory: Map<string, StockInventoryState>;
  /** Pending orders by order id, in order-id order. */
  pending: Map<number, StockOrderState>;
  /** Pending orders per instrument (the tick hook visits only these). */
  pendingByInstrument: Map<string, Map<number, StockOrderState>>;
  /** Pending orders per owner (`mode|ownerId`). */
  pendingPerOwner: Map<string, number>;
  /** Holdings by `mode|ownerId|instrumentId`. */
  holdings: Map<string, StockHoldingState>;
  /** Holdings with a take-profit or stop-loss, per instrument. */
  armedByInstrument: Map<string, Set<string>>;
  orderIdNext: number;
  ordersPlaced: number;
  ordersClosed: number;
}

export function createStocksState(): StocksState {
  return {
    configs: new Map(),
    sessions: new Map(),
    inventory: new Map(),
    pending: new Map(),
    pendingByInstrument: new Map(),
    pendingPerOwner: new Map(),
    holdings: new Map(),
    armedByInstrument: new Map(),
    orderIdNext: 1,
    ordersPlaced: 0,
    ordersClosed: 0,
  };
}

export function inventoryKey(mode: Mode, instrumentId: string): string {
  return mode + "|" + instrumentId;
}

export function holdingKey(mode: Mode, ownerId: string, instrumentId: string): string {
  return mode + "|" + ownerId + "|" + instrumentId;
}
