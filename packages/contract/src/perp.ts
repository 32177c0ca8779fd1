import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { OperatorReason } from "./operators.ts";
import { ClientOrderId, PageLimit, SelfTradeMode } from "./spot.ts";

/**
 * Perpetual contracts (issue 19): a central limit order book per market, leverage, isolated or
 * cross margin, a mark price from the tape's index ticks, funding, liquidation. Every mark,
 * fill, trigger, liquidation and funding payment names the tape tick ids it used
 * (`#/tape/:instrumentId/:tickId`). Amounts and prices are decimal strings; quantities are
 * whole contracts (lots). The session's mode (real or demo) picks the books and the money.
 */

export const PerpMarketId = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Z0-9][A-Z0-9._-]*$/);

export const PerpMarginMode = z.enum(["cross", "isolated"]);
export type PerpMarginMode = z.infer<typeof PerpMarginMode>;

/** `long`, `short`, or `flat` (a record with leverage and margin mode but no position). */
export const PerpPositionSide = z.enum(["long", "short", "flat"]);
export type PerpPositionSide = z.infer<typeof PerpPositionSide>;

export const PerpMaintenanceTierView = z.object({
  /** Position notional from which this tier applies (quote asset). */
  notionalFloor: DecimalString,
  maintenanceRateBps: z.number().int(),
  maintenanceAmount: DecimalString,
  leverageMax: z.number().int(),
});

/** One perpetual market with its terms and, in the asked mode, its mark and funding. */
export const PerpMarketView = z.object({
  marketId: z.string(),
  /** The tape instrument whose ticks are the index price. */
  instrumentId: z.string(),
  asset: z.string(),
  assetDecimals: z.number().int().nonnegative(),
  priceStep: DecimalString,
  /** Underlying per contract. */
  contractSize: DecimalString,
  contractsMin: z.number().int().positive(),
  contractsMax: z.number().int().positive(),
  leverageMax: z.number().int().positive(),
  leverageDefault: z.number().int().positive(),
  tiers: z.array(PerpMaintenanceTierView),
  feeBpsMaker: z.number().int(),
  feeBpsTaker: z.number().int(),
  liquidationFeeBps: z.number().int(),
  /** Market orders trade at most this far from the mark, basis points. */
  priceBandBps: z.number().int(),
  fundingIntervalS: z.number().int().positive(),
  fundingCapBps: z.number().int(),
  /** Mark and index price and the tape ticks they came from; null before the first tick. */
  markPrice: DecimalString.nullable(),
  indexPrice: DecimalString.nullable(),
  markTickIds: z.array(z.string()),
  bestBid: DecimalString.nullable(),
  bestAsk: DecimalString.nullable(),
  nextFundingAtMs: z.number().int(),
  /** The rate the premium so far gives, as a decimal fraction (0.0001 = 0.01 %), signed. */
  estimatedFundingRate: DecimalString,
  /** Contracts long (= contracts short). */
  openInterest: DecimalString,
});
export type PerpMarketView = z.infer<typeof PerpMarketView>;

/**
 * Shown before first use: the share of accounts with real-money perpetual activity in the last
 * 90 days whose net result (realised PnL, fees, funding) was a loss, computed from the ledger.
 */
export const PerpDisclosureView = z.object({
  fromMs: z.number().int(),
  toMs: z.number().int(),
  accountsCount: z.number().int().nonnegative(),
  lostCount: z.number().int().nonnegative(),
  /** lostCount / accountsCount in basis points (rounded down); null when nobody traded. */
  lostShareBps: z.number().int().nonnegative().nullable(),
});
export type PerpDisclosureView = z.infer<typeof PerpDisclosureView>;

/** A position (spec §3 fields), at the current mark. */
export const PerpPositionView = z.object({
  marketId: z.string(),
  mode: AccountMode,
  side: PerpPositionSide,
  marginMode: PerpMarginMode,
  leverage: z.number().int().positive(),
  /** Number of contracts (absolute). */
  contracts: DecimalString,
  asset: z.string(),
  /** Average open price; null when flat. */
  entryPrice: DecimalString.nullable(),
  markPrice: DecimalString.nullable(),
  markTickIds: z.array(z.string()),
  /** Isolated: the position's margin; cross: the initial margin its contracts hold. */
  margin: DecimalString,
  notional: DecimalString,
  unrealisedPnl: DecimalString,
  /** Unrealised PnL / margin, basis points (null when there is no margin). */
  returnRateBps: z.number().int().nullable(),
  /** Collateral + unrealised PnL of what backs the position (isolated: itself; cross: wallet). */
  equity: DecimalString,
  maintenanceMargin: DecimalString,
  /** Maintenance / equity, basis points: 10,000 or more is liquidation. Null: equity ≤ 0. */
  riskRatioBps: z.number().int().nullable(),
  /** Estimated liquidation price at the current marks (cross: other positions held still). */
  liquidationPrice: DecimalString.nullable(),
  takeProfitPrice: DecimalString.nullable(),
  stopLossPrice: DecimalString.nullable(),
  /**
   * Estimated profit (signed, before fees and funding) if the take-profit / stop-loss closed
   * the whole position at its trigger price; null when unset. The fill may differ: TP/SL send
   * market orders into the book.
   */
  takeProfitPnl: DecimalString.nullable(),
  stopLossPnl: DecimalString.nullable(),
  /** Owed beyond the margin (the insurance fund covers it; never collected from the user). */
  debt: DecimalString,
});
export type PerpPositionView = z.infer<typeof PerpPositionView>;

export const PerpOrderStatus = z.enum(["open", "filled", "cancelled", "expired"]);
export type PerpOrderStatus = z.infer<typeof PerpOrderStatus>;

export const PerpOrderView = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  mode: AccountMode,
  marketId: z.string(),
  side: z.enum(["buy", "sell"]),
  orderType: z.enum(["limit", "market"]),
  timeInForce: z.enum(["gtc", "ioc", "fok", "post_only"]),
  /** Limit price; null for a market order. */
  price: DecimalString.nullable(),
  contracts: z.number().int(),
  filledContracts: z.number().int(),
  reduceOnly: z.boolean(),
  status: PerpOrderStatus,
  /** Margin and fees still held for it (open orders). */
  held: DecimalString.nullable(),
  createdAtMs: z.number().int(),
});
export type PerpOrderView = z.infer<typeof PerpOrderView>;

export const PerpFillView = z.object({
  fillId: z.string(),
  orderId: z.string(),
  marketId: z.string(),
  side: z.enum(["buy", "sell"]),
  role: z.enum(["maker", "taker"]),
  price: DecimalString,
  contracts: z.number().int(),
  /** Realised PnL of the closed part (0 when it only opened). */
  realisedPnl: DecimalString,
  /** Trading fee, or the liquidation fee of a liquidation fill. */
  fee: DecimalString,
  liquidation: z.boolean(),
  atMs: z.number().int(),
  /** The mark's tape ticks at the time of the fill. */
  tickIds: z.array(z.string()),
});
export type PerpFillView = z.infer<typeof PerpFillView>;

/**
 * A forced event on the user's position with the tick ids that caused it: a liquidation
 * (order into the book), the insurance fund's takeover, auto-deleveraging (as the liquidated
 * user or as the counterparty picked by rank), a negative balance covered, or a take-profit /
 * stop-loss trigger.
 */
export const PerpForcedEventView = z.object({
  id: z.string(),
  kind: z.enum([
    "liquidation",
    "insurance_takeover",
    "auto_deleverage",
    "negative_balance_cover",
    "take_profit",
    "stop_loss",
    /** A stop or take-profit order fired and placed its order. */
    "stop_order",
    "take_profit_order",
    /** A stop or take-profit order fired but its order was refused (`rejectCode`). */
    "conditional_rejected",
    /** A waiting stop or take-profit order was cancelled before it fired (`reason`). */
    "conditional_cancelled",
  ]),
  marketId: z.string(),
  /** The tape instrument of the tick ids (for the tape link). */
  instrumentId: z.string(),
  atMs: z.number().int(),
  markPrice: DecimalString.nullable(),
  /** Liquidation: the limit (bankruptcy) price; trigger: the trigger price. */
  price: DecimalString.nullable(),
  contracts: DecimalString.nullable(),
  amount: DecimalString.nullable(),
  /** Auto-deleveraging: the counterparty's rank. */
  rank: z.number().int().nullable(),
  /** `conditional_rejected`: why the fired order was refused (an error code). */
  rejectCode: z.string().nullable().optional(),
  /** `conditional_cancelled`: why (`user`, `demo_reset`, `oco`: the other leg of its OCO pair
   * fired or was cancelled). */
  reason: z.string().nullable().optional(),
  tickIds: z.array(z.string()),
});
export type PerpForcedEventView = z.infer<typeof PerpForcedEventView>;

export const PerpFundingView = z.object({
  id: z.string(),
  marketId: z.string(),
  instrumentId: z.string(),
  atMs: z.number().int(),
  /** Decimal fraction (0.0001 = 0.01 %); positive: longs pay shorts. */
  rate: DecimalString,
  markPrice: DecimalString,
  /** Signed contracts at settlement (negative: short). */
  contracts: DecimalString,
  /** Signed: negative paid, positive received. */
  amount: DecimalString,
  tickIds: z.array(z.string()),
});
export type PerpFundingView = z.infer<typeof PerpFundingView>;

const OrderIdParam = z.strictObject({ orderId: z.string().regex(/^[1-9]\d{0,15}$/) });
const MarketParam = z.strictObject({ marketId: PerpMarketId });
const Cursor = z
  .string()
  .regex(/^[1-9]\d{0,15}$/)
  .optional();
const PageQuery = z.strictObject({
  marketId: PerpMarketId.optional(),
  cursor: Cursor,
  limit: PageLimit,
});
/** Needed in real mode unless confirmed within the window (as spot orders). */
const TradePassword = z.string().min(1).max(64).optional();

const tradeErrors = [
  "perp_disabled",
  "perp_market_not_found",
  "insufficient_margin",
  "insufficient_balance",
  "no_reference_price",
  "trade_password_not_set",
  "trade_password_invalid",
  "rate_limited",
] as const;

/** One price level of a perpetual's book: price and contracts resting there. */
export const PerpBookLevel = z.object({ price: DecimalString, contracts: z.number().int() });

/** A recent trade on a perpetual's book (the taker's side), with the mark's tape tick ids. */
export const PerpTradeView = z.object({
  fillId: z.number().int(),
  price: DecimalString,
  contracts: z.number().int(),
  takerSide: z.enum(["buy", "sell"]),
  liquidation: z.boolean(),
  atMs: z.number().int(),
  tickIds: z.array(z.string()),
});
export type PerpTradeView = z.infer<typeof PerpTradeView>;

/** GET /api/v1/perp/markets/:marketId/book: depth (best first) and the latest trades. */
export const perpBook = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/markets/:marketId/book",
  summary: "A perpetual's order book (depth) and its recent trades",
  tag: "perp",
  auth: "none",
  params: MarketParam,
  query: z.strictObject({
    mode: AccountMode.default("real"),
    levels: z.coerce.number().int().min(1).max(50).default(10),
  }),
  response: z.object({
    marketId: z.string(),
    bids: z.array(PerpBookLevel),
    asks: z.array(PerpBookLevel),
    trades: z.array(PerpTradeView),
  }),
  errors: ["perp_market_not_found", "perp_disabled"],
});

export const perpMarkets = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/markets",
  summary: "Perpetual markets with terms, mark price, funding estimate and the loss disclosure",
  tag: "perp",
  auth: "none",
  query: z.strictObject({ mode: AccountMode.default("real") }),
  response: z.object({
    /** False when the deployment switched perpetuals off (PERP_ENABLED=false). */
    enabled: z.boolean(),
    items: z.array(PerpMarketView),
    disclosure: PerpDisclosureView,
  }),
});

export const perpPositions = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/positions",
  summary: "The session's positions and per-market settings (flat ones included), at the mark",
  tag: "perp",
  auth: "user",
  response: z.object({
    items: z.array(PerpPositionView),
    /** The contract wallet (margin asset) that backs cross positions and new orders. */
    wallet: z.array(z.object({ asset: z.string(), available: DecimalString, held: DecimalString })),
  }),
  errors: ["perp_disabled"],
});

export const PlacePerpOrderBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first result. */
  clientOrderId: ClientOrderId,
  marketId: PerpMarketId,
  side: z.enum(["buy", "sell"]),
  orderType: z.enum(["limit", "market"]),
  /** Limit only: `gtc` (default), `post_only`, `ioc`, `fok`. Market orders are `ioc`. */
  timeInForce: z.enum(["gtc", "ioc", "fok", "post_only"]).optional(),
  /** Limit price (required for limit, absent for market). */
  price: decimalString(18, { positive: true }).optional(),
  contracts: z.number().int().min(1).max(1_000_000_000_000),
  reduceOnly: z.boolean().default(false),
  /** Self-trade prevention (default `cancel_resting`; see the spot contract's SelfTradeMode). */
  selfTradeMode: SelfTradeMode.optional(),
  tradePassword: TradePassword,
});
export type PlacePerpOrderBody = z.input<typeof PlacePerpOrderBody>;

const OrderOutcome = z.object({
  orderId: z.string(),
  status: PerpOrderStatus,
  filledContracts: z.number().int(),
  restingContracts: z.number().int(),
  duplicate: z.boolean(),
});

export const placePerpOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/orders",
  summary: "Place a perpetual order (limit or market; reduce-only, post-only, IOC, FOK)",
  tag: "perp",
  auth: "user",
  body: PlacePerpOrderBody,
  response: OrderOutcome,
  errors: [
    "product_unavailable_in_country",
    "country_required",
    ...tradeErrors,
    "validation_failed",
    "price_not_on_tick",
    "price_must_be_positive",
    "price_too_high",
    "price_outside_band",
    "quantity_below_minimum",
    "quantity_too_high",
    "post_only_would_trade",
    "fok_not_filled",
    "reduce_only_would_increase",
    "price_beyond_bankruptcy",
    "leverage_above_tier",
    "too_many_open_orders",
    "book_full",
    "client_order_id_reused",
  ],
});

export const cancelPerpOrder = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/perp/orders/:orderId",
  summary: "Cancel an open perpetual order; its held margin is released",
  tag: "perp",
  auth: "user",
  params: OrderIdParam,
  response: z.object({ orderId: z.string(), cancelled: z.boolean() }),
  errors: ["perp_disabled", "order_not_found", "rate_limited"],
});

export const amendPerpOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/orders/:orderId/amend",
  summary: "Lower an open perpetual order's size; it keeps its time priority",
  tag: "perp",
  auth: "user",
  params: OrderIdParam,
  body: z.strictObject({
    /**
     * The new remaining number of contracts, below what remains (a larger size is refused with
     * `quantity_too_high`: cancel and place again). The margin the removed contracts held is
     * released (the kept share rounded up).
     */
    contracts: z.number().int().min(1).max(1_000_000_000_000),
  }),
  response: OrderOutcome,
  errors: [
    "perp_disabled",
    "order_not_found",
    "quantity_too_high",
    "quantity_must_be_positive",
    "rate_limited",
  ],
});

/** A waiting stop or take-profit order on a perpetual (fired by the mark; holds no margin). */
export const PerpConditionalOrderView = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  marketId: z.string(),
  side: z.enum(["buy", "sell"]),
  kind: z.enum(["stop", "take_profit"]),
  /** The order it places when the mark reaches the trigger. */
  orderType: z.enum(["limit", "market"]),
  timeInForce: z.enum(["gtc", "ioc", "fok", "post_only"]),
  /** Fires when the mark reaches it: a buy stop and a sell take-profit at or above, a sell stop and a buy take-profit at or below. */
  triggerPrice: DecimalString,
  price: DecimalString.nullable(),
  contracts: z.number().int(),
  reduceOnly: z.boolean(),
  selfTradeMode: SelfTradeMode,
  /** The other leg of its OCO pair (ends when this one fires or is cancelled); null if none. */
  ocoOrderId: z.string().nullable(),
});
export type PerpConditionalOrderView = z.infer<typeof PerpConditionalOrderView>;

export const PlacePerpConditionalOrderBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first result. */
  clientOrderId: ClientOrderId,
  marketId: PerpMarketId,
  side: z.enum(["buy", "sell"]),
  kind: z.enum(["stop", "take_profit"]),
  orderType: z.enum(["limit", "market"]),
  /** Limit only (default `gtc`); market orders are `ioc`. */
  timeInForce: z.enum(["gtc", "ioc", "fok", "post_only"]).optional(),
  triggerPrice: decimalString(18, { positive: true }),
  /** Limit price (required for limit, absent for market). */
  price: decimalString(18, { positive: true }).optional(),
  contracts: z.number().int().min(1).max(1_000_000_000_000),
  reduceOnly: z.boolean().default(false),
  selfTradeMode: SelfTradeMode.optional(),
  tradePassword: TradePassword,
});
export type PlacePerpConditionalOrderBody = z.input<typeof PlacePerpConditionalOrderBody>;

/** What placing a conditional order (a single one or an OCO pair) can answer. */
const conditionalErrors = [
  "product_unavailable_in_country",
  "country_required",
  ...tradeErrors,
  "validation_failed",
  "price_not_on_tick",
  "price_must_be_positive",
  "price_too_high",
  "quantity_below_minimum",
  "quantity_too_high",
  "trigger_would_fire_now",
  "too_many_open_orders",
  "client_order_id_reused",
] as const;

export const placePerpConditionalOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/conditional-orders",
  summary:
    "Place a stop-market, stop-limit or take-profit order on a perpetual (fired by the mark price; the placed order is checked like a new one when it fires)",
  tag: "perp",
  auth: "user",
  body: PlacePerpConditionalOrderBody,
  response: z.object({ orderId: z.string(), duplicate: z.boolean() }),
  errors: [...conditionalErrors, "order_type_invalid", "time_in_force_invalid"],
});

export const PlacePerpOcoOrderBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first result. */
  clientOrderId: ClientOrderId,
  marketId: PerpMarketId,
  /** `sell` closes a long (take-profit above the mark, stop below); `buy` closes a short. */
  side: z.enum(["buy", "sell"]),
  contracts: z.number().int().min(1).max(1_000_000_000_000),
  takeProfitTriggerPrice: decimalString(18, { positive: true }),
  /** The take-profit's limit price (GTC); absent: a market order when it fires. */
  takeProfitPrice: decimalString(18, { positive: true }).optional(),
  stopTriggerPrice: decimalString(18, { positive: true }),
  /** The stop's limit price (GTC); absent: a market order when it fires. */
  stopPrice: decimalString(18, { positive: true }).optional(),
  reduceOnly: z.boolean().default(true),
  selfTradeMode: SelfTradeMode.optional(),
  tradePassword: TradePassword,
});
export type PlacePerpOcoOrderBody = z.input<typeof PlacePerpOcoOrderBody>;

export const placePerpOcoOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/conditional-orders/oco",
  summary:
    "Place an OCO pair on a perpetual: a take-profit and a stop of the same side and size, placed together; when the mark fires one, the other ends (nothing is held while they wait)",
  tag: "perp",
  auth: "user",
  body: PlacePerpOcoOrderBody,
  /** `orderId`: the take-profit leg; the stop leg's view names it in `ocoOrderId`. */
  response: z.object({ orderId: z.string(), duplicate: z.boolean() }),
  errors: conditionalErrors,
});

export const cancelPerpConditionalOrder = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/perp/conditional-orders/:orderId",
  summary:
    "Cancel a waiting perpetual stop or take-profit order (either leg of an OCO pair ends both)",
  tag: "perp",
  auth: "user",
  params: OrderIdParam,
  response: z.object({ orderId: z.string(), cancelled: z.boolean() }),
  errors: ["perp_disabled", "order_not_found", "rate_limited"],
});

export const perpConditionalOrders = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/conditional-orders",
  summary:
    "The session's waiting perpetual stop and take-profit orders, oldest first (fired and cancelled ones are in the forced-events history, fired ones with their tick ids)",
  tag: "perp",
  auth: "user",
  query: z.strictObject({ marketId: PerpMarketId.optional() }),
  response: z.object({ items: z.array(PerpConditionalOrderView) }),
  errors: ["perp_disabled"],
});

export const perpOpenOrders = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/orders/open",
  summary: "The session's open perpetual orders, oldest first",
  tag: "perp",
  auth: "user",
  query: z.strictObject({ marketId: PerpMarketId.optional() }),
  response: z.object({ items: z.array(PerpOrderView) }),
  errors: ["perp_disabled"],
});

export const perpOrderHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/orders/history",
  summary: "The session's perpetual orders, newest first, paged",
  tag: "perp",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(PerpOrderView), nextCursor: z.string().nullable() }),
  errors: ["perp_disabled"],
});

export const perpFills = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/fills",
  summary: "The session's perpetual fills with the mark's tick ids, newest first, paged",
  tag: "perp",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(PerpFillView), nextCursor: z.string().nullable() }),
  errors: ["perp_disabled"],
});

export const perpForcedEvents = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/liquidations",
  summary: "Liquidations, takeovers, auto-deleveraging and TP/SL triggers, each with its tick ids",
  tag: "perp",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(PerpForcedEventView), nextCursor: z.string().nullable() }),
  errors: ["perp_disabled"],
});

export const perpFundingHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/perp/funding",
  summary: "The session's funding payments with rate, mark and tick ids, newest first, paged",
  tag: "perp",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(PerpFundingView), nextCursor: z.string().nullable() }),
  errors: ["perp_disabled"],
});

export const setPerpLeverage = defineEndpoint({
  method: "PUT",
  path: "/api/v1/perp/markets/:marketId/leverage",
  summary: "Choose the leverage of a market (checked against the tiers and, cross, the margin)",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: z.strictObject({ leverage: z.number().int().min(1).max(200) }),
  response: z.object({ position: PerpPositionView }),
  errors: [...tradeErrors, "leverage_invalid", "leverage_above_tier"],
});

export const setPerpMarginMode = defineEndpoint({
  method: "PUT",
  path: "/api/v1/perp/markets/:marketId/margin-mode",
  summary: "Choose cross or isolated margin (only with no position and no open orders there)",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: z.strictObject({ marginMode: PerpMarginMode }),
  response: z.object({ position: PerpPositionView }),
  errors: [...tradeErrors, "margin_mode_locked"],
});

export const changePerpMargin = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/positions/:marketId/margin",
  summary: "Add margin to or remove margin from an isolated position",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: z.strictObject({
    direction: z.enum(["add", "remove"]),
    amount: decimalString(18, { positive: true }),
    tradePassword: TradePassword,
  }),
  response: z.object({ position: PerpPositionView }),
  errors: [
    ...tradeErrors,
    "position_not_found",
    "position_not_isolated",
    "margin_remove_too_much",
    "amount_too_many_decimals",
    "amount_must_be_positive",
    "amount_above_maximum",
  ],
});

export const setPerpTpSl = defineEndpoint({
  method: "PUT",
  path: "/api/v1/perp/positions/:marketId/tp-sl",
  summary: "Set take-profit and stop-loss (fired by the mark; one left out is unset)",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: z.strictObject({
    takeProfitPrice: decimalString(18, { positive: true }).optional(),
    stopLossPrice: decimalString(18, { positive: true }).optional(),
    tradePassword: TradePassword,
  }),
  response: z.object({ position: PerpPositionView }),
  errors: [...tradeErrors, "position_not_found", "price_not_on_tick", "price_too_high"],
});

export const cancelPerpTpSl = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/perp/positions/:marketId/tp-sl",
  summary: "Remove the position's take-profit and stop-loss",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  response: z.object({ position: PerpPositionView }),
  errors: [...tradeErrors, "position_not_found"],
});

const PositionActionBody = z.strictObject({
  /** Idempotency key minted on the device. */
  requestId: ClientOrderId,
  tradePassword: TradePassword,
});

export const closePerpPosition = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/positions/:marketId/close",
  summary: "Close the whole position with a reduce-only market order",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: PositionActionBody,
  response: OrderOutcome,
  errors: [...tradeErrors, "position_not_found", "client_order_id_reused"],
});

export const reversePerpPosition = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/positions/:marketId/reverse",
  summary: "Reverse the position in one market order of twice its size",
  tag: "perp",
  auth: "user",
  params: MarketParam,
  body: PositionActionBody,
  response: OrderOutcome,
  errors: [
    "product_unavailable_in_country",
    "country_required",
    ...tradeErrors,
    "position_not_found",
    "client_order_id_reused",
  ],
});

export const closeAllPerpPositions = defineEndpoint({
  method: "POST",
  path: "/api/v1/perp/positions/close-all",
  summary: "Close every position of the session's mode (markets in id order)",
  tag: "perp",
  auth: "user",
  body: PositionActionBody,
  response: z.object({ closed: z.boolean(), duplicate: z.boolean() }),
  errors: [...tradeErrors, "client_order_id_reused"],
});

/**
 * POST /api/v1/operator/market-maker/perp-funding: the operator moves the labelled market
 * maker's real, operator-funded inventory (credited by `POST /api/v1/operator/market-maker/
 * funding`) from its fund wallet into its real contract wallet, so it can quote the real
 * perpetual books. One journaled `fund_perp_market_maker` command (kernel type 42), one posting
 * between two accounts of `system:market_maker` naming the operator and the reference.
 */
export const PerpMarketMakerFundingBody = z.strictObject({
  /** Idempotency key: the same id moves at most once. */
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, "must be 1–100 letters, digits or . _ : -"),
  /** A perpetual's quote asset (USDT). */
  assetId: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, "must be an asset id"),
  /** Positive decimal string; more decimals than the asset has are rejected, never rounded. */
  amount: decimalString(18, { positive: true }),
  /** The operator's reference (the funding deposit, a ticket), on the posting. */
  reference: z.string().trim().min(1).max(200),
  /** Why (journaled with the command and kept in the audit trail). */
  reason: OperatorReason,
});

export const perpMarketMakerFundingEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/market-maker/perp-funding",
  summary: "Move the market maker's real inventory into its contract wallet (operator)",
  tag: "operator",
  auth: "operator",
  body: PerpMarketMakerFundingBody,
  response: z.object({ funded: z.boolean(), duplicate: z.boolean() }),
  errors: ["validation_failed", "insufficient_balance"],
  description:
    "A journaled `fund_perp_market_maker` from `system:market_maker`'s real fund wallet (money " +
    "the operator credited) to its real contract wallet, naming the operator, reference and " +
    "reason. Refused (422) when the fund wallet holds less. It creates no money; the market " +
    "maker then quotes the real perpetual books like any participant.",
});
