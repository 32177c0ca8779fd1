import type { AssetClass } from "./asset-class.ts";
import { instruments as catalogue, type Instrument } from "./instruments.ts";

/**
 * Instruments matching a free-text query on id, symbol, base asset and names, best first:
 * exact matches, then prefixes, then substrings; catalogue order breaks ties.
 */
export function searchInstruments(
  query: string,
  options: { assetClass?: AssetClass; limit?: number; list?: readonly Instrument[] } = {},
): Instrument[] {
  const list = options.list ?? catalogue;
  const needle = query.trim().toLowerCase();
  const scored: { instrument: Instrument; score: number; order: number }[] = [];
  list.forEach((instrument, order) => {
    if (options.assetClass && instrument.assetClass !== options.assetClass) return;
    if (needle === "") {
      scored.push({ instrument, score: 0, order });
      return;
    }
    const fields = [
      instrument.id,
      instrument.symbol,
      instrument.base.symbol,
      instrument.names.en,
      instrument.names["zh-Hant"],
    ].map((f) => f.toLowerCase());
    let score = -1;
    for (const field of fields) {
      if (field === needle) score = Math.max(score, 3);
      else if (field.startsWith(needle)) score = Math.max(score, 2);
      else if (field.includes(needle)) score = Math.max(score, 1);
    }
    if (score >= 0) scored.push({ instrument, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, options.limit ?? 50).map((s) => s.instrument);
}
