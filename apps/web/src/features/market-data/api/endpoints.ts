import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints market data calls (contract: market.ts). */
export const marketDataEndpoints = endpointTable({
  listInstrumentsEndpoint: { method: "GET", path: "/api/v1/market/instruments", auth: "none" },
  getTickerEndpoint: {
    method: "GET",
    path: "/api/v1/market/instruments/:id/ticker",
    auth: "none",
  },
  getMarketStatusEndpoint: {
    method: "GET",
    path: "/api/v1/market/instruments/:id/status",
    auth: "none",
  },
  getCandlesEndpoint: {
    method: "GET",
    path: "/api/v1/market/instruments/:id/candles",
    auth: "none",
  },
  listTradesEndpoint: {
    method: "GET",
    path: "/api/v1/market/instruments/:id/trades",
    auth: "none",
  },
});
