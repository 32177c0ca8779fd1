// Stocks: orders filled against the labelled house account at the recorded quote ± a disclosed
// spread, during the sessions the engine reports from the exchange calendars. Commands, views
// and events.
//
// Prices come only from the tape (`record_tick`); session state arrives as commands
// (`stock_session`), so the kernel reads no clock. The house can only sell shares the operator
// funded (`stock_fund_inventory`, journaled). No command carries a fill price or a result.

import type { CommandBase, Mode, NoValue } from "../types.ts";

export type StockSide = "buy" | "sell";
export type StockOrderKind = "market" | "limit";
/** `day`: expires when its session ends; `gtc`: stays until filled or cancelled. */
export type StockTif = "day" | "gtc";
/** Who placed the order: the user, or a take-profit / stop-loss trigger of a holding. */
export type StockOrderOrigin = "user" | "take_profit" | "stop_loss";
export type StockOrderStatus = "pending" | "filled" | "cancelled" | "expired";

/**
 * Trading terms of one stock (both modes). Applies to later orders; pending orders keep the
 * holds they were placed with.
 */
export interface StockConfigureCommand extends CommandBase {
  type: "stock_configure";
  /** Tape instrument, e.g. "AAPL", "0700.HK". */
  instrumentId: string;
  /** Asset that pays for the shares (e.g. "USD", "HKD"). Never changes once set. */
  assetId: string;
  /** Decimals of a price (US 2, HK 3). Fill prices are rounded to it (buy up, sell down). */
  priceScale: number;
  /** Shares per lot (US 1, HK board lot); quantities are whole lots. */
  lotSize: bigint;
  /** Largest order, in lots. */
  quantityLotsMax: number;
  /** Disclosed spread around the recorded quote: buys at quote × (1 + bps), sells × (1 − bps). */
  spreadBps: number;
  /** Commission, basis points of the notional, rounded up to the smallest unit… */
  commissionBps: number;
  /** …and at least this much (smallest units) per fill. */
  commissionMin: bigint;
  /** Stamp duty on each side, basis points of the notional (HK 10, US 0)… */
  stampDutyBps: number;
  /** …rounded up to a multiple of this many smallest units (HK: 100 = one whole dollar). */
  stampDutyRoundUnits: bigint;
  /** A market order's quote may be at most this old (command time − tick time), ms. */
  tickAgeMaxMs: number;
  /** False stops new orders (pending ones still fill, cancel and expire). */
  open: boolean;
  operatorId: string | null;
}

/**
 * The exchange session of a stock opened or closed, as the engine reads it from the calendar
 * (weekends, holidays and early closes included). Closing expires the `day` orders of the
 * session that ends.
 */
export interface StockSessionCommand extends CommandBase {
  type: "stock_session";
  instrumentId: string;
  open: boolean;
  /** e.g. "nyse:2026-11-27"; informational, shown with the session. */
  sessionId: string | null;
}

/**
 * Places an order. Market orders fill at once at the last recorded quote ± the spread (only in
 * session). Limit orders fill at once if the last quote crosses, else wait for a recorded tick
 * that crosses (in session); with `queueForOpen` a limit order may be placed while the market
 * is closed and waits for the open. A buy holds its prepaid amount (notional at the limit or
 * market price + commission + stamp duty) and reserves the house's shares; a sell holds the
 * shares and (limit) reserves the house's cash at the limit price.
 */
export interface StockPlaceOrderCommand extends CommandBase {
  type: "stock_place_order";
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  side: StockSide;
  /** "market" or "limit". */
  kind: string;
  /** Shares, a whole number of lots. */
  quantity: bigint;
  /** Decimal string at the stock's price scale (limit orders); null for market orders. */
  limitPrice: string | null;
  /** "day" or "gtc" (limit orders; market orders: "day"). */
  tif: string;
  /** A limit order placed while the market is closed waits for the open (else refused). */
  queueForOpen: boolean;
}

export interface StockCancelOrderCommand extends CommandBase {
  type: "stock_cancel_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
}

/**
 * The operator adds shares to (positive) or takes free shares from (negative) the house's
 * inventory of a stock in one mode. Journaled with the operator and a reference.
 */
export interface StockFundInventoryCommand extends CommandBase {
  type: "stock_fund_inventory";
  mode: Mode;
  instrumentId: string;
  quantity: bigint;
  operatorId: string | null;
  reference: string;
}

/**
 * Sets (or clears, null) the take-profit and stop-loss prices of a holding. When a recorded
 * tick during the session is at or above the take-profit, or at or below the stop-loss, the
 * holding's free shares are sold at market; the fill cites that tick.
 */
export interface StockSetTpSlCommand extends CommandBase {
  type: "stock_set_tpsl";
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  takeProfit: string | null;
  stopLoss: string | null;
}

export interface StockConfigView {
  instrumentId: string;
  assetId: string;
  priceScale: number;
  lotSize: bigint;
  quantityLotsMax: number;
  spreadBps: number;
  commissionBps: number;
  commissionMin: bigint;
  stampDutyBps: number;
  stampDutyRoundUnits: bigint;
  tickAgeMaxMs: number;
  open: boolean;
}

export interface StockSessionView {
  instrumentId: string;
  open: boolean;
  /** Sessions opened so far (1 during the first). */
  sessionSeq: number;
  sessionId: string | null;
}

export interface StockOrderView {
  orderId: number;
  /** The placing command's id (the client's key), or the trigger's id. */
  clientOrderId: string;
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  assetId: string;
  side: StockSide;
  kind: StockOrderKind;
  tif: StockTif;
  origin: StockOrderOrigin;
  quantity: bigint;
  limitPrice: string | null;
  /** Held from the user's fund wallet (buys): the prepaid amount. */
  prepaid: bigint;
  /** Held from the house's fund wallet (limit sells): proceeds at the limit price. */
  houseReserved: bigint;
  placedAtMs: number;
  /** The session (`sessionSeq`) at whose close a day order expires; null for gtc. */
  expiresAfterSession: number | null;
  status: StockOrderStatus;
  closedAtMs: number | null;
}

/** One fill: all of an order's quantity at one price, citing the tick. */
export interface StockFillView {
  orderId: number;
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  assetId: string;
  side: StockSide;
  origin: StockOrderOrigin;
  quantity: bigint;
  /** Fill price at the stock's price scale. */
  price: string;
  notional: bigint;
  commission: bigint;
  stampDuty: bigint;
  /** Buy: paid (notional + fees); sell: received (notional − fees). */
  net: bigint;
  /** Buy: part of the prepaid amount released at fill. */
  released: bigint;
  tickId: string;
  tickPrice: string;
  filledAtMs: number;
}

export interface StockHoldingView {
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  assetId: string;
  /** Shares owned, including those held for pending sells. */
  quantity: bigint;
  /** Shares held for pending sells. */
  heldQuantity: bigint;
  /** What the shares owned cost, buy fees included (average cost = costBasis / quantity). */
  costBasis: bigint;
  /** Sum over sells of net proceeds − cost basis of the shares sold. */
  realisedPnl: bigint;
  takeProfit: string | null;
  stopLoss: string | null;
}

export interface StockInventoryView {
  mode: Mode;
  instrumentId: string;
  /** Shares the operator funded, net. */
  funded: bigint;
  /** Free shares the house can sell now. */
  available: bigint;
  /** Shares reserved for pending buys. */
  reserved: bigint;
}

export interface StockConfiguredEvent {
  type: "stock_configured";
  config: StockConfigView;
  operatorId: string | null;
}

export interface StockSessionChangedEvent {
  type: "stock_session_changed";
  session: StockSessionView;
}

export interface StockOrderPlacedEvent {
  type: "stock_order_placed";
  order: StockOrderView;
}

export interface StockOrderFilledEvent {
  type: "stock_order_filled";
  order: StockOrderView;
  fill: StockFillView;
}

/** Cancelled by the user or expired at session end. */
export interface StockOrderClosedEvent {
  type: "stock_order_closed";
  order: StockOrderView;
}

export interface StockInventoryChangedEvent {
  type: "stock_inventory_changed";
  inventory: StockInventoryView;
  /** Change by the operator (0 when trading moved it). */
  fundedChange: bigint;
  operatorId: string | null;
  reference: string | null;
}

export interface StockHoldingChangedEvent {
  type: "stock_holding_changed";
  holding: StockHoldingView;
}

declare module "../types.ts" {
  interface CommandMap {
    stock_configure: StockConfigureCommand;
    stock_session: StockSessionCommand;
    stock_place_order: StockPlaceOrderCommand;
    stock_cancel_order: StockCancelOrderCommand;
    stock_fund_inventory: StockFundInventoryCommand;
    stock_set_tpsl: StockSetTpSlCommand;
  }
  interface ResultMap {
    stock_configure: NoValue;
    stock_session: NoValue;
    stock_place_order: { orderId: number };
    stock_cancel_order: NoValue;
    stock_fund_inventory: NoValue;
    stock_set_tpsl: NoValue;
  }
  interface EventMap {
    stock_configured: StockConfiguredEvent;
    stock_session_changed: StockSessionChangedEvent;
    stock_order_placed: StockOrderPlacedEvent;
    stock_order_filled: StockOrderFilledEvent;
    stock_order_closed: StockOrderClosedEvent;
    stock_inventory_changed: StockInventoryChangedEvent;
    stock_holding_changed: StockHoldingChangedEvent;
  }
}
