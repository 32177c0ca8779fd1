import type { CandleInterval } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { marketDataEndpoints } from "./endpoints.ts";

/*
 * One pair's market data for the Coin-Coin screen, apart from the instrument lists so that the
 * home route does not carry it.
 */

/** GET /api/v1/market/instruments/:id/ticker */
export function fetchTicker(instrumentId: string) {
  return callEndpoint(marketDataEndpoints.getTickerEndpoint, { params: { id: instrumentId } });
}

/** GET /api/v1/market/instruments/:id/status: open or closed, and what is open instead. */
export function fetchMarketStatus(instrumentId: string) {
  return callEndpoint(marketDataEndpoints.getMarketStatusEndpoint, {
    params: { id: instrumentId },
  });
}

/** GET /api/v1/market/instruments/:id/candles */
export function fetchCandles(instrumentId: string, interval: CandleInterval) {
  return callEndpoint(marketDataEndpoints.getCandlesEndpoint, {
    params: { id: instrumentId },
    query: { interval, limit: 300 },
  });
}

/** GET /api/v1/market/instruments/:id/trades, newest first. */
export function fetchTrades(instrumentId: string) {
  return callEndpoint(marketDataEndpoints.listTradesEndpoint, {
    params: { id: instrumentId },
    query: { limit: 30 },
  });
}
