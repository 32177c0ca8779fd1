import {
  CandleAggregator,
  intervalMs,
  PriceSimulator,
  type Candle,
  type CandleInterval,
  type Instrument,
} from "@candor/market";
import type { HistoryAnchor } from "./market.repository.ts";

const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * Instruments whose computed history the cache keeps: ~240 bytes a candle, up to ~1.7 MB for a
 * 24/7 instrument at 30 days (docs/benchmarks.md).
 */
export const historyCacheInstruments = 8;

/**
 * The simulator's bars of one instrument over [fromMs, toMs): 5-minute bars until a day
 * before `layoutNowMs`, 1-minute bars after. Advances `simulator` (its random stream).
 */
export function simulatedBars(
  simulator: PriceSimulator,
  instrumentId: string,
  fromMs: number,
  toMs: number,
  layoutNowMs: number,
): Candle[] {
  const recentFromMs = Math.floor((layoutNowMs - dayMs) / (5 * minuteMs)) * 5 * minuteMs;
  const bars =
    fromMs < recentFromMs
      ? simulator.backfill(fromMs, Math.min(recentFromMs, toMs), {
          barInterval: "5m",
          instrumentId,
        })
      : [];
  if (toMs > recentFromMs) {
    for (const bar of simulator.backfill(Math.max(fromMs, recentFromMs), toMs, { instrumentId })) {
      bars.push(bar);
    }
  }
  return bars;
}

/** Whether a candle is kept: 5-minute bars only for the last week before `nowMs` (the rest are 15m and longer). */
export function keptCandle(candle: Candle, nowMs: number): boolean {
  return candle.interval !== "5m" || candle.openMs >= nowMs - 7 * dayMs;
}

/**
 * The simulated history before the live tape, computed on demand (issue 15): a pure function of
 * the seed, the instrument and the anchor, so nothing of it is stored. Candles of every interval
 * that end at or before `liveStartMs`; the ones still open then belong to the live tape (the
 * market service builds and stores them). A bounded LRU cache keeps the last
 * `cacheInstruments` instruments' candles.
 */
export class SimulatedHistory {
  private readonly cache = new Map<string, Map<CandleInterval, Candle[]>>();
  private readonly byId: ReadonlyMap<string, Instrument>;
  /** Instruments computed so far (a cache miss each), for tests and benchmarks. */
  computed = 0;

  constructor(
    private readonly options: {
      seed: number;
      instruments: readonly Instrument[];
      anchor: HistoryAnchor;
      cacheInstruments?: number;
    },
  ) {
    this.byId = new Map(options.instruments.map((i) => [i.id, i]));
  }

  get anchor(): HistoryAnchor {
    return this.options.anchor;
  }

  /** Instruments in the cache, least recently used first. */
  cached(): string[] {
    return [...this.cache.keys()];
  }

  /** Computed candles with fromMs ≤ openMs < toMs, oldest first, the newest `limit`. */
  candles(
    instrumentId: string,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
    limit: number,
  ): Candle[] {
    const { fromMs: historyFromMs, liveStartMs } = this.options.anchor;
    if (fromMs >= liveStartMs || historyFromMs >= liveStartMs || limit <= 0) return [];
    if (!this.byId.has(instrumentId)) return [];
    const list = this.of(instrumentId).get(interval) ?? [];
    let end = lowerBound(list, toMs);
    const start = Math.max(lowerBound(list, fromMs), end - limit);
    if (end < start) end = start;
    return list.slice(start, end);
  }

  private of(instrumentId: string): Map<CandleInterval, Candle[]> {
    const hit = this.cache.get(instrumentId);
    if (hit) {
      this.cache.delete(instrumentId);
      this.cache.set(instrumentId, hit);
      return hit;
    }
    const computed = this.compute(instrumentId);
    this.cache.set(instrumentId, computed);
    const max = this.options.cacheInstruments ?? historyCacheInstruments;
    while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    return computed;
  }

  private compute(instrumentId: string): Map<CandleInterval, Candle[]> {
    this.computed += 1;
    const { fromMs, liveStartMs } = this.options.anchor;
    // One instrument's own random stream (seed × id): the same path as in the full simulator.
    const simulator = new PriceSimulator({
      seed: this.options.seed,
      instruments: [this.byId.get(instrumentId)!],
      startMs: 0,
    });
    const aggregator = new CandleAggregator();
    const byInterval = new Map<CandleInterval, Candle[]>();
    const keep = (candle: Candle) => {
      if (!keptCandle(candle, liveStartMs)) return;
      let list = byInterval.get(candle.interval);
      if (!list) byInterval.set(candle.interval, (list = []));
      list.push(candle);
    };
    for (const bar of simulatedBars(simulator, instrumentId, fromMs, liveStartMs, liveStartMs)) {
      for (const candle of aggregator.addCandle(bar)) keep(candle);
    }
    for (const candle of aggregator.closeBefore(liveStartMs)) keep(candle);
    for (const list of byInterval.values()) {
      list.sort((a, b) => a.openMs - b.openMs);
      // Only candles that closed before the live start: the open ones are the live tape's.
      while (
        list.length > 0 &&
        list.at(-1)!.openMs + intervalMs[list.at(-1)!.interval] > liveStartMs
      ) {
        list.pop();
      }
    }
    return byInterval;
  }
}

/** First index whose candle opens at or after `atMs`. */
function lowerBound(list: readonly Candle[], atMs: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]!.openMs < atMs) low = mid + 1;
    else high = mid;
  }
  return low;
}
