// Reference data: assets, markets and the price tape. Commands, views and events.

import type { NoValue } from "../types.ts";
import type { CommandBase } from "../types.ts";

/** Declares an asset. Assets cannot be redefined. */
export interface DefineAssetCommand extends CommandBase {
  type: "define_asset";
  /** e.g. "USDT", "BTC". 1–32 characters of A–Z, a–z, 0–9, '_', '-', '.'. */
  assetId: string;
  /** Decimals of the smallest unit, 0–18 (USDT 6, BTC 8). */
  scale: number;
  /** Largest amount any single command may move, in smallest units; null: no limit beyond sanity. */
  amountMax: bigint | null;
}

/**
 * Declares a spot market `base/quote`. Markets start closed (see `set_market_session`).
 * Prices are counted in ticks of `priceStep` and quantities in lots of `lotSize`; one lot at one
 * tick must be a whole number of the quote's smallest unit (`priceStep * lotSize * 10^quoteScale`
 * is an integer), so the notional of any order is exact and never rounded.
 */
export interface DefineMarketCommand extends CommandBase {
  type: "define_market";
  /** e.g. "BTC-USDT". Same character rules as asset ids. */
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  /** Instrument on the price tape whose last tick anchors the market-order band; null: marketId. */
  instrumentId: string | null;
  /** Price increment as a decimal string, quote per one whole base unit (e.g. "0.01"). */
  priceStep: string;
  /** Quantity increment as a decimal string of base (e.g. "0.0001"). */
  lotSize: string;
  /** Smallest order, in lots (≥ 1). */
  quantityLotsMin: number;
  /** Largest order, in lots. */
  quantityLotsMax: number;
  /** Maker fee in basis points of what the maker receives (0–1000). */
  feeBpsMaker: number;
  /** Taker fee in basis points of what the taker receives (0–1000). */
  feeBpsTaker: number;
  /** Market orders may trade at most this far from the last tick, in basis points (1–5000). */
  priceBandBps: number;
  /** Most price levels on one side of each book; null: `KernelOptions.levelsPerSideMax`. */
  levelsPerSideMax: number | null;
  /** Most resting orders in each book; null: `KernelOptions.ordersPerBookMax`. */
  ordersPerBookMax: number | null;
}

/**
 * Opens or closes a market for trading (both modes). Closing does not cancel resting orders; it
 * stops new orders and replacements. Cancels are always allowed.
 */
export interface SetMarketSessionCommand extends CommandBase {
  type: "set_market_session";
  marketId: string;
  open: boolean;
}

/**
 * Records a price tick on the public tape. Tick ids are unique per instrument, and a tick older
 * than the instrument's last one (`tickAtMs` earlier) is refused with `tick_out_of_order`.
 */
export interface RecordTickCommand extends CommandBase {
  type: "record_tick";
  tickId: string;
  instrumentId: string;
  /** Positive decimal string, up to 18 decimals. */
  price: string;
  /** When the price was observed (ms since epoch). */
  tickAtMs: number;
  /**
   * The print's size as the feed gave it (decimal string in the instrument's quantity units),
   * for the public trades every node shows; the kernel keeps only the price. Absent on ticks
   * journaled before it existed and on feeds without sizes.
   */
  quantity?: string | null;
}

/** An asset as declared. */
export interface AssetView {
  assetId: string;
  scale: number;
  amountMax: bigint | null;
}

/** A market as declared, with its session state and derived unit sizes. */
export interface MarketView {
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  instrumentId: string;
  priceStep: string;
  lotSize: string;
  /** Base smallest units in one lot. */
  lotUnits: bigint;
  /** Quote smallest units of one lot at one tick: notional = priceTicks × lots × this. */
  tickLotUnits: bigint;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number;
  ordersPerBookMax: number;
  open: boolean;
  /** Decimals of the base and quote assets. */
  baseScale: number;
  quoteScale: number;
}

/** A recorded price tick. */
export interface Tick {
  tickId: string;
  instrumentId: string;
  price: string;
  tickAtMs: number;
  /** Kernel time when it was recorded. */
  recordedAtMs: number;
}

export interface TickRecordedEvent {
  type: "tick_recorded";
  tick: Tick;
}

export interface AssetDefinedEvent {
  type: "asset_defined";
  asset: AssetView;
}

export interface MarketDefinedEvent {
  type: "market_defined";
  market: MarketView;
}

export interface MarketSessionChangedEvent {
  type: "market_session_changed";
  marketId: string;
  open: boolean;
}

declare module "../types.ts" {
  interface CommandMap {
    define_asset: DefineAssetCommand;
    define_market: DefineMarketCommand;
    set_market_session: SetMarketSessionCommand;
    record_tick: RecordTickCommand;
  }
  interface ResultMap {
    define_asset: NoValue;
    define_market: NoValue;
    set_market_session: NoValue;
    record_tick: NoValue;
  }
  interface EventMap {
    asset_defined: AssetDefinedEvent;
    market_defined: MarketDefinedEvent;
    market_session_changed: MarketSessionChangedEvent;
    tick_recorded: TickRecordedEvent;
  }
}
