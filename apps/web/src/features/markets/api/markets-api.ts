import type { AssetClass, InstrumentView } from "@candor/contract";
import { apiFetch, endpointUrl } from "../../../lib/api-client.ts";

/** The five asset classes in the order the tabs show them. */
export const assetClasses: readonly AssetClass[] = [
  "crypto",
  "stock",
  "forex",
  "metal",
  "commodity",
];

/**
 * GET /api/v1/market/instruments?assetClass=&q=&limit= (contract: market.ts). Accepts a bare
 * list or a page `{ items }` while the market endpoints settle.
 */
export async function fetchInstruments(input: {
  assetClass?: AssetClass;
  q?: string;
  limit?: number;
}): Promise<InstrumentView[]> {
  const path = endpointUrl("/market/instruments", {}, input);
  const data = await apiFetch<InstrumentView[] | { items: InstrumentView[] }>(path);
  return Array.isArray(data) ? data : data.items;
}
