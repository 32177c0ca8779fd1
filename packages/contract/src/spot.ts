import { z } from "zod";
import { decimalString, defineEndpoint, issueKey, type ValidationKey } from "./endpoint.ts";
import { AccountMode, DecimalString, InstrumentId } from "./market.ts";

/**
 * Spot (coin-coin) trading: orders on the central limit order book of each market, in the
 * session's mode (real or demo; demo orders only ever meet demo orders). Prices, quantities and
 * amounts are decimal strings; more decimals than the market's price step or lot size allow are
 * rejected, never rounded. Ids of orders and fills are decimal strings (kernel sequence numbers).
 */

/** Buy or sell. */
export const SpotSide = z.enum(["buy", "sell"]);
export type SpotSide = z.infer<typeof SpotSide>;

/** Limit (a price) or market (trades now against the book, within the market's price band). */
export const SpotOrderType = z.enum(["limit", "market"]);
export type SpotOrderType = z.infer<typeof SpotOrderType>;

/**
 * `gtc` rests until filled or cancelled; `ioc` trades what it can now and drops the rest; `fok`
 * fills completely now or not at all; `post_only` only rests (rejected if it would trade).
 * Market orders are always `ioc`.
 */
export const TimeInForce = z.enum(["gtc", "ioc", "fok", "post_only"]);
export type TimeInForce = z.infer<typeof TimeInForce>;

/**
 * Self-trade prevention: what happens when an order would trade with a resting order of the same
 * user. `cancel_resting` (the default, Binance's EXPIRE_MAKER) cancels the resting order and
 * goes on; `cancel_incoming` (EXPIRE_TAKER) cancels what is left of the new order;
 * `cancel_both` (EXPIRE_BOTH) cancels both. A user never trades with themselves.
 */
export const SelfTradeMode = z.enum(["cancel_resting", "cancel_incoming", "cancel_both"]);
export type SelfTradeMode = z.infer<typeof SelfTradeMode>;

/**
 * Where an order stands: `open` (resting, possibly partly filled), `filled`, `cancelled`,
 * `expired` (an ioc / fok / market remainder that could not trade) or `rejected`.
 */
export const SpotOrderStatus = z.enum(["open", "filled", "cancelled", "expired", "rejected"]);
export type SpotOrderStatus = z.infer<typeof SpotOrderStatus>;

/**
 * The client's idempotency key for an order, minted on the device (a UUID works): sending the
 * same id again returns the first result and places nothing. 8–64 letters, digits, `-` or `_`.
 */
export const ClientOrderId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** An order or fill id: decimal digits. */
export const SpotId = z.string().regex(/^[1-9]\d{0,15}$/);

/** Page size of lists: 1–100, default 20. */
export const PageLimit = z.coerce.number().int().min(1).max(100).default(20);

/** A spot market as the order form needs it. */
export const SpotMarketView = z.object({
  /** The instrument id used everywhere else in the API (`BTCUSDT`). */
  instrumentId: z.string(),
  /** The ledger's market id (`BTC-USDT`); shown on statements. */
  marketId: z.string(),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  baseDecimals: z.number().int().nonnegative(),
  quoteDecimals: z.number().int().nonnegative(),
  /** Smallest price step, quote per base (`0.01`). */
  priceStep: DecimalString,
  /** Smallest quantity step of base (`0.0001`). */
  lotSize: DecimalString,
  quantityMin: DecimalString,
  quantityMax: DecimalString,
  /** Fees in basis points of what each side receives (10 = 0.1 %), rounded up. */
  feeBpsMaker: z.number().int().nonnegative(),
  feeBpsTaker: z.number().int().nonnegative(),
  /** Market orders trade only within this many basis points of the last tape price. */
  priceBandBps: z.number().int().nonnegative(),
  /**
   * The order form warns when a limit price is more than this many basis points above
   * (`up`) or below (`down`) the last price (spec `{up_rate}` / `{down_rate}`).
   */
  priceWarningBpsUp: z.number().int().nonnegative(),
  priceWarningBpsDown: z.number().int().nonnegative(),
  /** Last tape price, or null before the first tick. */
  lastPrice: DecimalString.nullable(),
  /** Tape tick id of `lastPrice`. */
  lastTickId: z.string().nullable(),
  open: z.boolean(),
});
export type SpotMarketView = z.infer<typeof SpotMarketView>;

/** One order of the signed-in user. */
export const SpotOrderView = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  instrumentId: z.string(),
  marketId: z.string(),
  mode: AccountMode,
  side: SpotSide,
  type: SpotOrderType,
  timeInForce: TimeInForce,
  /** Limit price; null for market orders. */
  price: DecimalString.nullable(),
  /** Ordered base quantity (for a market buy by amount: what the amount could buy). */
  quantity: DecimalString,
  /** Quote amount to spend (market buy by amount), else null. */
  quoteAmount: DecimalString.nullable(),
  filledQuantity: DecimalString,
  remainingQuantity: DecimalString,
  /** Quote traded so far (the "total"). */
  filledQuote: DecimalString,
  /** filledQuote / filledQuantity at the market's price precision (rounded down); null if none. */
  averagePrice: DecimalString.nullable(),
  status: SpotOrderStatus,
  createdAtMs: z.number().int(),
});
export type SpotOrderView = z.infer<typeof SpotOrderView>;

/** One trade of an order, with the tape tick id current at that moment. */
export const SpotFillView = z.object({
  fillId: z.string(),
  /** The user's own order in this fill. */
  orderId: z.string(),
  makerOrderId: z.string(),
  takerOrderId: z.string(),
  /** Whether the user's order was resting (maker) or arriving (taker). */
  role: z.enum(["maker", "taker"]),
  /** The user's side in this fill. */
  side: SpotSide,
  price: DecimalString,
  quantity: DecimalString,
  /** Quote amount of the fill (price × quantity). */
  quoteAmount: DecimalString,
  /** Fee the user paid, in `feeAsset` (what the user received), rounded up. */
  fee: DecimalString,
  feeAsset: z.string(),
  /** Who was on the other side: another user, the labelled market maker, or the user's own order. */
  counterparty: z.enum(["user", "market_maker", "system"]),
  /** Id of the latest tape tick of the instrument when the fill happened (GET /api/v1/tape). */
  tickId: z.string().nullable(),
  /** Journal sequence of the command that made the fill (`GET /api/v1/tape?from=&to=`). */
  sequence: z.string(),
  atMs: z.number().int(),
});
export type SpotFillView = z.infer<typeof SpotFillView>;

// ---------------------------------------------------------------------------------------------
// Orders

export const PlaceSpotOrderBody = z
  .strictObject({
    clientOrderId: ClientOrderId,
    instrumentId: InstrumentId,
    side: SpotSide,
    type: SpotOrderType,
    /** Default `gtc` for limit orders; market orders must be `ioc` (the default for them). */
    timeInForce: TimeInForce.optional(),
    /** Limit price, required for limit orders and not allowed for market orders. */
    price: decimalString(18, { positive: true }).optional(),
    /** Base quantity: required for limit orders and market sells; market buys give this or quoteAmount. */
    quantity: decimalString(18, { positive: true }).optional(),
    /** Market buys only: the quote amount to spend (whole lots are bought; the rest is released). */
    quoteAmount: decimalString(18, { positive: true }).optional(),
    /** Self-trade prevention (default `cancel_resting`). */
    selfTradeMode: SelfTradeMode.optional(),
    /**
     * The trade password. Needed when the session has not confirmed it within the last
     * `tradePasswordWindowMs` (see GET /api/v1/spot/markets); a user without one is told to set
     * it first (`trade_password_not_set`). Demo sessions are never asked and it is ignored there.
     */
    tradePassword: z.string().min(1).max(64).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, key: ValidationKey) =>
      ctx.addIssue({ code: "custom", path: [path], ...issueKey(key) });
    if (b.type === "limit") {
      if (b.price === undefined) issue("price", "required_for_order_type");
      if (b.quantity === undefined) issue("quantity", "required_for_order_type");
      if (b.quoteAmount !== undefined) issue("quoteAmount", "only_for_market_buys");
      return;
    }
    if (b.price !== undefined) issue("price", "not_for_market_orders");
    if (b.timeInForce !== undefined && b.timeInForce !== "ioc") {
      issue("timeInForce", "market_orders_are_ioc");
    }
    if (b.side === "sell") {
      if (b.quoteAmount !== undefined) issue("quoteAmount", "only_for_market_buys");
      if (b.quantity === undefined) issue("quantity", "required_for_order_type");
    } else if ((b.quantity === undefined) === (b.quoteAmount === undefined)) {
      issue("quantity", "quantity_or_quote_amount");
    }
  });
export type PlaceSpotOrderBody = z.input<typeof PlaceSpotOrderBody>;

export const PlaceSpotOrderResult = z.object({
  order: SpotOrderView,
  /**
   * Fills this order made when it arrived. A duplicate repeats the first answer (order and fills
   * as they were then); GET the order for where it stands now.
   */
  fills: z.array(SpotFillView),
  /** True when this clientOrderId was placed before: nothing new happened. */
  duplicate: z.boolean(),
});
export type PlaceSpotOrderResult = z.infer<typeof PlaceSpotOrderResult>;

const spotOrderErrors = [
  "trade_password_not_set",
  "trade_password_required",
  "trade_password_invalid",
  "instrument_not_found",
  "market_closed",
  "insufficient_balance",
  "price_not_on_tick",
  "price_too_high",
  "price_must_be_positive",
  "quantity_not_on_lot",
  "quantity_below_minimum",
  "quantity_too_high",
  "quantity_must_be_positive",
  "quote_amount_too_small",
  "amount_too_many_decimals",
  "amount_above_maximum",
  "too_many_open_orders",
  "book_full",
  "post_only_would_trade",
  "fok_not_filled",
  "price_outside_band",
  "no_reference_price",
  "client_order_id_reused",
  "rate_limited",
] as const;

export const placeSpotOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/orders",
  summary: "Place a limit or market order (idempotent by clientOrderId)",
  tag: "spot",
  auth: "user",
  body: PlaceSpotOrderBody,
  response: PlaceSpotOrderResult,
  errors: spotOrderErrors,
  description:
    "Trades in the session's mode (real or demo). The order is journaled before it is " +
    "answered. A retry with the same clientOrderId returns the first result; the same id with " +
    "different fields is `client_order_id_reused`.",
});

export const SpotOrderParams = z.strictObject({ orderId: SpotId });

export const cancelSpotOrder = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/spot/orders/:orderId",
  summary: "Cancel an open order; its held funds are released",
  tag: "spot",
  auth: "user",
  params: SpotOrderParams,
  response: z.object({ order: SpotOrderView }),
  errors: ["order_not_found", "order_already_filled", "order_already_closed", "rate_limited"],
});

export const cancelAllSpotOrders = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/orders/cancel-all",
  summary: "Cancel every open order of the session's mode (optionally of one instrument)",
  tag: "spot",
  auth: "user",
  body: z.strictObject({ instrumentId: InstrumentId.optional() }),
  response: z.object({ cancelledCount: z.number().int().nonnegative() }),
  errors: ["instrument_not_found", "rate_limited"],
});

export const OpenSpotOrdersQuery = z.strictObject({ instrumentId: InstrumentId.optional() });

export const openSpotOrders = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/orders/open",
  summary: "Current (open) orders of the session's mode, newest first",
  tag: "spot",
  auth: "user",
  query: OpenSpotOrdersQuery,
  response: z.object({ items: z.array(SpotOrderView) }),
  errors: ["instrument_not_found"],
});

export const SpotOrderHistoryQuery = z.strictObject({
  instrumentId: InstrumentId.optional(),
  side: SpotSide.optional(),
  /** Default: every finished order (filled, cancelled, expired); `open` lists current ones. */
  status: SpotOrderStatus.optional(),
  /** The `nextCursor` of the previous page. */
  cursor: SpotId.optional(),
  limit: PageLimit,
});

export const spotOrderHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/orders/history",
  summary: "Order history of the session's mode, newest first, paged",
  tag: "spot",
  auth: "user",
  query: SpotOrderHistoryQuery,
  response: z.object({
    items: z.array(SpotOrderView),
    /** Pass as `cursor` for the next page; null when there is no more data. */
    nextCursor: z.string().nullable(),
  }),
  errors: ["instrument_not_found"],
  description:
    "Finished orders come from the read models, which follow the journal within moments; " +
    "an order placed a few milliseconds ago may appear on the next request.",
});

export const spotOrderDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/orders/:orderId",
  summary: "One order with all its fills (price, quantity, fee, both order ids, tape tick id)",
  tag: "spot",
  auth: "user",
  params: SpotOrderParams,
  response: z.object({ order: SpotOrderView, fills: z.array(SpotFillView) }),
  errors: ["order_not_found"],
});

export const spotMarkets = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/markets",
  summary: "Spot markets with their steps, limits, fees and price-warning rates",
  tag: "spot",
  auth: "none",
  response: z.object({
    items: z.array(SpotMarketView),
    /** How long a confirmed trade password stays confirmed for a session, ms (0 = every order). */
    tradePasswordWindowMs: z.number().int().nonnegative(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Size-only amend

export const AmendSpotOrderBody = z.strictObject({
  /**
   * The new remaining base quantity. Smaller than what remains: the order keeps its place in the
   * queue and the funds it no longer needs are released. Larger: the order moves to the back of
   * its price level (it loses its time priority, as on Binance and Coinbase) and holds the extra
   * funds. An OCO leg cannot be amended (cancel the pair and place it again).
   */
  quantity: decimalString(18, { positive: true }),
});
export type AmendSpotOrderBody = z.input<typeof AmendSpotOrderBody>;

export const amendSpotOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/orders/:orderId/amend",
  summary: "Change an open order's size only; a smaller size keeps its time priority",
  tag: "spot",
  auth: "user",
  params: SpotOrderParams,
  body: AmendSpotOrderBody,
  response: z.object({ order: SpotOrderView }),
  errors: [
    "order_not_found",
    "market_closed",
    "insufficient_balance",
    "quantity_not_on_lot",
    "quantity_below_minimum",
    "quantity_too_high",
    "quantity_must_be_positive",
    "order_type_invalid",
    "book_full",
    "rate_limited",
  ],
});

// ---------------------------------------------------------------------------------------------
// Conditional orders: stop, take-profit, OCO

/** `stop` fires when the price moves against you, `take_profit` when it moves your way. */
export const SpotConditionalKind = z.enum(["stop", "take_profit"]);
export type SpotConditionalKind = z.infer<typeof SpotConditionalKind>;

/**
 * `pending` waits for its trigger (its funds held); `triggered` placed its order when a tape
 * tick reached the trigger price; `rejected` fired but its order was refused (funds released);
 * `cancelled` by the user, by cancel-all, or by its OCO sibling.
 */
export const SpotConditionalStatus = z.enum(["pending", "triggered", "cancelled", "rejected"]);
export type SpotConditionalStatus = z.infer<typeof SpotConditionalStatus>;

/** A stop, take-profit or OCO stop leg of the signed-in user. */
export const SpotConditionalOrderView = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  instrumentId: z.string(),
  marketId: z.string(),
  mode: AccountMode,
  side: SpotSide,
  kind: SpotConditionalKind,
  /** The order it places when it fires. */
  type: SpotOrderType,
  timeInForce: TimeInForce,
  /** It fires when a tape tick reaches this price (a buy stop at or above, a sell stop at or below). */
  triggerPrice: DecimalString,
  price: DecimalString.nullable(),
  quantity: DecimalString.nullable(),
  quoteAmount: DecimalString.nullable(),
  selfTradeMode: SelfTradeMode,
  /** The limit leg, when this is the stop leg of an OCO pair. */
  ocoOrderId: z.string().nullable(),
  status: SpotConditionalStatus,
  /** Why it was cancelled: `user`, `cancel_all`, `oco`, `demo_reset`. */
  reason: z.string().nullable(),
  /** The tape tick that fired it (GET /api/v1/tape), and its price. */
  tickId: z.string().nullable(),
  tickPrice: DecimalString.nullable(),
  /** The order it placed (GET /api/v1/spot/orders/:orderId). */
  resultOrderId: z.string().nullable(),
  /** Why that order was refused (an error code), when `rejected`. */
  rejectCode: z.string().nullable(),
  createdAtMs: z.number().int(),
  doneAtMs: z.number().int().nullable(),
});
export type SpotConditionalOrderView = z.infer<typeof SpotConditionalOrderView>;

export const PlaceSpotConditionalOrderBody = z
  .strictObject({
    clientOrderId: ClientOrderId,
    instrumentId: InstrumentId,
    side: SpotSide,
    /**
     * `stop` or `take_profit`: one order that waits for `triggerPrice`. `oco`: a post-only limit
     * order at `limitPrice` that rests now plus a stop at `triggerPrice`; the first fill of one
     * cancels the other.
     */
    kind: z.enum(["stop", "take_profit", "oco"]),
    /** The order placed when it fires: `limit` (give `price`) or `market`. */
    type: SpotOrderType,
    /** Limit orders: default `gtc`; market orders are `ioc`. Not for OCO. */
    timeInForce: TimeInForce.optional(),
    triggerPrice: decimalString(18, { positive: true }),
    /** The limit price of the order placed when it fires (type `limit`). */
    price: decimalString(18, { positive: true }).optional(),
    /** Base quantity: limit orders, market sells and OCO. */
    quantity: decimalString(18, { positive: true }).optional(),
    /**
     * Market buys: the quote amount to spend, held in full until it fires (the price it will pay
     * is unknown until then).
     */
    quoteAmount: decimalString(18, { positive: true }).optional(),
    /** OCO only: the limit leg's price. */
    limitPrice: decimalString(18, { positive: true }).optional(),
    selfTradeMode: SelfTradeMode.optional(),
    /** As for POST /api/v1/spot/orders. */
    tradePassword: z.string().min(1).max(64).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, key: ValidationKey) =>
      ctx.addIssue({ code: "custom", path: [path], ...issueKey(key) });
    if (b.kind === "oco") {
      if (b.limitPrice === undefined) issue("limitPrice", "required_for_order_type");
      if (b.quantity === undefined) issue("quantity", "required_for_order_type");
      if (b.quoteAmount !== undefined) issue("quoteAmount", "only_for_market_buys");
      if (b.timeInForce !== undefined) issue("timeInForce", "no_input_expected");
      if (b.type === "limit" && b.price === undefined) issue("price", "required_for_order_type");
      if (b.type === "market" && b.price !== undefined) issue("price", "not_for_market_orders");
      return;
    }
    if (b.limitPrice !== undefined) issue("limitPrice", "no_input_expected");
    if (b.type === "limit") {
      if (b.price === undefined) issue("price", "required_for_order_type");
      if (b.quantity === undefined) issue("quantity", "required_for_order_type");
      if (b.quoteAmount !== undefined) issue("quoteAmount", "only_for_market_buys");
      return;
    }
    if (b.price !== undefined) issue("price", "not_for_market_orders");
    if (b.timeInForce !== undefined && b.timeInForce !== "ioc") {
      issue("timeInForce", "market_orders_are_ioc");
    }
    if (b.side === "sell") {
      if (b.quoteAmount !== undefined) issue("quoteAmount", "only_for_market_buys");
      if (b.quantity === undefined) issue("quantity", "required_for_order_type");
    } else {
      if (b.quantity !== undefined) issue("quantity", "not_for_market_orders");
      if (b.quoteAmount === undefined) issue("quoteAmount", "required_for_order_type");
    }
  });
export type PlaceSpotConditionalOrderBody = z.input<typeof PlaceSpotConditionalOrderBody>;

export const placeSpotConditionalOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/conditional-orders",
  summary: "Place a stop, take-profit or OCO order; its funds are held now (idempotent)",
  tag: "spot",
  auth: "user",
  body: PlaceSpotConditionalOrderBody,
  response: z.object({ order: SpotConditionalOrderView, duplicate: z.boolean() }),
  errors: [...spotOrderErrors, "trigger_would_fire_now", "order_type_invalid"],
  description:
    "Triggers fire only from ticks of the recorded price tape (never from trades) and record " +
    "the tick id. Funds are held at placement, so a conditional order can never overdraw.",
});

export const SpotConditionalOrdersQuery = z.strictObject({
  instrumentId: InstrumentId.optional(),
  /** `pending` (default, from memory) or `finished` (history, newest first). */
  status: z.enum(["pending", "finished"]).default("pending"),
  limit: PageLimit,
});

export const spotConditionalOrders = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/conditional-orders",
  summary: "Pending or finished stop, take-profit and OCO orders of the session's mode",
  tag: "spot",
  auth: "user",
  query: SpotConditionalOrdersQuery,
  response: z.object({ items: z.array(SpotConditionalOrderView) }),
  errors: ["instrument_not_found"],
});

export const cancelSpotConditionalOrder = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/spot/conditional-orders/:orderId",
  summary: "Cancel a pending conditional order (an OCO pair goes together); funds released",
  tag: "spot",
  auth: "user",
  params: SpotOrderParams,
  response: z.object({ order: SpotConditionalOrderView }),
  errors: ["order_not_found", "order_already_closed", "rate_limited"],
});
