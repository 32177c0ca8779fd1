import type { Channel } from "@candor/contract";
import { getBalances, systemOwners, type Command } from "@candor/kernel";
import {
  instruments as catalogue,
  type FeedSource,
  type Instrument,
  type Tick,
  unitsOf,
} from "@candor/market";
import type { Database } from "../../db/database.ts";
import {
  demoFundingCommands,
  MarketMaker,
  type KernelGateway,
} from "../market-maker/market-maker.service.ts";
import { spotInstruments, spotMarketId, spotSetupCommands } from "./spot-markets.ts";
import { BinanceFeed } from "./binance-feed.ts";
import { kernelDepthSource } from "./kernel-depth.ts";
import { KernelTapeSink } from "./kernel-tape-sink.ts";
import { sqlCandleRepository } from "./market.repository.ts";
import { MarketService, type MarketServiceOptions } from "./market.service.ts";
import { linkPreviousTrades } from "./previous-trades.ts";
import type { JournalLogger } from "../../journal/journal.ts";
import { WsHub, type WsIdentity } from "./ws-hub.ts";

/** The market module as the app uses it: the service, the hub and a clock to drive them. */
export interface MarketModule {
  service: MarketService;
  hub: WsHub;
  /** The market maker, when the module runs with a kernel. */
  marketMaker: MarketMaker | undefined;
  /** The engine, when the module runs with one. */
  kernel: KernelGateway | undefined;
  /** Whether WebSocket `auth` tokens have a checker already (else the app's sessions are used). */
  hasAuthenticate: boolean;
  /**
   * Fills market history up to now (`MarketService.start`), once; created with
   * `deferHistory`, the caller runs it after the server listens. Candles are written by the
   * clock's first flush, in the background.
   */
  startHistory(): Promise<void>;
  /**
   * Settles once every instrument's first public trade after this start can link to the trade
   * before it (`linkPreviousTrades`): at once without a kernel.
   */
  previousTradesLinked: Promise<void>;
  /** Starts the real-time loop (ticks, candle writes, heartbeat sweep); returns a stopper. */
  startClock(now: () => number): () => Promise<void>;
}

export interface CreateMarketModuleOptions extends Omit<MarketServiceOptions, "repository"> {
  database: Database;
  now: () => number;
  authenticate?: (token: string) => Promise<WsIdentity | null>;
  sendQueueBytesMax?: number;
  heartbeatMs?: number;
  /** How often completed candles are written (default 5 s). */
  flushIntervalMs?: number;
  /**
   * The engine (submit + query). When given, ticks and sessions enter the kernel
   * (`record_tick`, `set_market_session`), spot markets are defined from the catalogue, spot
   * depth comes from the kernel books, and the market maker quotes them.
   */
  kernel?: KernelGateway & {
    subscribe?: (listener: (applied: TapeApplied) => void) => () => void;
    /** `Engine.lastSequenceOf`: links each instrument's first trade after a start. */
    lastSequenceOf?: (key: string) => bigint | undefined;
  };
  /** Where the module logs what it cannot do (a tape sequence lookup that gave up). */
  logger?: JournalLogger;
  /**
   * An API node (`ROLE=api`, issue 25): `kernel` is its follower kernel. Spot depth comes from
   * its books, but nothing is submitted (no market definitions, tape or market maker: the
   * leader runs those); ticks come from the followed `record_tick` records (serve.ts
   * ingests them; their trades and tickers come from this module's subscription).
   */
  follower?: boolean;
  /** Demo inventory granted once to the market maker, smallest units per asset. */
  marketMakerDemoFunding?: ReadonlyMap<string, bigint>;
  /** Instruments to price from Binance's public stream instead of the simulator. */
  binance?: { baseUrl: string; instrumentIds: readonly string[] };
  /**
   * Leave the history (simulated backfill, gap fill) to `startHistory`, for a server that
   * listens first; by default it is filled and written before this resolves.
   */
  deferHistory?: boolean;
}

/** What the module reads of an applied command to publish the tape's public trades. */
export interface TapeApplied {
  sequence: bigint;
  command: Command;
  result: { ok: boolean };
  duplicate: boolean;
  replay: boolean;
}

/** Builds the service (backfilled up to now) and the hub wired to it. */
export async function createMarketModule(
  options: CreateMarketModuleOptions,
): Promise<MarketModule> {
  const sourceByInstrument = new Map<string, FeedSource>();
  const binanceInstruments = catalogue.filter(
    (i) => i.binanceSymbol && options.binance?.instrumentIds.includes(i.id),
  );
  for (const instrument of binanceInstruments) sourceByInstrument.set(instrument.id, "binance");
  const kernel = options.kernel;
  const spot = spotInstruments(catalogue);
  const spotMarkets = new Map(spot.map((i) => [i.id, spotMarketId(i)]));
  let maker: MarketMaker | undefined;
  if (kernel && !options.follower) {
    // Rejections here (asset_exists, market_exists on later starts) change nothing. Submitted
    // together, they share one group commit (the engine applies them in submission order).
    await Promise.all(spotSetupCommands(catalogue).map((command) => kernel.submit(command)));
    const held = kernel.query((s) => getBalances(s, systemOwners.marketMaker, "demo"));
    if (!held.some((b) => b.available > 0n || b.held > 0n)) {
      const funding = options.marketMakerDemoFunding ?? defaultDemoFunding(spot);
      for (const command of demoFundingCommands(funding)) await kernel.submit(command);
    }
    maker = new MarketMaker({ gateway: kernel, instruments: spot });
  }
  const service = new MarketService({
    ...options,
    ...(kernel && options.follower
      ? { depthSource: kernelDepthSource((fn) => kernel.query(fn), spotMarkets) }
      : {}),
    ...(kernel && !options.follower
      ? {
          tape: new KernelTapeSink((c) => kernel.submit(c), spotMarkets),
          depthSource: kernelDepthSource((fn) => kernel.query(fn), spotMarkets),
        }
      : {}),
    sourceByInstrument,
    // With a kernel that reports applied records (the engine, leader or API node), public
    // trades are the journaled `record_tick`s, numbered by their journal sequence.
    tradesFromTape: kernel?.subscribe !== undefined,
    repository: sqlCandleRepository(options.database),
  });
  kernel?.subscribe?.((applied) => {
    if (applied.replay || applied.duplicate || !applied.result.ok) return;
    if (applied.command.type !== "record_tick") return;
    const tick = tickOfRecord(applied.command);
    if (tick) service.recordTrade(tick, applied.command.tickId, Number(applied.sequence));
  });
  // In the same turn as the subscription: no record reaches the service before it is linked.
  const previousTradesLinked =
    kernel?.subscribe !== undefined
      ? linkPreviousTrades({
          service,
          kernel,
          database: options.database,
          instruments: options.instruments ?? catalogue,
          logger: options.logger,
        }).done
      : Promise.resolve();
  let history: Promise<void> | undefined;
  const startHistory = () => (history ??= service.start(options.now()));
  if (!options.deferHistory) {
    await startHistory();
    await service.flush();
  }
  const hub = new WsHub({
    now: options.now,
    authenticate: options.authenticate,
    sendQueueBytesMax: options.sendQueueBytesMax,
    heartbeatMs: options.heartbeatMs,
    validate: (channel) =>
      "instrumentId" in channel && !service.instrument(channel.instrumentId)
        ? "instrument_not_found"
        : null,
    initialMessages: (channel) => initialMessages(service, channel, options.now()),
  });
  service.attachPublisher(hub);
  const tickIntervalMs = options.tickIntervalMs ?? 1_000;
  return {
    service,
    hub,
    marketMaker: maker,
    kernel,
    hasAuthenticate: options.authenticate !== undefined,
    previousTradesLinked,
    startHistory,
    startClock(now) {
      const feed =
        options.binance && binanceInstruments.length > 0
          ? new BinanceFeed({ baseUrl: options.binance.baseUrl, instruments: binanceInstruments })
          : undefined;
      const pumping = feed
        ? (async () => {
            for await (const tick of feed.ticks()) service.ingest(tick);
          })()
        : Promise.resolve();
      const ticker = setInterval(() => {
        service.step(now());
        hub.sweep(now());
        maker?.refresh(service.lastPrices(), now()).catch(() => {});
      }, tickIntervalMs);
      // The first flush at once: it writes the backfill of a first start.
      let flushing: Promise<void> = service.flush().catch(() => {});
      const flusher = setInterval(() => {
        flushing = flushing.then(() => service.flush()).catch(() => {});
      }, options.flushIntervalMs ?? 5_000);
      return async () => {
        await feed?.close();
        await pumping;
        clearInterval(ticker);
        clearInterval(flusher);
        // Write what the clock made since the last flush, unless that flush is still busy
        // (the backfill): then stop it between chunks rather than hold up the shutdown.
        const busy = await Promise.race([
          flushing.then(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 500)),
        ]);
        if (busy) service.stopWriting();
        await flushing;
        await service.flush();
      };
    },
  };
}

function initialMessages(service: MarketService, channel: Channel, nowMs: number): unknown[] {
  if (!("instrumentId" in channel)) return [];
  const instrument = service.instrument(channel.instrumentId);
  if (!instrument) return [];
  switch (channel.channel) {
    case "ticker": {
      const message = service.tickerMessage(instrument, nowMs);
      return message ? [message] : [];
    }
    case "depth": {
      const stream = `depth:${instrument.id}:${channel.mode}`;
      return [
        {
          type: "depth_snapshot",
          stream,
          data: service.depthSnapshot(instrument, channel.mode, nowMs),
        },
      ];
    }
    case "candles": {
      const data = service.currentCandle(instrument, channel.interval);
      const stream = `candles:${instrument.id}:${channel.interval}`;
      return data
        ? [
            {
              type: "candle",
              stream,
              interval: channel.interval,
              instrumentId: instrument.id,
              data,
            },
          ]
        : [];
    }
    case "trades":
      return [];
  }
}

/** Demo inventory of the market maker: 10 million USDT and about as much of each base asset. */
function defaultDemoFunding(spot: readonly Instrument[]): Map<string, bigint> {
  const funding = new Map<string, bigint>([["USDT", 10_000_000n * 10n ** 6n]]);
  for (const instrument of spot) {
    const price = unitsOf(instrument.simulation.startPrice, instrument.priceScale) ?? 1n;
    const units =
      (10_000_000n * 10n ** BigInt(instrument.priceScale + instrument.base.decimals)) / price;
    funding.set(instrument.base.symbol, units);
  }
  return funding;
}

/**
 * The tick a journaled `record_tick` carries, as the market service ingests it on an API node
 * (`ROLE=api`): price, time and the print's size from the tape, so its public trades are the
 * leader's (a tick journaled before the size was, has 0). Undefined for any other command or an
 * unknown instrument.
 */
export function tickOfRecord(command: Command): Tick | undefined {
  if (command.type !== "record_tick") return undefined;
  const instrument = catalogue.find((i) => i.id === command.instrumentId);
  const price = instrument && unitsOf(command.price, instrument.priceScale);
  if (!instrument || price === undefined || price === null) return undefined;
  const quantity =
    command.quantity === undefined || command.quantity === null
      ? 0n
      : (unitsOf(command.quantity, instrument.quantityScale) ?? 0n);
  const source: FeedSource = command.tickId.startsWith("binance-") ? "binance" : "simulated";
  return { instrumentId: instrument.id, atMs: command.tickAtMs, price, quantity, source };
}
