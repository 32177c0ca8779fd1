// Spot trading: orders on the books of spot markets. Commands, results, views and events.

import type { Side, TimeInForce } from "../book/types.ts";
import type { CancelledValue, CommandBase, Mode } from "../types.ts";

export type { Side, TimeInForce } from "../book/types.ts";

/** Limit orders name a price; market orders take what the book offers within the price band. */
export type OrderType = "limit" | "market";

/**
 * Places a spot order on the book of `marketId` in `mode`. The kernel issues the order id.
 * - limit: `priceTicks` and `quantityLots` set, `quoteAmount` null; any time in force.
 * - market sell: `quantityLots` set, others null; `timeInForce` must be "ioc".
 * - market buy: exactly one of `quantityLots` or `quoteAmount` (quote smallest units to spend)
 *   set, `priceTicks` null; `timeInForce` must be "ioc".
 * Market orders trade only within `priceBandBps` of the last tick of the market's instrument.
 */
export interface PlaceOrderCommand extends CommandBase {
  type: "place_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
}

/** Cancels one open order of the owner. */
export interface CancelOrderCommand extends CommandBase {
  type: "cancel_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
}

/**
 * Moves an open order to a new price and remaining quantity. It keeps its order id, loses its
 * time priority and may trade like a new order. A rejection leaves the old order as it was.
 */
export interface ReplaceOrderCommand extends CommandBase {
  type: "replace_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
  priceTicks: number;
  quantityLots: number;
}

/** Cancels every open order of the owner in `mode`, in one market or (null) all. */
export interface CancelAllCommand extends CommandBase {
  type: "cancel_all";
  ownerId: string;
  mode: Mode;
  marketId: string | null;
}

/** How an order ended or stands. */
export type OrderStatus = "open" | "filled" | "cancelled" | "expired" | "rejected";

/** Why an order was cancelled. */
export type CancelReason = "user" | "cancel_all" | "replaced" | "self_trade" | "demo_reset";

/** What place_order and replace_order return: the order and how it stands after matching. */
export interface OrderOutcome {
  orderId: number;
  /** `open` (rests), `filled`, or `expired` (ioc / market remainder dropped). */
  orderStatus: OrderStatus;
  /** Lots this command filled (for a replace: since the replace). */
  filledLots: number;
  /** Lots left resting in the book. */
  restingLots: number;
}

/** What cancel_order returns. */
export interface CancelOrderValue {
  orderId: number;
  /** Always 1. */
  cancelledCount: number;
}

/** An order as the kernel holds it (and reports it in queries). */
export interface OrderView {
  orderId: number;
  /** The id of the place_order (or replace_order) command: the client's order id. */
  clientOrderId: string;
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  /** Limit price; for market orders, the band edge it was allowed to trade to. */
  priceTicks: number;
  /** Ordered lots; for a market buy by quote amount, the lots the quote amount could buy. */
  quantityLots: number;
  /** Quote to spend (market buy by quote amount), else null. */
  quoteAmount: bigint | null;
  filledLots: number;
  remainingLots: number;
  /** Funds still held for it: quote for buys, base for sells. */
  heldAmount: bigint;
  status: OrderStatus;
  createdAtMs: number;
}

/** Book depth of one market and mode, best first. */
export interface DepthView {
  marketId: string;
  mode: Mode;
  bids: { priceTicks: number; quantityLots: number; orderCount: number }[];
  asks: { priceTicks: number; quantityLots: number; orderCount: number }[];
}

export interface OrderAcceptedEvent {
  type: "order_accepted";
  order: OrderView;
}

/** The unfilled remainder now rests in the book. */
export interface OrderRestedEvent {
  type: "order_rested";
  orderId: number;
  priceTicks: number;
  remainingLots: number;
  heldAmount: bigint;
}

/** One trade. Fees are in the asset each side receives, rounded up. */
export interface FillEvent {
  type: "fill";
  /** Sequence number over the whole kernel. */
  fillId: number;
  marketId: string;
  mode: Mode;
  makerOrderId: number;
  takerOrderId: number;
  makerOwnerId: string;
  takerOwnerId: string;
  /** The taker's side. */
  takerSide: Side;
  priceTicks: number;
  quantityLots: number;
  /** Base smallest units traded. */
  baseAmount: bigint;
  /** Quote smallest units traded. */
  quoteAmount: bigint;
  /** In the asset the maker receives (base if the maker bought, quote if it sold). */
  feeMaker: bigint;
  feeMakerAssetId: string;
  feeTaker: bigint;
  feeTakerAssetId: string;
  /** Latest tick of the market's instrument at the time of the fill, or null if none yet. */
  tickId: string | null;
  atMs: number;
}

/** An open order was moved (replace_order), before any matching at its new price. */
export interface OrderReplacedEvent {
  type: "order_replaced";
  orderId: number;
  priceTicks: number;
  remainingLots: number;
  heldAmount: bigint;
}

export interface OrderCancelledEvent {
  type: "order_cancelled";
  orderId: number;
  reason: CancelReason;
  remainingLots: number;
  /** Funds released back to available. */
  releasedAmount: bigint;
}

/** The order left the kernel: filled, cancelled, or expired (ioc / market remainder dropped). */
export interface OrderDoneEvent {
  type: "order_done";
  orderId: number;
  status: "filled" | "cancelled" | "expired";
  filledLots: number;
}

declare module "../types.ts" {
  interface CommandMap {
    place_order: PlaceOrderCommand;
    cancel_order: CancelOrderCommand;
    replace_order: ReplaceOrderCommand;
    cancel_all: CancelAllCommand;
  }
  interface ResultMap {
    place_order: OrderOutcome;
    cancel_order: CancelOrderValue;
    replace_order: OrderOutcome;
    cancel_all: CancelledValue;
  }
  interface EventMap {
    order_accepted: OrderAcceptedEvent;
    order_rested: OrderRestedEvent;
    order_replaced: OrderReplacedEvent;
    fill: FillEvent;
    order_cancelled: OrderCancelledEvent;
    order_done: OrderDoneEvent;
  }
}
