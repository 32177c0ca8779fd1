import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";

/**
 * Market-data views shared by the API and the web app. Every price, quantity and percentage
 * is a decimal string (never a JSON number); times are milliseconds since the epoch.
 */

/** A decimal string: optional minus, digits, optional fraction ("95012.34", "-1.25"). */
export const DecimalString = z
  .string()
  .max(64)
  .regex(/^-?\d+(\.\d+)?$/, "must be a decimal string");

export const AssetClass = z.enum(["crypto", "stock", "forex", "metal", "commodity"]);
export type AssetClass = z.infer<typeof AssetClass>;

export const ProductKind = z.enum(["spot", "stock", "perpetual", "seconds"]);

/** Where a price came from; simulated prices are labelled as such on every screen. */
export const PriceSource = z.enum(["simulated", "binance"]);
export type PriceSource = z.infer<typeof PriceSource>;

export const CandleInterval = z.enum(["1m", "5m", "15m", "1h", "4h", "1d", "1w"]);
export type CandleInterval = z.infer<typeof CandleInterval>;

/** An instrument id as used in paths: letters, digits, dot, dash; at most 20 characters. */
export const InstrumentId = z
  .string()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9.-]+$/, "must be an instrument id");

export const InstrumentView = z.object({
  id: z.string(),
  symbol: z.string(),
  names: z.object({ en: z.string(), "zh-Hant": z.string() }),
  assetClass: AssetClass,
  venue: z.string(),
  baseAsset: z.string(),
  baseDecimals: z.number().int().nonnegative(),
  quoteAsset: z.string(),
  quoteDecimals: z.number().int().nonnegative(),
  /** Decimals of a price. */
  priceScale: z.number().int().nonnegative(),
  /** Smallest price step, e.g. "0.01". */
  tickSize: DecimalString,
  /** Decimals of a quantity. */
  quantityScale: z.number().int().nonnegative(),
  /** Smallest quantity step (a board lot for stocks), e.g. "100". */
  lotSize: DecimalString,
  products: z.array(ProductKind),
  /** Stamp duty per side, basis points (Hong Kong stocks: 10). */
  stampDutyBps: z.number().int().nonnegative(),
  calendar: z.object({ id: z.string(), name: z.string(), timeZone: z.string() }),
  source: PriceSource,
});
export type InstrumentView = z.infer<typeof InstrumentView>;

/** GET /api/v1/market/instruments?assetClass=&q=&limit= */
export const InstrumentsQuery = z.object({
  assetClass: AssetClass.optional(),
  q: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const MarketStatusView = z.object({
  instrumentId: z.string(),
  open: z.boolean(),
  /** When a closed market opens next (ms), or null. */
  nextOpenMs: z.number().int().nullable(),
  /** When an open market closes next (ms), or null for 24/7 markets. */
  nextCloseMs: z.number().int().nullable(),
  timeZone: z.string(),
  /** For a closed market: ids of instruments of the same class (or crypto) open now. */
  openAlternatives: z.array(z.string()),
});
export type MarketStatusView = z.infer<typeof MarketStatusView>;

export const TickerView = z.object({
  instrumentId: z.string(),
  last: DecimalString,
  open24h: DecimalString,
  high24h: DecimalString,
  low24h: DecimalString,
  /** Base quantity traded in 24 h. */
  volume24h: DecimalString,
  /** Change over 24 h in percent with two decimals, e.g. "-1.25". */
  changePercent24h: DecimalString,
  lastAtMs: z.number().int(),
  marketOpen: z.boolean(),
  source: PriceSource,
});
export type TickerView = z.infer<typeof TickerView>;

export const CandleView = z.object({
  openMs: z.number().int(),
  open: DecimalString,
  high: DecimalString,
  low: DecimalString,
  close: DecimalString,
  volume: DecimalString,
  /** False while the bar is still being built. */
  closed: z.boolean(),
});
export type CandleView = z.infer<typeof CandleView>;

/** GET /api/v1/market/instruments/:id/candles?interval=&from=&to=&limit= */
export const CandlesQuery = z.object({
  interval: CandleInterval.default("1h"),
  fromMs: z.coerce.number().int().nonnegative().optional(),
  toMs: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(300),
});

export const CandlesView = z.object({
  instrumentId: z.string(),
  interval: CandleInterval,
  source: PriceSource,
  candles: z.array(CandleView),
});
export type CandlesView = z.infer<typeof CandlesView>;

/** A price level: [price, quantity] as decimal strings. Quantity "0" in a diff removes the level. */
export const DepthLevel = z.tuple([DecimalString, DecimalString]);
export type DepthLevel = z.infer<typeof DepthLevel>;

export const AccountMode = z.enum(["real", "demo"]);

export const DepthView = z.object({
  instrumentId: z.string(),
  mode: AccountMode,
  /** Increases by one with every change; a diff names the sequence it follows. */
  sequence: z.number().int().nonnegative(),
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
  atMs: z.number().int(),
  /** "order_book" for spot books; "simulated" for a quote ladder around a simulated price. */
  source: z.enum(["order_book", "simulated"]),
});
export type DepthView = z.infer<typeof DepthView>;

/** GET /api/v1/market/instruments/:id/depth?mode=&levels= */
export const DepthQuery = z.object({
  mode: AccountMode.default("real"),
  levels: z.coerce.number().int().min(1).max(50).default(20),
});

export const TradeView = z.object({
  /** The tape id of the print. */
  id: z.string(),
  instrumentId: z.string(),
  price: DecimalString,
  quantity: DecimalString,
  /** The taker's side; null for a simulated tick with no book behind it. */
  takerSide: z.enum(["buy", "sell"]).nullable(),
  atMs: z.number().int(),
  source: PriceSource,
});
export type TradeView = z.infer<typeof TradeView>;

/** GET /api/v1/market/instruments/:id/trades?limit= */
export const TradesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

// ---- endpoints (GET, public) ----

const IdParams = z.object({ id: InstrumentId });
const ClassQuery = z.object({ assetClass: AssetClass.optional() });
const simulatedNote =
  'Prices from the built-in simulator carry `source: "simulated"` and must be shown as simulated.';

export const listInstrumentsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments",
  summary: "List or search instruments",
  tag: "market",
  auth: "none",
  query: InstrumentsQuery,
  response: z.array(InstrumentView),
});

export const getInstrumentEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id",
  summary: "One instrument",
  tag: "market",
  auth: "none",
  params: IdParams,
  response: InstrumentView,
  errors: ["instrument_not_found"],
});

export const listTickersEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/tickers",
  summary: "24-hour tickers of every instrument",
  tag: "market",
  auth: "none",
  query: ClassQuery,
  response: z.array(TickerView),
  description: simulatedNote,
});

export const getTickerEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id/ticker",
  summary: "24-hour ticker of one instrument",
  tag: "market",
  auth: "none",
  params: IdParams,
  response: TickerView,
  errors: ["instrument_not_found"],
  description: simulatedNote,
});

export const getMarketStatusEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id/status",
  summary: "Open or closed, next opening, open alternatives",
  tag: "market",
  auth: "none",
  params: IdParams,
  response: MarketStatusView,
  errors: ["instrument_not_found"],
});

export const listMarketStatusEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/status",
  summary: "Market status of every instrument",
  tag: "market",
  auth: "none",
  query: ClassQuery,
  response: z.array(MarketStatusView),
});

export const getCandlesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id/candles",
  summary: "Candles (1m to 1w); the newest bar may still be open",
  tag: "market",
  auth: "none",
  params: IdParams,
  query: CandlesQuery,
  response: CandlesView,
  errors: ["instrument_not_found"],
  description: simulatedNote,
});

export const getDepthEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id/depth",
  summary: "Order book depth (spot) or simulated quote ladder",
  tag: "market",
  auth: "none",
  params: IdParams,
  query: DepthQuery,
  response: DepthView,
  errors: ["instrument_not_found"],
});

export const listTradesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/market/instruments/:id/trades",
  summary: "Recent prints, newest first",
  tag: "market",
  auth: "none",
  params: IdParams,
  query: TradesQuery,
  response: z.array(TradeView),
  errors: ["instrument_not_found"],
});

/** POST /api/v1/operator/market-maker/funding: the operator's real inventory for the market maker. */
export const MarketMakerFundingBody = z.strictObject({
  /** Idempotency key: the same id credits at most once. */
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, "must be 1–100 letters, digits or . _ : -"),
  assetId: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, "must be an asset id"),
  /**
   * Positive decimal string; more decimals than the asset has are rejected, never rounded.
   * (Was any signed decimal of 64 characters until the security suite's hostile amounts.)
   */
  amount: decimalString(18, { positive: true }),
  /** Where the money came from (bank or chain reference), 1–200 characters. */
  reference: z.string().min(1).max(200),
  /** Why (audit log). */
  reason: OperatorReason,
});

export const marketMakerFundingEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/market-maker/funding",
  summary: "Credit real inventory to the labelled market maker (operator)",
  tag: "operator",
  auth: "operator",
  body: MarketMakerFundingBody,
  response: z.object({ credited: z.boolean(), duplicate: z.boolean() }),
  errors: ["validation_failed"],
  description:
    "A journaled `credit_deposit` to `system:market_maker` with the operator named on the " +
    "posting. Nothing funds the market maker's real side automatically.",
});
