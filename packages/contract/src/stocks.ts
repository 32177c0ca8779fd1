import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString, InstrumentId } from "./market.ts";
import { ClientOrderId, PageLimit } from "./spot.ts";

/**
 * Stocks (issue 21): market and limit orders filled against the labelled house account
 * (`system:house`) at the recorded quote ± a disclosed spread, during the exchange's sessions.
 * Every fill cites its tape tick (`#/tape/:instrumentId/:tickId`). Amounts are decimal strings
 * in the stock's currency (USD, HKD); quantities are whole shares (a multiple of the lot size).
 */

export const StockSide = z.enum(["buy", "sell"]);
export const StockOrderKind = z.enum(["market", "limit"]);
export const StockTif = z.enum(["day", "gtc"]);
export const StockOrderStatus = z.enum(["pending", "filled", "cancelled", "expired"]);
export const StockOrderOrigin = z.enum(["user", "take_profit", "stop_loss"]);

/** Whole shares as a decimal string without decimals. */
const Shares = z.string().regex(/^[1-9]\d{0,11}$/, "must be a whole number of shares");

/** Terms, session and quote of one stock: what the list and the order sheet show. */
export const StockView = z.object({
  instrumentId: z.string(),
  symbol: z.string(),
  name: z.string(),
  venue: z.string(),
  asset: z.string(),
  assetDecimals: z.number().int().nonnegative(),
  priceDecimals: z.number().int().nonnegative(),
  lotSize: z.string(),
  quantityLotsMax: z.number().int().positive(),
  spreadBps: z.number().int().nonnegative(),
  commissionBps: z.number().int().nonnegative(),
  commissionMin: DecimalString,
  /** Stamp duty on each side, basis points, rounded up to `stampDutyRoundTo` (HK: 1 HKD). */
  stampDutyBps: z.number().int().nonnegative(),
  stampDutyRoundTo: DecimalString,
  tradable: z.boolean(),
  session: z.object({
    open: z.boolean(),
    sessionId: z.string().nullable(),
    /** From the exchange calendar: when the market next opens / closes (ms), or null. */
    nextOpenMs: z.number().int().nullable(),
    nextCloseMs: z.number().int().nullable(),
  }),
  lastPrice: DecimalString.nullable(),
  lastTickId: z.string().nullable(),
  lastTickAtMs: z.number().int().nullable(),
  /** Buy and sell prices a market order would get now (quote ± spread), or null. */
  ask: DecimalString.nullable(),
  bid: DecimalString.nullable(),
  /** Shares the house can sell now, in this mode. */
  houseAvailable: z.string(),
});
export type StockView = z.infer<typeof StockView>;

export const StockOrderView = z.object({
  orderId: z.string(),
  clientOrderId: z.string(),
  mode: AccountMode,
  instrumentId: z.string(),
  asset: z.string(),
  side: StockSide,
  kind: StockOrderKind,
  tif: StockTif,
  origin: StockOrderOrigin,
  quantity: z.string(),
  limitPrice: DecimalString.nullable(),
  /** Held at order time (buys): notional at the limit or market price + commission + duty. */
  prepaid: DecimalString,
  status: StockOrderStatus,
  placedAtMs: z.number().int(),
  closedAtMs: z.number().int().nullable(),
});
export type StockOrderView = z.infer<typeof StockOrderView>;

export const StockFillView = z.object({
  orderId: z.string(),
  mode: AccountMode,
  instrumentId: z.string(),
  asset: z.string(),
  side: StockSide,
  origin: StockOrderOrigin,
  quantity: z.string(),
  price: DecimalString,
  notional: DecimalString,
  commission: DecimalString,
  stampDuty: DecimalString,
  /** Buy: paid in total; sell: received after fees. */
  net: DecimalString,
  /** Buy: the part of the prepaid amount released at fill. */
  released: DecimalString,
  tickId: z.string(),
  tickPrice: DecimalString,
  filledAtMs: z.number().int(),
});
export type StockFillView = z.infer<typeof StockFillView>;

export const StockHoldingView = z.object({
  instrumentId: z.string(),
  asset: z.string(),
  quantity: z.string(),
  heldQuantity: z.string(),
  costBasis: DecimalString,
  /** costBasis / quantity at the price's decimals, rounded half up; null without shares. */
  averageCost: DecimalString.nullable(),
  /** At the last recorded quote (not the bid), null without one. */
  lastPrice: DecimalString.nullable(),
  marketValue: DecimalString.nullable(),
  unrealisedPnl: DecimalString.nullable(),
  realisedPnl: DecimalString,
  takeProfit: DecimalString.nullable(),
  stopLoss: DecimalString.nullable(),
});
export type StockHoldingView = z.infer<typeof StockHoldingView>;

export const StockEstimateView = z.object({
  price: DecimalString,
  notional: DecimalString,
  commission: DecimalString,
  stampDuty: DecimalString,
  /** Buy: the prepaid amount held now; sell: what you would receive. */
  net: DecimalString,
});
export type StockEstimateView = z.infer<typeof StockEstimateView>;

const ModeQuery = z.strictObject({ mode: AccountMode.default("real") });

export const stockPageData = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks",
  summary: "Every tradable stock with its terms, session and last quote (pagedata)",
  tag: "stocks",
  auth: "none",
  query: ModeQuery,
  response: z.object({ items: z.array(StockView) }),
});

const StockParams = z.strictObject({ instrumentId: InstrumentId });

export const stockDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks/:instrumentId",
  summary: "One stock: terms, session, quote, day range and 52-week range from the history",
  tag: "stocks",
  auth: "none",
  params: StockParams,
  query: ModeQuery,
  response: z.object({
    stock: StockView,
    dayLow: DecimalString.nullable(),
    dayHigh: DecimalString.nullable(),
    yearLow: DecimalString.nullable(),
    yearHigh: DecimalString.nullable(),
  }),
  errors: ["stock_not_found"],
});

const OrderFields = {
  instrumentId: InstrumentId,
  side: StockSide,
  kind: StockOrderKind,
  quantity: Shares,
  limitPrice: decimalString(8, { positive: true }).optional(),
};

export const estimateStockOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/stocks/estimate",
  summary: "What an order would cost or pay now: price, notional, commission, stamp duty",
  tag: "stocks",
  auth: "user",
  body: z.strictObject(OrderFields),
  response: z.object({ estimate: StockEstimateView }),
  errors: [
    "stock_not_found",
    "stock_quantity_invalid",
    "stock_price_invalid",
    "no_reference_price",
  ],
});

export const placeStockOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/stocks/orders",
  summary: "Place a market or limit order (idempotent by requestId)",
  tag: "stocks",
  auth: "user",
  body: z.strictObject({
    requestId: ClientOrderId,
    ...OrderFields,
    tif: StockTif.default("day"),
    queueForOpen: z.boolean().default(false),
    /** As for spot orders: needed in real mode unless confirmed within the window. */
    tradePassword: z.string().min(1).max(64).optional(),
  }),
  response: z.object({
    order: StockOrderView,
    fill: StockFillView.nullable(),
    duplicate: z.boolean(),
  }),
  errors: [
    "product_unavailable_in_country",
    "country_required",
    "stock_not_found",
    "stock_market_closed",
    "stock_trading_closed",
    "stock_quantity_invalid",
    "stock_price_invalid",
    "stock_inventory_insufficient",
    "stock_holding_insufficient",
    "stock_house_cash_insufficient",
    "stock_order_too_small",
    "stock_too_many_orders",
    "insufficient_balance",
    "no_reference_price",
    "reference_price_stale",
    "client_order_id_reused",
    "trade_password_not_set",
    "trade_password_required",
    "trade_password_invalid",
    "rate_limited",
  ],
});

const OrderParams = z.strictObject({ orderId: z.string().regex(/^[1-9]\d{0,15}$/) });

export const stockOrders = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks/orders",
  summary: "The session's stock orders: pending (current) or closed (history), newest first",
  tag: "stocks",
  auth: "user",
  query: z.strictObject({
    status: z.enum(["pending", "history"]).default("pending"),
    instrumentId: InstrumentId.optional(),
    limit: PageLimit,
  }),
  response: z.object({ items: z.array(StockOrderView) }),
});

export const stockOrderDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks/orders/:orderId",
  summary: "One stock order and its fill",
  tag: "stocks",
  auth: "user",
  params: OrderParams,
  response: z.object({ order: StockOrderView, fill: StockFillView.nullable() }),
  errors: ["order_not_found"],
});

export const cancelStockOrder = defineEndpoint({
  method: "POST",
  path: "/api/v1/stocks/orders/:orderId/cancel",
  summary: "Cancel a pending stock order: its holds are released",
  tag: "stocks",
  auth: "user",
  params: OrderParams,
  response: z.object({ order: StockOrderView }),
  errors: ["order_not_found"],
});

export const stockFills = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks/fills",
  summary: "The session's stock fills (deals), newest first",
  tag: "stocks",
  auth: "user",
  query: z.strictObject({ instrumentId: InstrumentId.optional(), limit: PageLimit }),
  response: z.object({ items: z.array(StockFillView) }),
});

export const stockHoldings = defineEndpoint({
  method: "GET",
  path: "/api/v1/stocks/holdings",
  summary: "The session's holdings with average cost, market value and PnL per currency",
  tag: "stocks",
  auth: "user",
  response: z.object({
    items: z.array(StockHoldingView),
    totals: z.array(
      z.object({
        asset: z.string(),
        marketValue: DecimalString,
        unrealisedPnl: DecimalString,
        realisedPnl: DecimalString,
      }),
    ),
  }),
});

export const setStockTpSl = defineEndpoint({
  method: "PUT",
  path: "/api/v1/stocks/holdings/:instrumentId/tpsl",
  summary: "Set or clear a holding's take-profit and stop-loss (setwinlose)",
  tag: "stocks",
  auth: "user",
  params: StockParams,
  body: z.strictObject({
    takeProfit: decimalString(8, { positive: true }).nullable(),
    stopLoss: decimalString(8, { positive: true }).nullable(),
  }),
  response: z.object({ holding: StockHoldingView }),
  errors: ["stock_not_found", "stock_price_invalid", "stock_holding_insufficient"],
});

export const grantStockDemoFunds = defineEndpoint({
  method: "POST",
  path: "/api/v1/stocks/demo-funds",
  summary: "Demo mode: top up demo USD and HKD from the demo faucet (demo money only)",
  tag: "stocks",
  auth: "user",
  response: z.object({ balances: z.array(z.object({ asset: z.string(), amount: DecimalString })) }),
  errors: ["demo_mode_required"],
});

export const fundStockInventory = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/stocks/inventory",
  summary: "Operator: add shares to (or take free shares from) the house's inventory, journaled",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    requestId: ClientOrderId,
    mode: AccountMode,
    instrumentId: InstrumentId,
    /** `add` funds shares; `remove` takes free shares back. */
    direction: z.enum(["add", "remove"]),
    /** Whole shares. */
    quantity: Shares,
    reference: z.string().min(1).max(200),
    reason: OperatorReason,
  }),
  response: z.object({
    instrumentId: z.string(),
    mode: AccountMode,
    funded: z.string(),
    available: z.string(),
    reserved: z.string(),
  }),
  errors: ["stock_not_found", "stock_quantity_invalid", "stock_inventory_insufficient"],
});
