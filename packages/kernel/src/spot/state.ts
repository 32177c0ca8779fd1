// Spot's slice of kernel state: open orders and the id sequences of orders and fills.

import type { BookListener, BookOrderInput, OrderBook, OrderChange } from "../book/types.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { MarketState } from "../reference/state.ts";
import type { Mode } from "../types.ts";
import type { OrderStatus, OrderType, Side, TimeInForce } from "./types.ts";

export interface OrderState {
  orderId: number;
  clientOrderId: string;
  owner: OwnerState;
  /** `owner.ownerId` and `owner.mode`, kept here so a cancel or replace checks them in place. */
  ownerId: string;
  mode: Mode;
  market: MarketState;
  book: OrderBook;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number;
  quantityLots: number;
  quoteAmount: bigint | null;
  filledLots: number;
  heldAmount: bigint;
  /** Quote account for buys, base account for sells. */
  holdAccount: Account;
  baseAccount: Account;
  quoteAccount: Account;
  status: OrderStatus;
  createdAtMs: number;
}

/** Spot's slice: `state.spot`. */
export interface SpotState {
  /** Open orders by id. */
  orders: Map<number, OrderState>;
  orderIdNext: number;
  fillIdNext: number;
  /** Open order ids of each owner, by `OwnerState.index` (unset until its first order). */
  openByOwner: (Set<number> | undefined)[];
  /** The order being matched, for the shared book listener. */
  taker: OrderState | null;
  /** One listener per kernel, so matching allocates no callbacks. */
  listener: BookListener;
  /** Scratch arguments of book calls, filled in per call (books never keep them). */
  bookInput: BookOrderInput;
  bookChange: OrderChange;
}

/** The open order ids of an owner (an empty set from the first call on). */
export function openOrderIds(spot: SpotState, owner: OwnerState): Set<number> {
  let ids = spot.openByOwner[owner.index];
  if (ids === undefined) {
    ids = new Set();
    spot.openByOwner[owner.index] = ids;
  }
  return ids;
}
