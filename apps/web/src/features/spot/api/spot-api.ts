import { apiFetch, endpointUrl } from "../../../lib/api-client.ts";

/*
 * The orders API of issue 8 (contract: packages/contract/src/spot.ts, server:
 * apps/server/src/modules/spot). The views are restated here as types so this chunk does not
 * load zod; spot-api.test.ts checks the paths against the contract once it is on main.
 */

export type SpotSide = "buy" | "sell";
export type SpotOrderType = "limit" | "market";
export type TimeInForce = "gtc" | "ioc" | "fok" | "post_only";
export type SpotOrderStatus = "open" | "filled" | "cancelled" | "expired" | "rejected";

/** A spot market as the order form needs it (GET /api/v1/spot/markets). */
export interface SpotMarketView {
  instrumentId: string;
  marketId: string;
  baseAsset: string;
  quoteAsset: string;
  baseDecimals: number;
  quoteDecimals: number;
  priceStep: string;
  lotSize: string;
  quantityMin: string;
  quantityMax: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  /** Warn when a limit price is more than this many bps above / below the last price. */
  priceWarningBpsUp: number;
  priceWarningBpsDown: number;
  lastPrice: string | null;
  lastTickId: string | null;
  open: boolean;
}

export interface SpotOrderView {
  orderId: string;
  clientOrderId: string;
  instrumentId: string;
  marketId: string;
  mode: "real" | "demo";
  side: SpotSide;
  type: SpotOrderType;
  timeInForce: TimeInForce;
  price: string | null;
  quantity: string;
  quoteAmount: string | null;
  filledQuantity: string;
  remainingQuantity: string;
  filledQuote: string;
  averagePrice: string | null;
  status: SpotOrderStatus;
  createdAtMs: number;
}

export interface SpotFillView {
  fillId: string;
  orderId: string;
  makerOrderId: string;
  takerOrderId: string;
  role: "maker" | "taker";
  side: SpotSide;
  price: string;
  quantity: string;
  quoteAmount: string;
  fee: string;
  feeAsset: string;
  counterparty: "user" | "market_maker" | "system";
  /** The tape tick current when the fill happened (GET /api/v1/tape). */
  tickId: string | null;
  /** Journal sequence of the fill, where the public tape lists it (when the API gives it). */
  sequence?: string;
  atMs: number;
}

export interface SpotBalanceView {
  asset: string;
  decimals: number;
  available: string;
  held: string;
  total: string;
}

export interface StatementLineView {
  postingSeq: string;
  asset: string;
  amount: string;
  fromHeld: boolean;
  reason: string;
  counterparty: string;
  orderId: string | null;
  fillId: string | null;
  tickId: string | null;
  operatorId: string | null;
  reference: string | null;
  atMs: number;
}

export interface PlaceSpotOrderBody {
  clientOrderId: string;
  instrumentId: string;
  side: SpotSide;
  type: SpotOrderType;
  timeInForce?: TimeInForce;
  price?: string;
  quantity?: string;
  quoteAmount?: string;
  tradePassword?: string;
}

/** The endpoints' paths (under /api/v1), as in the contract. */
export const spotPaths = {
  markets: "/spot/markets",
  placeOrder: "/spot/orders",
  cancelOrder: "/spot/orders/:orderId",
  cancelAll: "/spot/orders/cancel-all",
  openOrders: "/spot/orders/open",
  history: "/spot/orders/history",
  orderDetail: "/spot/orders/:orderId",
  balances: "/spot/balances",
  statement: "/spot/statement",
  demoFunds: "/spot/demo-funds",
} as const;

export function fetchSpotMarkets(): Promise<{
  items: SpotMarketView[];
  tradePasswordWindowMs: number;
}> {
  return apiFetch(spotPaths.markets);
}

export function placeSpotOrder(body: PlaceSpotOrderBody): Promise<{
  order: SpotOrderView;
  fills: SpotFillView[];
  duplicate: boolean;
}> {
  return apiFetch(spotPaths.placeOrder, { method: "POST", auth: true, body: JSON.stringify(body) });
}

export function cancelSpotOrder(orderId: string): Promise<{ order: SpotOrderView }> {
  return apiFetch(endpointUrl(spotPaths.cancelOrder, { orderId }), {
    method: "DELETE",
    auth: true,
  });
}

export function cancelAllSpotOrders(instrumentId?: string): Promise<{ cancelledCount: number }> {
  return apiFetch(spotPaths.cancelAll, {
    method: "POST",
    auth: true,
    body: JSON.stringify(instrumentId ? { instrumentId } : {}),
  });
}

export function fetchOpenOrders(instrumentId?: string): Promise<{ items: SpotOrderView[] }> {
  return apiFetch(endpointUrl(spotPaths.openOrders, {}, { instrumentId }), { auth: true });
}

export function fetchOrderHistory(input: {
  instrumentId?: string;
  cursor?: string;
  limit?: number;
}): Promise<{ items: SpotOrderView[]; nextCursor: string | null }> {
  return apiFetch(endpointUrl(spotPaths.history, {}, input), { auth: true });
}

export function fetchOrderDetail(
  orderId: string,
): Promise<{ order: SpotOrderView; fills: SpotFillView[] }> {
  return apiFetch(endpointUrl(spotPaths.orderDetail, { orderId }), { auth: true });
}

export function fetchSpotBalances(): Promise<{ mode: "real" | "demo"; items: SpotBalanceView[] }> {
  return apiFetch(spotPaths.balances, { auth: true });
}

export function fetchStatement(input: {
  asset?: string;
  cursor?: string;
  limit?: number;
}): Promise<{ items: StatementLineView[]; nextCursor: string | null }> {
  return apiFetch(endpointUrl(spotPaths.statement, {}, input), { auth: true });
}

export function grantDemoFunds(input: {
  requestId: string;
  asset: string;
  amount: string;
}): Promise<{ items: SpotBalanceView[] }> {
  return apiFetch(spotPaths.demoFunds, { method: "POST", auth: true, body: JSON.stringify(input) });
}

/** A client order id minted on the device: the idempotency key of one placement. */
export function newClientOrderId(): string {
  return crypto.randomUUID();
}

/**
 * The public tape's page that lists a fill and the tick it used: GET /api/v1/tape over the
 * fill's journal sequence. Undefined when the API does not give the sequence.
 */
export function tapeLink(fill: SpotFillView, mode: "real" | "demo"): string | undefined {
  if (!fill.sequence) return undefined;
  return endpointUrl("/api/v1/tape", {}, { from: fill.sequence, to: fill.sequence, mode });
}
