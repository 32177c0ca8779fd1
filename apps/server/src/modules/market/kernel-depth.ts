import { getDepth, type KernelState } from "@candor/kernel";
import type { Instrument } from "@candor/market";
import { simulatedDepth, type DepthSource } from "./depth.ts";

/**
 * Depth of the real spot books (kernel `getDepth`) for instruments that have one; everything
 * else (stocks, FX, metals, commodities: quote-driven) keeps the simulated ladder. Kernel ticks
 * and lots convert exactly: the spot market's price step and lot size are the instrument's.
 */
export function kernelDepthSource(
  query: <T>(fn: (state: KernelState) => T) => T,
  marketIdByInstrument: ReadonlyMap<string, string>,
): DepthSource {
  return {
    depth(instrument: Instrument, mode, levels, price) {
      const marketId = marketIdByInstrument.get(instrument.id);
      if (!marketId) return simulatedDepth.depth(instrument, mode, levels, price);
      const depth = query((state) => getDepth(state, marketId, mode, levels));
      const convert = (l: { priceTicks: number; quantityLots: number }): [bigint, bigint] => [
        BigInt(l.priceTicks) * instrument.tickSize,
        BigInt(l.quantityLots) * instrument.lotSize,
      ];
      return {
        bids: (depth?.bids ?? []).map(convert),
        asks: (depth?.asks ?? []).map(convert),
        source: "order_book",
      };
    },
  };
}
