import type {
  CandleView,
  DepthLevel,
  DepthView,
  InstrumentView,
  MarketStatusView,
  TickerView,
  TradeView,
} from "@candor/contract";
import {
  CandleAggregator,
  calendars,
  candleIntervals,
  findInstrument,
  instruments as catalogue,
  intervalMs,
  isMarketOpen,
  marketStatus,
  PriceSimulator,
  searchInstruments,
  TickerWindow,
  type AssetClass,
  type Candle,
  type CandleInterval,
  type FeedSource,
  type Instrument,
  type Tick,
} from "@candor/market";
import { simulatedDepth, type Depth, type DepthSource } from "./depth.ts";
import type { CandleRepository } from "./market.repository.ts";
import type { TapeSink } from "./tape-sink.ts";
import { candleView, instrumentView, levelView, tickerView, tradeView } from "./views.ts";

const minuteMs = 60_000;
const dayMs = 86_400_000;
const tradesKept = 200;
const depthLevelsStreamed = 20;

/** What the market service publishes to; the WebSocket hub implements it. */
export interface MarketPublisher {
  /** Whether anyone listens to a stream: nothing is built or serialised for nobody. */
  wants(stream: string): boolean;
  /** Sends one message to every subscriber of a stream (serialised once). */
  publish(stream: string, message: unknown): void;
}

export interface MarketServiceOptions {
  repository: CandleRepository;
  /** Seed of the price simulator: the same seed gives the same history. */
  seed?: number;
  /** Days of history the first start simulates (default 30). */
  backfillDays?: number;
  /** Time between two simulated ticks of one open instrument (default 1,000 ms). */
  tickIntervalMs?: number;
  tape?: TapeSink;
  depthSource?: DepthSource;
  instruments?: readonly Instrument[];
  /** Instruments priced by a real feed instead of the simulator. */
  sourceByInstrument?: ReadonlyMap<string, FeedSource>;
}

interface DepthState {
  sequence: number;
  bids: Map<bigint, bigint>;
  asks: Map<bigint, bigint>;
}

/**
 * Market data for every instrument: runs the simulator (backfill on start, then real time),
 * builds candles and tickers, keeps recent trades, sends every tick to the tape, and publishes
 * streams. Holds no money; prices come only from the feed.
 */
export class MarketService {
  private readonly repository: CandleRepository;
  private readonly instruments: readonly Instrument[];
  private readonly simulator: PriceSimulator;
  private readonly aggregator = new CandleAggregator();
  private readonly tickers = new TickerWindow();
  private readonly trades = new Map<string, { id: string; tick: Tick }[]>();
  private readonly lastPrice = new Map<string, bigint>();
  private readonly sessionOpen = new Map<string, boolean>();
  private readonly depthStates = new Map<string, DepthState>();
  private readonly depthSequences = new Map<string, number>();
  private readonly sources: ReadonlyMap<string, FeedSource>;
  private readonly backfillDays: number;
  private readonly tape: TapeSink | undefined;
  private readonly depthSource: DepthSource;
  /** Completed candles not yet written. */
  private pending: Candle[] = [];
  /** Candles being written by `flush`: still served from memory until the write is done. */
  private writing: Candle[] = [];
  private tradeSequence = 0;
  /** Set on shutdown: a running flush stops between chunks (see `stopWriting`). */
  private writingStopped = false;
  private publisher: MarketPublisher | undefined;

  constructor(options: MarketServiceOptions) {
    this.repository = options.repository;
    this.instruments = options.instruments ?? catalogue;
    this.backfillDays = options.backfillDays ?? 30;
    this.tape = options.tape;
    this.depthSource = options.depthSource ?? simulatedDepth;
    this.sources = options.sourceByInstrument ?? new Map();
    this.simulator = new PriceSimulator({
      seed: options.seed ?? 20_261_123,
      instruments: this.instruments,
      startMs: 0,
      tickIntervalMs: options.tickIntervalMs ?? 1_000,
    });
  }

  attachPublisher(publisher: MarketPublisher): void {
    this.publisher = publisher;
  }

  /**
   * Fills history up to `nowMs`: on the first start, `backfillDays` of simulated candles (5-minute
   * bars, the last day in 1-minute bars); after a restart, only the gap since the newest stored
   * candle, continuing from its close. The candles are written by the next `flush`; until
   * then `candles` serves them from memory.
   */
  async start(nowMs: number): Promise<void> {
    const minuteNow = Math.floor(nowMs / minuteMs) * minuteMs;
    let fromMs = minuteNow - this.backfillDays * dayMs;
    const latest = await this.repository.latest();
    const newestBar = new Map<string, Candle>();
    for (const candle of latest) {
      if (candle.interval !== "1m" && candle.interval !== "5m") continue;
      const known = newestBar.get(candle.instrumentId);
      if (!known || candle.openMs > known.openMs) newestBar.set(candle.instrumentId, candle);
    }
    for (const candle of newestBar.values()) {
      if (!this.has(candle.instrumentId)) continue;
      fromMs = Math.max(fromMs, candle.openMs + intervalMs[candle.interval]);
      this.simulator.resumeFrom(candle.instrumentId, candle.close);
      this.lastPrice.set(candle.instrumentId, candle.close);
    }
    fromMs = Math.min(fromMs, minuteNow);
    // Candles still open at the restart carry on rather than being overwritten.
    for (const candle of latest) {
      if (this.has(candle.instrumentId) && candle.openMs + intervalMs[candle.interval] > fromMs) {
        this.aggregator.restore(candle);
      }
    }
    for (const candle of await this.repository.since(minuteNow - dayMs)) {
      if (this.has(candle.instrumentId)) this.tickers.addCandle(candle);
    }

    const recentFromMs = Math.floor((minuteNow - dayMs) / (5 * minuteMs)) * 5 * minuteMs;
    const older =
      fromMs < recentFromMs
        ? this.simulator.backfill(fromMs, recentFromMs, { barInterval: "5m" })
        : [];
    const recent = this.simulator.backfill(Math.max(fromMs, recentFromMs), minuteNow);
    for (const bar of older.concat(recent)) {
      this.pending.push(...this.aggregator.addCandle(bar));
      if (bar.interval === "1m") this.tickers.addCandle(bar);
      this.lastPrice.set(bar.instrumentId, bar.close);
    }
    this.pending.push(...this.aggregator.closeBefore(minuteNow));
    // Keep the backfill small to write: 5-minute bars for the last week only (15-minute and
    // longer bars cover the whole history).
    const fiveMinuteFromMs = minuteNow - 7 * dayMs;
    this.pending = this.pending.filter((c) => c.interval !== "5m" || c.openMs >= fiveMinuteFromMs);
    for (const instrument of this.instruments) {
      const open = isMarketOpen(instrument, nowMs);
      this.sessionOpen.set(instrument.id, open);
      this.tape?.setSession(instrument, open, nowMs);
    }
  }

  /** Advances the simulator to `nowMs`: ticks for open markets, session changes, closed candles. */
  step(nowMs: number): Tick[] {
    for (const instrument of this.instruments) {
      const open = isMarketOpen(instrument, nowMs);
      if (open !== this.sessionOpen.get(instrument.id)) {
        this.sessionOpen.set(instrument.id, open);
        this.tape?.setSession(instrument, open, nowMs);
      }
    }
    const ticks = this.simulator
      .advanceTo(nowMs)
      .filter((t) => this.sourceOf(t.instrumentId) === "simulated");
    for (const tick of ticks) this.ingest(tick);
    this.pending.push(...this.aggregator.closeBefore(nowMs));
    return ticks;
  }

  /** Takes one tick from any feed: tape, candles, ticker, trades, streams. */
  ingest(tick: Tick): void {
    const instrument = findInstrument(tick.instrumentId);
    if (!instrument || !this.has(instrument.id)) return;
    this.tape?.recordTick(instrument, tick);
    this.pending.push(...this.aggregator.addTick(tick));
    this.tickers.addTick(tick);
    this.lastPrice.set(instrument.id, tick.price);
    const id = `${tick.source}-${++this.tradeSequence}`;
    let list = this.trades.get(instrument.id);
    if (!list) this.trades.set(instrument.id, (list = []));
    list.push({ id, tick });
    if (list.length > tradesKept) list.splice(0, list.length - tradesKept);
    this.publishTick(instrument, tick, id);
  }

  /** Writes completed candles and the ones still open (so a crash loses at most one flush). */
  async flush(): Promise<void> {
    const completed = this.pending;
    const batch = completed.concat(this.aggregator.currentAll());
    this.pending = [];
    this.writing = batch;
    const bySource = new Map<FeedSource, Candle[]>();
    for (const candle of batch) {
      const source = this.sourceOf(candle.instrumentId);
      let list = bySource.get(source);
      if (!list) bySource.set(source, (list = []));
      list.push(candle);
    }
    try {
      for (const [source, candles] of bySource) {
        await this.repository.upsert(candles, source, () => this.writingStopped);
      }
    } catch (error) {
      // Not written: keep them for the next flush (upserts make a repeat harmless).
      this.pending = completed.concat(this.pending);
      throw error;
    } finally {
      this.writing = [];
    }
  }

  /**
   * Shutdown: a flush in progress (the first start's backfill takes many seconds) stops
   * after its current chunk, and later flushes write nothing. What was not written is
   * derived data: the next start gap-fills from the newest stored bar.
   */
  stopWriting(): void {
    this.writingStopped = true;
  }

  // ---- queries ----

  instrument(id: string): Instrument | undefined {
    const instrument = findInstrument(id);
    return instrument && this.has(id) ? instrument : undefined;
  }

  listInstruments(query: {
    assetClass?: AssetClass;
    q?: string;
    limit?: number;
  }): InstrumentView[] {
    return searchInstruments(query.q ?? "", {
      assetClass: query.assetClass,
      limit: query.limit ?? 100,
      list: this.instruments,
    }).map((i) => instrumentView(i, this.sourceOf(i.id)));
  }

  instrumentView(instrument: Instrument): InstrumentView {
    return instrumentView(instrument, this.sourceOf(instrument.id));
  }

  ticker(instrument: Instrument, nowMs: number): TickerView | undefined {
    const stats = this.tickers.ticker(instrument.id, nowMs);
    if (!stats) return undefined;
    return tickerView(
      instrument,
      stats,
      isMarketOpen(instrument, nowMs),
      this.sourceOf(instrument.id),
    );
  }

  tickers24h(nowMs: number, assetClass?: AssetClass): TickerView[] {
    return this.instruments
      .filter((i) => !assetClass || i.assetClass === assetClass)
      .flatMap((i) => this.ticker(i, nowMs) ?? []);
  }

  status(instrument: Instrument, nowMs: number): MarketStatusView {
    const status = marketStatus(instrument, nowMs);
    const alternatives = status.open
      ? []
      : [
          ...this.instruments.filter((i) => i.assetClass === instrument.assetClass),
          ...this.instruments.filter((i) => i.assetClass === "crypto"),
        ]
          .filter((i) => i.id !== instrument.id && isMarketOpen(i, nowMs))
          .slice(0, 5)
          .map((i) => i.id);
    return {
      instrumentId: instrument.id,
      ...status,
      timeZone: calendars[instrument.calendarId].timeZone,
      openAlternatives: alternatives,
    };
  }

  async candles(
    instrument: Instrument,
    interval: CandleInterval,
    range: { fromMs?: number; toMs?: number; limit: number },
    nowMs: number,
  ): Promise<CandleView[]> {
    const fromMs = range.fromMs ?? 0;
    const toMs = range.toMs ?? nowMs + intervalMs[interval];
    const stored = await this.repository.range(instrument.id, interval, fromMs, toMs, range.limit);
    const byOpen = new Map(stored.map((c) => [c.openMs, c]));
    // Newer than the database: completed but not yet flushed, and the bar being built.
    const current = this.aggregator.current(instrument.id, interval);
    for (const list of [this.writing, this.pending, current ? [current] : []]) {
      for (const candle of list) {
        if (candle.instrumentId !== instrument.id || candle.interval !== interval) continue;
        if (candle.openMs >= fromMs && candle.openMs < toMs) byOpen.set(candle.openMs, candle);
      }
    }
    return [...byOpen.values()]
      .sort((a, b) => a.openMs - b.openMs)
      .slice(-range.limit)
      .map((c) => candleView(instrument, c, c.openMs + intervalMs[interval] <= nowMs));
  }

  recentTrades(instrument: Instrument, limit: number): TradeView[] {
    const list = this.trades.get(instrument.id) ?? [];
    return list
      .slice(-limit)
      .reverse()
      .map((t) => tradeView(instrument, t.id, t.tick));
  }

  depth(instrument: Instrument, mode: "real" | "demo", levels: number, nowMs: number): DepthView {
    const depth = this.rawDepth(instrument, mode, levels);
    const stream = `depth:${instrument.id}:${mode}`;
    return {
      instrumentId: instrument.id,
      mode,
      sequence: this.depthSequences.get(stream) ?? 0,
      bids: depth.bids.map(([p, q]) => levelView(instrument, p, q)),
      asks: depth.asks.map(([p, q]) => levelView(instrument, p, q)),
      atMs: nowMs,
      source: depth.source,
    };
  }

  /** The snapshot a new depth subscriber gets; later diffs follow its sequence. */
  depthSnapshot(instrument: Instrument, mode: "real" | "demo", nowMs: number): DepthView {
    const stream = `depth:${instrument.id}:${mode}`;
    const depth = this.rawDepth(instrument, mode, depthLevelsStreamed);
    const state = this.depthStates.get(stream) ?? {
      sequence: this.depthSequences.get(stream) ?? 0,
      bids: new Map(),
      asks: new Map(),
    };
    state.bids = new Map(depth.bids);
    state.asks = new Map(depth.asks);
    this.depthStates.set(stream, state);
    return this.depth(instrument, mode, depthLevelsStreamed, nowMs);
  }

  currentCandle(instrument: Instrument, interval: CandleInterval): CandleView | undefined {
    const candle = this.aggregator.current(instrument.id, interval);
    return candle && candleView(instrument, candle, false);
  }

  /** The last price of every instrument (tape or backfill), in its price scale. */
  lastPrices(): ReadonlyMap<string, bigint> {
    return this.lastPrice;
  }

  sourceOf(instrumentId: string): FeedSource {
    return this.sources.get(instrumentId) ?? "simulated";
  }

  private has(id: string): boolean {
    return this.instruments.some((i) => i.id === id);
  }

  private rawDepth(instrument: Instrument, mode: "real" | "demo", levels: number): Depth {
    const price = this.lastPrice.get(instrument.id) ?? this.simulator.price(instrument.id);
    return this.depthSource.depth(instrument, mode, levels, price);
  }

  private publishTick(instrument: Instrument, tick: Tick, tradeId: string): void {
    const publisher = this.publisher;
    if (!publisher) return;
    const tickerStream = `ticker:${instrument.id}`;
    if (publisher.wants(tickerStream)) {
      const data = this.ticker(instrument, tick.atMs);
      if (data) publisher.publish(tickerStream, { type: "ticker", stream: tickerStream, data });
    }
    const tradesStream = `trades:${instrument.id}`;
    if (publisher.wants(tradesStream)) {
      publisher.publish(tradesStream, {
        type: "trade",
        stream: tradesStream,
        data: tradeView(instrument, tradeId, tick),
      });
    }
    for (const interval of candleIntervals) {
      const stream = `candles:${instrument.id}:${interval}`;
      if (!publisher.wants(stream)) continue;
      const candle = this.aggregator.current(instrument.id, interval);
      if (!candle) continue;
      publisher.publish(stream, {
        type: "candle",
        stream,
        interval,
        instrumentId: instrument.id,
        data: candleView(instrument, candle, false),
      });
    }
    for (const mode of ["real", "demo"] as const)
      this.publishDepthDiff(instrument, mode, tick.atMs);
  }

  private publishDepthDiff(instrument: Instrument, mode: "real" | "demo", atMs: number): void {
    const stream = `depth:${instrument.id}:${mode}`;
    const state = this.depthStates.get(stream);
    if (!this.publisher?.wants(stream) || !state) {
      this.depthStates.delete(stream);
      return;
    }
    const depth = this.rawDepth(instrument, mode, depthLevelsStreamed);
    const bids = diffLevels(state.bids, new Map(depth.bids));
    const asks = diffLevels(state.asks, new Map(depth.asks));
    if (bids.length === 0 && asks.length === 0) return;
    const previousSequence = state.sequence;
    state.sequence += 1;
    this.depthSequences.set(stream, state.sequence);
    state.bids = new Map(depth.bids);
    state.asks = new Map(depth.asks);
    const level = ([p, q]: [bigint, bigint]): DepthLevel => levelView(instrument, p, q);
    this.publisher.publish(stream, {
      type: "depth_diff",
      stream,
      instrumentId: instrument.id,
      sequence: state.sequence,
      previousSequence,
      bids: bids.map(level),
      asks: asks.map(level),
      atMs,
    });
  }
}

/** Levels that changed from `before` to `after`; a removed level has quantity 0. */
function diffLevels(before: Map<bigint, bigint>, after: Map<bigint, bigint>): [bigint, bigint][] {
  const changes: [bigint, bigint][] = [];
  for (const [price, quantity] of after) {
    if (before.get(price) !== quantity) changes.push([price, quantity]);
  }
  for (const price of before.keys()) if (!after.has(price)) changes.push([price, 0n]);
  return changes;
}
