// Spot trading: orders on the books of spot markets. Commands, results, views and events.

import type { SelfTradeMode, Side, TimeInForce } from "../book/types.ts";
import type { CancelledValue, CommandBase, Mode } from "../types.ts";

export type { SelfTradeMode, Side, TimeInForce } from "../book/types.ts";

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

/**
 * place_order with a self-trade prevention mode (see `SelfTradeMode`); `place_order` itself
 * always uses `cancel_resting`. The mode stays with the order (a replace or amend keeps it).
 */
export interface PlaceOrderStpCommand extends Omit<PlaceOrderCommand, "type"> {
  type: "place_order_stp";
  /** One of `selfTradeModes`. */
  selfTradeMode: string;
}

/**
 * Changes only the remaining size of an open order. A smaller size keeps the order's place in
 * the queue (its time priority) and releases the hold it no longer needs; a larger size is a
 * replace at the same price: the order loses its time priority (as on Binance and Coinbase) and
 * must hold the extra funds. The same size changes nothing.
 */
export interface AmendOrderSizeCommand extends CommandBase {
  type: "amend_order_size";
  ownerId: string;
  mode: Mode;
  orderId: number;
  /** The new remaining quantity in lots. */
  quantityLots: number;
}

/** `stop` fires when the price moves against the position, `take_profit` when in favour. */
export type ConditionalKind = "stop" | "take_profit";

/**
 * A conditional (trigger) spot order: it waits, holding its funds, until a tick of the
 * market's instrument on the recorded tape reaches `triggerTicks`, then enters the book as a
 * limit (stop-limit / take-profit-limit) or market (stop-market / take-profit-market) order.
 * A buy stop fires at or above its trigger, a sell stop at or below; take-profit the other way.
 * - limit: `priceTicks` and `quantityLots`; any time in force.
 * - market sell: `quantityLots`; market buy: `quoteAmount` (the quote to spend, held now, since
 *   the price it will pay is unknown until it fires); `timeInForce` "ioc".
 */
export interface PlaceConditionalOrderCommand extends CommandBase {
  type: "place_conditional_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  /** One of `ConditionalKind`. */
  kind: string;
  orderType: OrderType;
  timeInForce: TimeInForce;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
  selfTradeMode: string;
}

/**
 * One-cancels-the-other (Binance's OCO): a post-only limit order that rests now, and a stop
 * order of the same side and quantity that waits for `triggerTicks`. The first fill of the
 * limit leg cancels the stop; the stop firing cancels the limit leg; cancelling either cancels
 * both. `stopPriceTicks` null makes the stop leg a market order (sells only). The pair holds
 * the larger of what its two legs need.
 */
export interface PlaceOcoOrderCommand extends CommandBase {
  type: "place_oco_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  quantityLots: number;
  limitPriceTicks: number;
  triggerTicks: number;
  stopPriceTicks: number | null;
  selfTradeMode: string;
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
export type CancelReason = "user" | "cancel_all" | "replaced" | "self_trade" | "demo_reset" | "oco";

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
  /** Only when not the default `cancel_resting`. */
  selfTradeMode?: SelfTradeMode;
  /** The stop leg of its OCO pair, when it is the limit leg of one. */
  ocoConditionalId?: number;
  /** The conditional order that placed it, when a trigger did. */
  fromConditionalId?: number;
}

/** How a conditional order stands. */
export type ConditionalStatus = "pending" | "triggered" | "cancelled" | "rejected";

/** A conditional order as the kernel holds it. */
export interface ConditionalOrderView {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  kind: ConditionalKind;
  orderType: OrderType;
  timeInForce: TimeInForce;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
  selfTradeMode: SelfTradeMode;
  /** Funds held for it now (for an OCO stop leg: what it needs beyond the limit leg). */
  heldAmount: bigint;
  /** The limit leg, when it is the stop leg of an OCO pair. */
  ocoOrderId: number | null;
  status: ConditionalStatus;
  createdAtMs: number;
}

/** What place_conditional_order and place_oco_order return. */
export interface ConditionalOutcome {
  /** The conditional order (for an OCO: the stop leg; its view names the limit leg). */
  orderId: number;
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

/** An open order's size was lowered in place (amend_order_size); it kept its time priority. */
export interface OrderAmendedEvent {
  type: "order_amended";
  orderId: number;
  remainingLots: number;
  heldAmount: bigint;
  releasedAmount: bigint;
}

export interface ConditionalAcceptedEvent {
  type: "conditional_accepted";
  order: ConditionalOrderView;
}

/**
 * A tick of the tape reached a conditional order's trigger. `orderId` is then placed as an
 * ordinary order (its events follow) under `resultOrderId`, or refused (`rejectCode`, funds
 * released).
 */
export interface ConditionalTriggeredEvent {
  type: "conditional_triggered";
  orderId: number;
  tickId: string;
  /** The tick's price (decimal string, as on the tape). */
  tickPrice: string;
  releasedAmount: bigint;
}

export interface ConditionalDoneEvent {
  type: "conditional_done";
  orderId: number;
  status: "triggered" | "cancelled" | "rejected";
  /** Why it was cancelled (cancelled only). */
  reason: CancelReason | null;
  /** The order it placed (triggered only). */
  resultOrderId: number | null;
  /** Why that placement was refused (rejected only). */
  rejectCode: string | null;
  /** The tick that fired it (triggered and rejected). */
  tickId: string | null;
  releasedAmount: bigint;
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
    place_order_stp: PlaceOrderStpCommand;
    amend_order_size: AmendOrderSizeCommand;
    place_conditional_order: PlaceConditionalOrderCommand;
    place_oco_order: PlaceOcoOrderCommand;
  }
  interface ResultMap {
    place_order: OrderOutcome;
    cancel_order: CancelOrderValue;
    replace_order: OrderOutcome;
    cancel_all: CancelledValue;
    place_order_stp: OrderOutcome;
    amend_order_size: OrderOutcome;
    place_conditional_order: ConditionalOutcome;
    place_oco_order: ConditionalOutcome;
  }
  interface EventMap {
    order_accepted: OrderAcceptedEvent;
    order_rested: OrderRestedEvent;
    order_replaced: OrderReplacedEvent;
    fill: FillEvent;
    order_cancelled: OrderCancelledEvent;
    order_done: OrderDoneEvent;
    order_amended: OrderAmendedEvent;
    conditional_accepted: ConditionalAcceptedEvent;
    conditional_triggered: ConditionalTriggeredEvent;
    conditional_done: ConditionalDoneEvent;
  }
}
