import { callEndpoint } from "../../../lib/api-client.ts";
import { stocksEndpoints } from "./endpoints.ts";

/* Stocks of issue 21 (contract: packages/contract/src/stocks.ts). */

type Mode = "real" | "demo";

export const stocksKeys = {
  all: ["stocks"] as const,
  list: (mode: Mode) => [...stocksKeys.all, "list", mode] as const,
  detail: (instrumentId: string, mode: Mode) =>
    [...stocksKeys.all, "detail", instrumentId, mode] as const,
  holdings: () => [...stocksKeys.all, "holdings"] as const,
  orders: (status: "pending" | "history") => [...stocksKeys.all, "orders", status] as const,
  fills: () => [...stocksKeys.all, "fills"] as const,
  news: (instrumentId: string, language: string) =>
    [...stocksKeys.all, "news", instrumentId, language] as const,
};

export interface StockOrderInput {
  instrumentId: string;
  side: "buy" | "sell";
  kind: "market" | "limit";
  quantity: string;
  limitPrice?: string;
}

export const fetchStocks = (mode: Mode) =>
  callEndpoint(stocksEndpoints.stockPageData, { query: { mode } });

export const fetchStock = (instrumentId: string, mode: Mode) =>
  callEndpoint(stocksEndpoints.stockDetail, { params: { instrumentId }, query: { mode } });

export const estimateStockOrder = (body: StockOrderInput) =>
  callEndpoint(stocksEndpoints.estimateStockOrder, { body });

export const placeStockOrder = (
  body: StockOrderInput & { requestId: string; tif: "day" | "gtc"; queueForOpen: boolean },
) => callEndpoint(stocksEndpoints.placeStockOrder, { body });

export const fetchStockOrders = (status: "pending" | "history") =>
  callEndpoint(stocksEndpoints.stockOrders, { query: { status, limit: 50 } });

export const cancelStockOrder = (orderId: string) =>
  callEndpoint(stocksEndpoints.cancelStockOrder, { params: { orderId } });

export const fetchStockFills = () =>
  callEndpoint(stocksEndpoints.stockFills, { query: { limit: 50 } });

export const fetchStockHoldings = () => callEndpoint(stocksEndpoints.stockHoldings, {});

export const setStockTpSl = (
  instrumentId: string,
  body: { takeProfit: string | null; stopLoss: string | null },
) => callEndpoint(stocksEndpoints.setStockTpSl, { params: { instrumentId }, body });

export const grantStockDemoFunds = () => callEndpoint(stocksEndpoints.grantStockDemoFunds, {});

/** The news module's list filtered by the stock (spec /api/stock/news). */
export const fetchStockNews = (instrumentId: string) =>
  callEndpoint(stocksEndpoints.listNews, { query: { symbol: instrumentId, limit: 5, offset: 0 } });
