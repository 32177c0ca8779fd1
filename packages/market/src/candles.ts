import type { Tick } from "./feed.ts";

/** Chart intervals, shortest first. */
export const candleIntervals = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"] as const;
export type CandleInterval = (typeof candleIntervals)[number];

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** Length of each interval in ms. */
export const intervalMs: Record<CandleInterval, number> = {
  "1m": minuteMs,
  "5m": 5 * minuteMs,
  "15m": 15 * minuteMs,
  "1h": 60 * minuteMs,
  "4h": 240 * minuteMs,
  "1d": dayMs,
  "1w": 7 * dayMs,
};

/** 1970-01-01 was a Thursday; weeks start on Monday 00:00 UTC, four days later. */
const weekOffsetMs = 4 * dayMs;

/** Start of the candle of `interval` containing `atMs`. Days and weeks are UTC; weeks start Monday. */
export function candleOpenMs(interval: CandleInterval, atMs: number): number {
  const length = intervalMs[interval];
  const offset = interval === "1w" ? weekOffsetMs : 0;
  return Math.floor((atMs - offset) / length) * length + offset;
}

/** One OHLCV bar. Prices in 10^-priceScale units, volume in 10^-quantityScale base units. */
export interface Candle {
  instrumentId: string;
  interval: CandleInterval;
  /** Start of the bar, ms since the epoch. */
  openMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  /** Number of ticks (or trades) in the bar. */
  trades: number;
}

/**
 * Builds candles of every interval from ticks, or from 1-minute candles (the backfill).
 * `add*` and `closeBefore` return the candles that completed, each exactly once.
 */
export class CandleAggregator {
  /** Per instrument, the candle being built for each interval (same order as `intervals`). */
  private readonly open = new Map<string, (Candle | undefined)[]>();

  constructor(readonly intervals: readonly CandleInterval[] = candleIntervals) {}

  addTick(tick: Tick): Candle[] {
    return this.merge(tick.instrumentId, tick.atMs, {
      open: tick.price,
      high: tick.price,
      low: tick.price,
      close: tick.price,
      volume: tick.quantity,
      trades: 1,
    });
  }

  /**
   * Merges a completed candle (1m or 5m, from the backfill) into its own interval and every
   * longer one.
   */
  addCandle(candle: Candle): Candle[] {
    return this.merge(candle.instrumentId, candle.openMs, candle, intervalMs[candle.interval]);
  }

  /**
   * Puts back a candle still being built before a restart, so new prints extend it instead of
   * replacing it. Ignored for intervals this aggregator does not build.
   */
  restore(candle: Candle): void {
    const index = this.intervals.indexOf(candle.interval);
    if (index < 0) return;
    let slots = this.open.get(candle.instrumentId);
    if (!slots) {
      slots = this.intervals.map(() => undefined);
      this.open.set(candle.instrumentId, slots);
    }
    slots[index] = { ...candle };
  }

  /** Completes every open candle that ends at or before `atMs`. */
  closeBefore(atMs: number): Candle[] {
    const closed: Candle[] = [];
    for (const slots of this.open.values()) {
      slots.forEach((candle, i) => {
        if (candle && candle.openMs + intervalMs[candle.interval] <= atMs) {
          closed.push(candle);
          slots[i] = undefined;
        }
      });
    }
    return closed;
  }

  /** The candle still being built for an instrument and interval, if any. */
  current(instrumentId: string, interval: CandleInterval): Candle | undefined {
    const index = this.intervals.indexOf(interval);
    return this.open.get(instrumentId)?.[index];
  }

  /** Every candle still being built. */
  currentAll(): Candle[] {
    return [...this.open.values()].flatMap((slots) => slots.filter((c) => c !== undefined));
  }

  private merge(
    instrumentId: string,
    atMs: number,
    bar: Pick<Candle, "open" | "high" | "low" | "close" | "volume" | "trades">,
    barMs = 0,
  ): Candle[] {
    const closed: Candle[] = [];
    let slots = this.open.get(instrumentId);
    if (!slots) {
      slots = this.intervals.map(() => undefined);
      this.open.set(instrumentId, slots);
    }
    for (let i = 0; i < this.intervals.length; i++) {
      const interval = this.intervals[i]!;
      if (intervalMs[interval] < barMs) continue;
      const openMs = candleOpenMs(interval, atMs);
      let candle = slots[i];
      if (candle && candle.openMs !== openMs) {
        // A late print for an already completed bar is ignored rather than reopening it.
        if (openMs < candle.openMs) continue;
        closed.push(candle);
        candle = undefined;
      }
      if (!candle) {
        slots[i] = { instrumentId, interval, openMs, ...pickBar(bar) };
        continue;
      }
      if (bar.high > candle.high) candle.high = bar.high;
      if (bar.low < candle.low) candle.low = bar.low;
      candle.close = bar.close;
      candle.volume += bar.volume;
      candle.trades += bar.trades;
    }
    return closed;
  }
}

function pickBar(bar: Pick<Candle, "open" | "high" | "low" | "close" | "volume" | "trades">) {
  const { open, high, low, close, volume, trades } = bar;
  return { open, high, low, close, volume, trades };
}
