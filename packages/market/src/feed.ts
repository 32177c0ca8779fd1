/** Where a price came from. The API and UI label "simulated" prices as simulated. */
export const feedSources = ["simulated", "binance"] as const;
export type FeedSource = (typeof feedSources)[number];

/**
 * One price observation: a trade print or a simulated tick. `price` is in 10^-priceScale quote
 * units of the instrument, `quantity` in 10^-quantityScale base units.
 */
export interface Tick {
  instrumentId: string;
  atMs: number;
  price: bigint;
  quantity: bigint;
  source: FeedSource;
}

/**
 * A source of ticks for some instruments: the simulator or a real exchange's stream. The
 * server asks each configured feed for ticks and records them on the tape.
 */
export interface PriceFeed {
  readonly source: FeedSource;
  /** The instrument ids this feed prices. */
  readonly instrumentIds: readonly string[];
  /** Ticks as they arrive; ends when the feed is closed. */
  ticks(): AsyncIterable<Tick>;
  close(): Promise<void>;
}
