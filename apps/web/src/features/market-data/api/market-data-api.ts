import type { AssetClass, CandleInterval, DepthView, InstrumentView } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { marketDataEndpoints } from "./endpoints.ts";

/** Account mode of the books: real money or demo (simulated) money. */
export type AccountMode = DepthView["mode"];

/** The five asset classes in the order the tabs show them. */
export const assetClasses: readonly AssetClass[] = [
  "crypto",
  "stock",
  "forex",
  "metal",
  "commodity",
];

/** Filters of the instrument list: an asset class, a search text, a page size. */
export interface InstrumentsFilter {
  assetClass?: AssetClass;
  q?: string;
  limit?: number;
}

/** Every query key of market data; each list or view of the market API has one. */
export const marketDataKeys = {
  all: ["market-data"] as const,
  overview: () => [...marketDataKeys.all, "overview"] as const,
  instruments: (filter: InstrumentsFilter) =>
    [...marketDataKeys.all, "instruments", filter] as const,
  spotPairs: () => [...marketDataKeys.all, "spot-pairs"] as const,
  ticker: (instrumentId: string) => [...marketDataKeys.all, "ticker", instrumentId] as const,
  status: (instrumentId: string) => [...marketDataKeys.all, "status", instrumentId] as const,
  candles: (instrumentId: string, interval: CandleInterval) =>
    [...marketDataKeys.all, "candles", instrumentId, interval] as const,
  trades: (instrumentId: string) => [...marketDataKeys.all, "trades", instrumentId] as const,
};

/** GET /api/v1/market/instruments?assetClass=&q=&limit= */
export function fetchInstruments(filter: InstrumentsFilter): Promise<InstrumentView[]> {
  return callEndpoint(marketDataEndpoints.listInstrumentsEndpoint, { query: filter });
}

/** Spot pairs: the instruments that have an order book (crypto pairs). */
export async function fetchSpotPairs(): Promise<InstrumentView[]> {
  const list = await fetchInstruments({ assetClass: "crypto", limit: 100 });
  return list.filter((instrument) => instrument.products.includes("spot"));
}
