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
import { keptCandle, simulatedBars, SimulatedHistory } from "./simulated-history.ts";
import type { TapeSink } from "./tape-sink.ts";
import { candleView, instrumentView, levelView, tickerView, tradeView } from "./views.ts";

const minuteMs = 60_000;
const dayMs = 86_400_000;
const tradesKept = 200;
/** Candles per write of a long backlog (see `flush`). */
const flushSliceCandles = 5_000;
const depthLevelsStreamed = 20;

/** A `ticker` message (`WsTicker` in the contract). */
export interface WsTickerMessage {
  type: "ticker";
  stream: string;
  /** Journal sequence of the last recorded tick it reflects (tape mode, when known). */
  sequence?: number;
  data: TickerView;
}

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
  /**
   * Days of simulated history before the first start (default 30): computed on demand, not
   * stored; read once, by the first start (the anchor it stores fixes the history).
   */
  backfillDays?: number;
  /** Instruments whose computed history is cached (default `historyCacheInstruments`). */
  historyCacheInstruments?: number;
  /** Time between two simulated ticks of one open instrument (default 1,000 ms). */
  tickIntervalMs?: number;
  tape?: TapeSink;
  depthSource?: DepthSource;
  instruments?: readonly Instrument[];
  /** Instruments priced by a real feed instead of the simulator. */
  sourceByInstrument?: ReadonlyMap<string, FeedSource>;
  /**
   * Public trades come from the journaled tape (`recordTrade`, with the journal sequence of
   * each `record_tick`) rather than from `ingest`: set when the module runs with a kernel.
   */
  tradesFromTape?: boolean;
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
  private readonly seed: number;
  private readonly historyCacheInstruments: number | undefined;
  /** The computed history before the live start; set by `start`. */
  private history: SimulatedHistory | undefined;
  private readonly tape: TapeSink | undefined;
  private readonly depthSource: DepthSource;
  /** Completed candles not yet written. */
  private pending: Candle[] = [];
  /** Candles being written by `flush`: still served from memory until the write is done. */
  private writing: Candle[] = [];
  private tradeSequence = 0;
  private readonly tradesFromTape: boolean;
  /** The sequence of the last public trade of each instrument (the next one's `previousSequence`). */
  private readonly lastTradeSequence = new Map<string, number>();
  /**
   * Tape mode: trades of instruments whose previous trade's sequence is still being looked up
   * at start (`awaitPreviousTrades`), in journal order, published once it is known.
   */
  private readonly awaitingPrevious = new Map<string, { sequence: number; data: TradeView }[]>();
  /** Tape mode: the journal sequence of the last recorded tick each instrument's ticker shows. */
  private readonly tickerSequence = new Map<string, number>();
  /** Set on shutdown: a running flush stops between chunks (see `stopWriting`). */
  private writingStopped = false;
  private publisher: MarketPublisher | undefined;

  constructor(options: MarketServiceOptions) {
    this.repository = options.repository;
    this.instruments = options.instruments ?? catalogue;
    this.backfillDays = options.backfillDays ?? 30;
    this.seed = options.seed ?? 20_261_123;
    this.historyCacheInstruments = options.historyCacheInstruments;
    this.tape = options.tape;
    this.depthSource = options.depthSource ?? simulatedDepth;
    this.sources = options.sourceByInstrument ?? new Map();
    this.tradesFromTape = options.tradesFromTape ?? false;
    this.simulator = new PriceSimulator({
      seed: this.seed,
      instruments: this.instruments,
      startMs: 0,
      tickIntervalMs: options.tickIntervalMs ?? 1_000,
    });
  }

  attachPublisher(publisher: MarketPublisher): void {
    this.publisher = publisher;
  }

  /**
   * Fills history up to `nowMs`. The first start stores the history anchor (migration 0035:
   * `backfillDays` before its minute, up to that minute) and simulates that history only to
   * reach the live price: those candles are computed again on demand (`candles`), not
   * written (issue 15); the candles still open at the first start's minute are the live tape's
   * and are written. After a restart, only the gap since the newest stored candle is simulated
   * and written, continuing from its close.
   */
  async start(nowMs: number): Promise<void> {
    const minuteNow = Math.floor(nowMs / minuteMs) * minuteMs;
    const latest = await this.repository.latest();
    const anchor =
      (await this.repository.historyAnchor()) ??
      (await this.repository.saveHistoryAnchor(
        latest.length > 0
          ? // A data folder that stored its history before 0035: nothing is computed.
            { fromMs: 0, liveStartMs: 0 }
          : { fromMs: minuteNow - this.backfillDays * dayMs, liveStartMs: minuteNow },
      ));
    this.history = new SimulatedHistory({
      seed: this.seed,
      instruments: this.instruments,
      anchor,
      cacheInstruments: this.historyCacheInstruments,
    });
    let fromMs = Math.max(minuteNow - this.backfillDays * dayMs, anchor.liveStartMs);
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
    const hasHistory = anchor.fromMs < anchor.liveStartMs;
    const tickerFromMs = minuteNow - dayMs;
    if (hasHistory && anchor.liveStartMs > tickerFromMs) {
      // The last day's computed 1m candles (before the live start) refill the 24 h tickers.
      for (const instrument of this.instruments) {
        if (!newestBar.has(instrument.id)) continue;
        for (const candle of this.history.candles(
          instrument.id,
          "1m",
          tickerFromMs,
          anchor.liveStartMs,
          1_440,
        )) {
          this.tickers.addCandle(candle);
        }
      }
    }
    for (const candle of await this.repository.since(tickerFromMs)) {
      if (this.has(candle.instrumentId)) this.tickers.addCandle(candle);
    }

    // Stored: candles that end after the live start (the computed ones end at or before it).
    const isLive = (candle: Candle) =>
      candle.openMs + intervalMs[candle.interval] > anchor.liveStartMs &&
      keptCandle(candle, minuteNow);
    // One instrument at a time (each has its own random stream, so the candles are the same as
    // simulating all at once): only one instrument's raw bars are alive at a time, and the
    // event loop answers requests between instruments.
    for (const instrument of this.instruments) {
      const instrumentId = instrument.id;
      // No stored bar (a first start): simulate the computed history to reach the live price.
      // Those candles end before the live start, are computed again on demand and not kept;
      // the ones still open at the live start stay in the aggregator (the live tape's).
      const bars =
        hasHistory && !newestBar.has(instrumentId)
          ? simulatedBars(
              this.simulator,
              instrumentId,
              anchor.fromMs,
              anchor.liveStartMs,
              anchor.liveStartMs,
            )
          : [];
      const computedBars = bars.length;
      // The gap since the newest stored bar (none on a first start): simulated and stored.
      for (const bar of simulatedBars(this.simulator, instrumentId, fromMs, minuteNow, minuteNow)) {
        bars.push(bar);
      }
      bars.forEach((bar, index) => {
        for (const candle of this.aggregator.addCandle(bar)) {
          if (index >= computedBars && isLive(candle)) this.pending.push(candle);
        }
        if (bar.interval === "1m") this.tickers.addCandle(bar);
        this.lastPrice.set(bar.instrumentId, bar.close);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const candle of this.aggregator.closeBefore(minuteNow)) {
      if (isLive(candle)) this.pending.push(candle);
    }
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

  /**
   * Takes one tick from any feed: tape, candles, ticker, trades, streams. In tape mode
   * (`tradesFromTape`) the ticker and the trade wait for the tick's record (`recordTrade`), so
   * they carry its journal sequence.
   */
  ingest(tick: Tick): void {
    const instrument = findInstrument(tick.instrumentId);
    if (!instrument || !this.has(instrument.id)) return;
    this.tape?.recordTick(instrument, tick);
    this.pending.push(...this.aggregator.addTick(tick));
    if (!this.tradesFromTape) this.tickers.addTick(tick);
    this.lastPrice.set(instrument.id, tick.price);
    this.publishTick(instrument, tick);
    if (!this.tradesFromTape) {
      // No journal: a per-instrument count of this process's prints is the trade sequence.
      const sequence = (this.lastTradeSequence.get(instrument.id) ?? 0) + 1;
      this.addTrade(instrument, tick, `${tick.source}-${++this.tradeSequence}`, sequence);
    }
  }

  /**
   * A print recorded on the journaled tape (`tradesFromTape`): `sequence` is the journal
   * sequence of its `record_tick`, `id` the tape's tick id, so every node that applies the
   * record sends the same trade, and the same ticker, with the same sequence.
   */
  recordTrade(tick: Tick, id: string, sequence: number): void {
    const instrument = findInstrument(tick.instrumentId);
    if (!instrument || !this.has(instrument.id)) return;
    this.tickers.addTick(tick);
    this.tickerSequence.set(instrument.id, sequence);
    this.publishTicker(instrument, tick.atMs);
    this.addTrade(instrument, tick, id, sequence);
  }

  /**
   * Tape mode, at start (before any record reaches `recordTrade`): `known` is the journal
   * sequence of each instrument's last recorded tick, the `previousSequence` of its first
   * trade here; the instruments in `pending` have one that is still being looked up: their
   * trades wait, in order, until `resolvePreviousTrade` gives it, so none goes out unlinked.
   */
  awaitPreviousTrades(known: ReadonlyMap<string, number>, pending: Iterable<string>): void {
    for (const [instrumentId, sequence] of known) this.resolvePreviousTrade(instrumentId, sequence);
    for (const instrumentId of pending) {
      if (this.lastTradeSequence.has(instrumentId) || this.awaitingPrevious.has(instrumentId)) {
        continue;
      }
      this.awaitingPrevious.set(instrumentId, []);
    }
  }

  /**
   * The journal sequence of the instrument's last tick recorded before this node's first
   * trade of it (null: unknown, the first trade then has `previousSequence: null`). Publishes
   * the trades that waited for it, linked; a no-op once the instrument has a trade here.
   */
  resolvePreviousTrade(instrumentId: string, sequence: number | null): void {
    const waiting = this.awaitingPrevious.get(instrumentId);
    if (!waiting && this.lastTradeSequence.has(instrumentId)) return;
    this.awaitingPrevious.delete(instrumentId);
    let previous = sequence;
    if (previous !== null && !this.tickerSequence.has(instrumentId)) {
      this.tickerSequence.set(instrumentId, previous);
    }
    const stream = `trades:${instrumentId}`;
    for (const trade of waiting ?? []) {
      if (this.publisher?.wants(stream)) {
        this.publisher.publish(stream, {
          type: "trade",
          stream,
          sequence: trade.sequence,
          previousSequence: previous,
          data: trade.data,
        });
      }
      previous = trade.sequence;
    }
    if (previous !== null) this.lastTradeSequence.set(instrumentId, previous);
  }

  private addTrade(instrument: Instrument, tick: Tick, id: string, sequence: number): void {
    let list = this.trades.get(instrument.id);
    if (!list) this.trades.set(instrument.id, (list = []));
    list.push({ id, tick });
    if (list.length > tradesKept) list.splice(0, list.length - tradesKept);
    const waiting = this.awaitingPrevious.get(instrument.id);
    if (waiting) {
      // Bounded: a lookup that takes this long gives up, and the trades go out from here.
      if (waiting.length < tradesKept) {
        waiting.push({ sequence, data: tradeView(instrument, id, tick) });
        return;
      }
      this.resolvePreviousTrade(instrument.id, null);
    }
    const previousSequence = this.lastTradeSequence.get(instrument.id) ?? null;
    this.lastTradeSequence.set(instrument.id, sequence);
    const stream = `trades:${instrument.id}`;
    if (this.publisher?.wants(stream)) {
      this.publisher.publish(stream, {
        type: "trade",
        stream,
        sequence,
        previousSequence,
        data: tradeView(instrument, id, tick),
      });
    }
  }

  /**
   * The ticker message of an instrument (the WebSocket's `ticker`), or undefined before its
   * first tick. In tape mode it carries the journal sequence of the last recorded tick it
   * reflects, when known, so a client can drop one older than what it shows.
   */
  tickerMessage(instrument: Instrument, nowMs: number): WsTickerMessage | undefined {
    const data = this.ticker(instrument, nowMs);
    if (!data) return undefined;
    const stream = `ticker:${instrument.id}`;
    const sequence = this.tickerSequence.get(instrument.id);
    return sequence === undefined
      ? { type: "ticker", stream, data }
      : { type: "ticker", stream, sequence, data };
  }

  /**
   * Writes completed candles and the ones still open (so a crash loses at most one flush).
   * A long backlog (the first start's backfill, ~180,000 candles) is written a slice at a
   * time, each slice leaving memory once written, instead of as one batch (issue 15).
   */
  async flush(): Promise<void> {
    while (this.pending.length > flushSliceCandles && !this.writingStopped) {
      const slice = this.pending.splice(0, flushSliceCandles);
      await this.write(slice, slice);
    }
    const completed = this.pending;
    this.pending = [];
    await this.write(completed.concat(this.aggregator.currentAll()), completed);
  }

  /** Writes `batch` (served from `writing` meanwhile); on failure `completed` goes back to pending. */
  private async write(batch: Candle[], completed: Candle[]): Promise<void> {
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
    // Before the live start: computed from the seeded simulator (candles that closed by then);
    // from it on: the stored live candles, which win on a (never expected) overlap.
    const computed =
      this.history?.candles(instrument.id, interval, fromMs, toMs, range.limit) ?? [];
    const byOpen = new Map(computed.map((c) => [c.openMs, c]));
    for (const candle of stored) byOpen.set(candle.openMs, candle);
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

  /**
   * Low and high of the computed history's candles of one interval opened at or after `fromMs`
   * (before the live start), or null: what stored candles alone no longer cover (stock detail).
   */
  computedRange(
    instrumentId: string,
    interval: CandleInterval,
    fromMs: number,
  ): { low: bigint; high: bigint } | null {
    const history = this.history;
    if (!history) return null;
    const list = history.candles(instrumentId, interval, fromMs, history.anchor.liveStartMs, 1e9);
    if (list.length === 0) return null;
    let low = list[0]!.low;
    let high = list[0]!.high;
    for (const c of list) {
      if (c.low < low) low = c.low;
      if (c.high > high) high = c.high;
    }
    return { low, high };
  }

  /** The computed history before the live start (after `start`). */
  simulatedHistory(): SimulatedHistory | undefined {
    return this.history;
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

  private publishTick(instrument: Instrument, tick: Tick): void {
    const publisher = this.publisher;
    if (!publisher) return;
    // In tape mode the ticker goes out with the tick's record (`recordTrade`).
    if (!this.tradesFromTape) this.publishTicker(instrument, tick.atMs);
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

  private publishTicker(instrument: Instrument, atMs: number): void {
    const stream = `ticker:${instrument.id}`;
    if (!this.publisher?.wants(stream)) return;
    const message = this.tickerMessage(instrument, atMs);
    if (message) this.publisher.publish(stream, message);
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
