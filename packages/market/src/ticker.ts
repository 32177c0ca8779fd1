import { changeBps } from "@candor/decimal";
import type { Candle } from "./candles.ts";
import type { Tick } from "./feed.ts";

const minuteMs = 60_000;

/** Rolling statistics of one instrument. Prices in 10^-priceScale units. */
export interface TickerStats {
  instrumentId: string;
  last: bigint;
  /** Price at the start of the window (first print in the last 24 h). */
  open: bigint;
  high: bigint;
  low: bigint;
  /** Base quantity traded in the window, in 10^-quantityScale units. */
  volume: bigint;
  /** Change from `open` to `last`, in basis points, rounded toward zero. */
  changeBps: bigint;
  /** Time of the last print. */
  lastAtMs: number;
}

interface Bucket {
  minuteMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/**
 * 24-hour (by default) rolling tickers, kept as one bucket per minute per instrument, so
 * memory is bounded (1,440 buckets) however many ticks arrive.
 */
export class TickerWindow {
  private readonly buckets = new Map<string, Bucket[]>();
  private readonly lastAt = new Map<string, number>();

  constructor(readonly windowMs = 86_400_000) {}

  addTick(tick: Tick): void {
    this.add(tick.instrumentId, tick.atMs, {
      open: tick.price,
      high: tick.price,
      low: tick.price,
      close: tick.price,
      volume: tick.quantity,
    });
  }

  /** Adds a 1-minute candle (backfill). */
  addCandle(candle: Candle): void {
    this.add(candle.instrumentId, candle.openMs, candle);
  }

  /** Ticker at `atMs`, or undefined for an instrument never priced. Old buckets are dropped. */
  ticker(instrumentId: string, atMs: number): TickerStats | undefined {
    const list = this.buckets.get(instrumentId);
    if (!list || list.length === 0) return undefined;
    this.prune(list, atMs);
    const last = list[list.length - 1];
    if (!last) return undefined;
    if (list.length === 0) return undefined;
    const first = list[0]!;
    let high = first.high;
    let low = first.low;
    let volume = 0n;
    for (const b of list) {
      if (b.high > high) high = b.high;
      if (b.low < low) low = b.low;
      volume += b.volume;
    }
    return {
      instrumentId,
      last: last.close,
      open: first.open,
      high,
      low,
      volume,
      changeBps: changeBps(first.open, last.close),
      lastAtMs: this.lastAt.get(instrumentId) ?? last.minuteMs,
    };
  }

  private add(id: string, atMs: number, bar: Omit<Bucket, "minuteMs">): void {
    const minute = Math.floor(atMs / minuteMs) * minuteMs;
    let list = this.buckets.get(id);
    if (!list) {
      list = [];
      this.buckets.set(id, list);
    }
    const last = list[list.length - 1];
    if (last && last.minuteMs === minute) {
      if (bar.high > last.high) last.high = bar.high;
      if (bar.low < last.low) last.low = bar.low;
      last.close = bar.close;
      last.volume += bar.volume;
    } else if (!last || last.minuteMs < minute) {
      list.push({ minuteMs: minute, ...bar });
    } else {
      return; // Out of order: ignored, the window only moves forward.
    }
    this.lastAt.set(id, Math.max(this.lastAt.get(id) ?? 0, atMs));
    this.prune(list, atMs);
  }

  private prune(list: Bucket[], atMs: number): void {
    const oldest = atMs - this.windowMs;
    let drop = 0;
    // Keep at least the newest bucket so a closed market still shows its last price.
    while (drop < list.length - 1 && list[drop]!.minuteMs + minuteMs <= oldest) drop++;
    if (drop > 0) list.splice(0, drop);
  }
}
