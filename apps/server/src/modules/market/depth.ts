import type { AssetClass, Instrument } from "@candor/market";
import { roundToStep } from "@candor/decimal";
import { unitsOf } from "@candor/market";

/** One side of a book: [price, quantity] in the instrument's scales, best first. */
export type Levels = [bigint, bigint][];

/** Bids and asks of one book; `source` says whether an order book or a simulated ladder. */
export interface Depth {
  bids: Levels;
  asks: Levels;
  source: "order_book" | "simulated";
}

/**
 * Where depth comes from. The engine supplies real spot books (kernel `getDepth`); until then,
 * and for quote-driven instruments, a simulated ladder around the price.
 */
export interface DepthSource {
  depth(instrument: Instrument, mode: "real" | "demo", levels: number, price: bigint): Depth;
}

/** Disclosed quoted spread per class, basis points. */
const spreadBps: Record<AssetClass, bigint> = {
  crypto: 2n,
  stock: 5n,
  forex: 1n,
  metal: 3n,
  commodity: 4n,
};

/**
 * A ladder of quotes around `price`, deterministic in the price: the half-spread and the level
 * step are at least one tick, quantities a few lots growing away from the touch.
 */
export const simulatedDepth: DepthSource = {
  depth(instrument, _mode, levels, price) {
    const tick = instrument.tickSize;
    const halfSpread = maxOf(
      tick,
      roundToStep((price * spreadBps[instrument.assetClass]) / 20_000n, tick),
    );
    const step = maxOf(tick, roundToStep(price / 10_000n, tick));
    const dailyVolume = unitsOf(instrument.simulation.dailyVolume, instrument.quantityScale) ?? 0n;
    const lot = instrument.lotSize;
    const perLevel = maxOf(lot, dailyVolume / 20_000n - ((dailyVolume / 20_000n) % lot));
    const bids: Levels = [];
    const asks: Levels = [];
    const phase = (price / tick) % 5n;
    for (let k = 0n; k < BigInt(levels); k++) {
      const quantity = perLevel * (1n + k + ((phase + k) % 3n));
      const bid = roundToStep(price, tick) - halfSpread - k * step;
      if (bid > 0n) bids.push([bid, quantity]);
      asks.push([roundToStep(price, tick) + halfSpread + k * step, quantity]);
    }
    return { bids, asks, source: "simulated" };
  },
};

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
