import type {
  CandleInterval,
  CandlesView,
  DepthView,
  InstrumentView,
  MarketStatusView,
  TickerView,
  TradeView,
} from "@candor/contract";
import { apiFetch, endpointUrl } from "../../../lib/api-client.ts";

/** Account mode of the books and balances: real money or demo (simulated) money. */
export type AccountMode = "real" | "demo";

/** Spot pairs: the instruments that have an order book (crypto pairs), by the market API. */
export async function fetchSpotPairs(): Promise<InstrumentView[]> {
  const path = endpointUrl("/market/instruments", {}, { assetClass: "crypto", limit: 100 });
  const data = await apiFetch<InstrumentView[] | { items: InstrumentView[] }>(path);
  const list = Array.isArray(data) ? data : data.items;
  return list.filter((instrument) => instrument.products.includes("spot"));
}

/** GET /api/v1/market/instruments/:id/ticker */
export function fetchTicker(instrumentId: string): Promise<TickerView> {
  return apiFetch(endpointUrl("/market/instruments/:id/ticker", { id: instrumentId }));
}

/** GET /api/v1/market/instruments/:id/status: open or closed, and what is open instead. */
export function fetchMarketStatus(instrumentId: string): Promise<MarketStatusView> {
  return apiFetch(endpointUrl("/market/instruments/:id/status", { id: instrumentId }));
}

/** GET /api/v1/market/instruments/:id/candles */
export function fetchCandles(instrumentId: string, interval: CandleInterval): Promise<CandlesView> {
  return apiFetch(
    endpointUrl("/market/instruments/:id/candles", { id: instrumentId }, { interval, limit: 300 }),
  );
}

/** GET /api/v1/market/instruments/:id/depth */
export function fetchDepth(instrumentId: string, mode: AccountMode): Promise<DepthView> {
  return apiFetch(
    endpointUrl("/market/instruments/:id/depth", { id: instrumentId }, { mode, levels: 20 }),
  );
}

/** GET /api/v1/market/instruments/:id/trades, newest first. */
export function fetchTrades(instrumentId: string): Promise<TradeView[]> {
  return apiFetch(
    endpointUrl("/market/instruments/:id/trades", { id: instrumentId }, { limit: 30 }),
  );
}
