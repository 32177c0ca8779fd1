// The reference data's slice of kernel state: assets, markets and the last tick of each
// instrument on the price tape.

import type { OrderBook } from "../book/types.ts";
import type { Tick } from "./types.ts";

export interface AssetState {
  assetId: string;
  scale: number;
  amountMax: bigint | null;
}

export interface MarketState {
  marketId: string;
  base: AssetState;
  quote: AssetState;
  instrumentId: string;
  priceStep: string;
  lotSize: string;
  priceStepScaled: bigint;
  lotUnits: bigint;
  tickLotUnits: bigint;
  /** The same as doubles for the exact fast path, or +Infinity when too large. */
  lotUnitsNumber: number;
  tickLotUnitsNumber: number;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number;
  ordersPerBookMax: number;
  open: boolean;
  /** The market's two books (spot trades on them), made by the kernel's book factory. */
  bookReal: OrderBook;
  bookDemo: OrderBook;
  /** Band edges from the last tick; 0 when no tick has been recorded yet. */
  bandBuyMaxTicks: number;
  bandSellMinTicks: number;
  /** Latest tick id of the instrument, or null. */
  tickId: string | null;
}

/** The reference data's slice: `state.reference`. */
export interface ReferenceState {
  assets: Map<string, AssetState>;
  markets: Map<string, MarketState>;
  /** Markets anchored to each instrument of the tape. */
  marketsByInstrument: Map<string, MarketState[]>;
  /** The last tick of each instrument. */
  ticks: Map<string, Tick>;
}

export function createReferenceState(): ReferenceState {
  return {
    assets: new Map(),
    markets: new Map(),
    marketsByInstrument: new Map(),
    ticks: new Map(),
  };
}
