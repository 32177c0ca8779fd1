// Spot's slice of kernel state: open orders and the id sequences of orders and fills.

import type {
  BookListener,
  BookOrderInput,
  OrderBook,
  OrderChange,
  SelfTradeMode,
} from "../book/types.ts";
import type { TriggerDirection, TriggerIndex } from "../perp/trigger-index.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { MarketState } from "../reference/state.ts";
import type { Mode } from "../types.ts";
import type { ConditionalKind, OrderStatus, OrderType, Side, TimeInForce } from "./types.ts";
import { bigintOfSafeInteger } from "../amount/bigint-of.ts";

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
  /** What the order holds (the record). Set it through `setHeld` / `setHeldUnits`. */
  heldAmount: bigint;
  /**
   * `heldAmount` as a double when it is at most 2^53 − 1 (so exactly), else -1. Lets the
   * replace path compare and subtract holds without BigInt calls or a hop to the BigInt.
   */
  heldUnits: number;
  /** Quote account for buys, base account for sells. */
  holdAccount: Account;
  baseAccount: Account;
  quoteAccount: Account;
  status: OrderStatus;
  createdAtMs: number;
  selfTradeMode: SelfTradeMode;
  /** The pending stop leg of its OCO pair, when it is the unfilled limit leg of one; else 0. */
  ocoConditionalId: number;
  /** The conditional order that placed it; else 0. */
  fromConditionalId: number;
}

/** A conditional order waiting for its trigger (see `PlaceConditionalOrderCommand`). */
export interface ConditionalState {
  orderId: number;
  clientOrderId: string;
  owner: OwnerState;
  market: MarketState;
  side: Side;
  kind: ConditionalKind;
  orderType: OrderType;
  timeInForce: TimeInForce;
  triggerTicks: number;
  direction: TriggerDirection;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
  selfTradeMode: SelfTradeMode;
  heldAmount: bigint;
  holdAccount: Account;
  /** The limit leg of its OCO pair; else 0. */
  ocoOrderId: number;
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
  /** Pending conditional orders by id (ids from `orderIdNext`, shared with orders). */
  conditionals: Map<number, ConditionalState>;
  /** Pending conditional ids of each owner, by `OwnerState.index`. */
  conditionalsByOwner: (Set<number> | undefined)[];
  /** Trigger indexes by `marketId|mode`: prices in the tape's scaled units. */
  triggers: Map<string, TriggerIndex>;
}

/** The pending conditional ids of an owner. */
export function conditionalIds(spot: SpotState, owner: OwnerState): Set<number> {
  let ids = spot.conditionalsByOwner[owner.index];
  if (ids === undefined) {
    ids = new Set();
    spot.conditionalsByOwner[owner.index] = ids;
  }
  return ids;
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

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** Sets an order's hold and its double copy. */
export function setHeld(order: OrderState, amount: bigint): void {
  order.heldAmount = amount;
  order.heldUnits = amount >= 0n && amount <= SAFE_MAX ? Number(amount) : -1;
}

/** Sets an order's hold from an exact double (a safe integer ≥ 0). */
export function setHeldUnits(order: OrderState, units: number): void {
  order.heldAmount = bigintOfSafeInteger(units);
  order.heldUnits = units;
}

/** The double copy of a hold: the amount when it is a safe integer ≥ 0, else -1. */
export function unitsOf(amount: bigint): number {
  return amount >= 0n && amount <= SAFE_MAX ? Number(amount) : -1;
}
