import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { apply, createKernelState, type Command } from "@candor/kernel";
import { findInstrument, type Instrument, type Tick } from "@candor/market";
import { afterAll, expect, it } from "vitest";
import { kernelPort, tapeSequenceKey } from "../../engine/kernel-port.ts";
import { openEngine, type RunningEngine } from "../../engine/open-engine.ts";
import { fileSnapshotStore, pgSnapshotStore } from "../../journal/snapshot-store.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { createMarketModule, type MarketModule } from "./market.module.ts";
import type { CandleRepository } from "./market.repository.ts";
import { MarketService } from "./market.service.ts";
import { linkPreviousTrades } from "./previous-trades.ts";

// Issue 25: a node's first public trade of an instrument after it starts links to the last
// tick recorded before it (`previousSequence`), like every later one, and its ticker carries
// that sequence; both from the journal, so every node sends the same numbers. The engine is
// the real one (file journal on PGlite, the PostgreSQL journal on PostgreSQL), restarted twice:
// once replaying the records of the ticks (`Engine.lastSequenceOf`), once from a snapshot that
// holds them (the tape read model, `rm_ticks`).
const instruments = ["BTCUSDT", "ETHUSDT"].map((id) => findInstrument(id)!) as Instrument[];
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Message {
  type: string;
  sequence?: number;
  previousSequence?: number | null;
  data: { id?: string };
}

describeEachDatabase("public trades and tickers across a restart", (database) => {
  let nowMs = Date.parse("2026-11-27T12:00:00Z");
  const dataDir = mkdtempSync(path.join(tmpdir(), "candor-previous-trades-"));
  dataDirs.push(dataDir);
  const fatal = (error: unknown) => {
    throw error;
  };

  /** Starts a node: the engine (snapshot + replay), then the market module on it. */
  async function start(): Promise<{ running: RunningEngine; market: MarketModule }> {
    const running = await openEngine({
      database: database(),
      dataDir,
      logger: { info() {}, warn() {}, error() {} },
      onFatal: fatal,
      snapshotEvery: 0,
      clockTickMs: 0,
    });
    const market = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 1,
      instruments,
      kernel: running.engine,
    });
    await market.previousTradesLinked;
    return { running, market };
  }

  /** Runs the simulator for `seconds` and collects the BTC/USDT trades and tickers sent. */
  async function trade(market: MarketModule, running: RunningEngine, seconds: number) {
    const messages: Message[] = [];
    market.service.attachPublisher({
      wants: (stream) => stream === "trades:BTCUSDT" || stream === "ticker:BTCUSDT",
      publish: (_stream, message) => messages.push(message as Message),
    });
    for (let i = 0; i < seconds; i++) {
      nowMs += 1_000;
      market.service.step(nowMs);
    }
    // The ticks are journaled and applied in the background: wait until all are.
    const trades = () => messages.filter((m) => m.type === "trade");
    for (let i = 0; i < 500 && trades().length < seconds; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(trades()).toHaveLength(seconds);
    return {
      trades: trades(),
      tickers: messages.filter((m) => m.type === "ticker"),
      sequence: running.engine.sequence,
    };
  }

  it("links the first trade after a restart to the last one before it, on a replay and from a snapshot", async () => {
    // First start: the instrument's first trade ever has no trade before it.
    let node = await start();
    const first = await trade(node.market, node.running, 3);
    expect(first.trades[0]!.previousSequence).toBeNull();
    for (let i = 1; i < first.trades.length; i++) {
      expect(first.trades[i]!.previousSequence).toBe(first.trades[i - 1]!.sequence);
    }
    // Each ticker goes out with its tick's record, numbered by the same journal sequence.
    expect(first.tickers.map((t) => t.sequence)).toEqual(first.trades.map((t) => t.sequence));
    const lastBefore = first.trades.at(-1)!.sequence!;
    await node.running.close();

    // Restart replaying the journal (no snapshot): the engine saw the tick's record.
    node = await start();
    expect(node.running.engine.lastSequenceOf(tapeSequenceKey("BTCUSDT"))).toBe(BigInt(lastBefore));
    // A subscriber's first ticker, before any new tick, is the last recorded one's.
    const btc = node.market.service.instrument("BTCUSDT")!;
    expect(node.market.service.tickerMessage(btc, nowMs)?.sequence).toBe(lastBefore);
    const second = await trade(node.market, node.running, 2);
    expect(second.trades[0]!.previousSequence).toBe(lastBefore);
    expect(second.trades[1]!.previousSequence).toBe(second.trades[0]!.sequence);
    expect(second.tickers.map((t) => t.sequence)).toEqual(second.trades.map((t) => t.sequence));
    const lastBeforeSnapshot = second.trades.at(-1)!.sequence!;
    // A snapshot holding every record: the next start replays none of them.
    const snapshots =
      database().kind === "postgres"
        ? pgSnapshotStore({ database: database() })
        : fileSnapshotStore({ directory: path.join(dataDir, "snapshots") });
    await snapshots.save(
      node.running.engine.sequence,
      node.running.engine.query((state) => kernelPort.snapshot(state)),
    );
    await node.running.close();

    // Restart from the snapshot: the tick's sequence comes from the tape read model.
    node = await start();
    expect(node.running.engine.lastSequenceOf(tapeSequenceKey("BTCUSDT"))).toBeUndefined();
    expect(node.market.service.tickerMessage(btc, nowMs)?.sequence).toBe(lastBeforeSnapshot);
    const third = await trade(node.market, node.running, 2);
    expect(third.trades[0]!.previousSequence).toBe(lastBeforeSnapshot);
    expect(third.trades[0]!.sequence).toBeGreaterThan(lastBeforeSnapshot);
    await node.running.close();
  });
});

/** A service in tape mode that records what it publishes (no database: nothing is stored). */
function tapeService() {
  const service = new MarketService({
    repository: {} as CandleRepository,
    instruments,
    tradesFromTape: true,
  });
  const sent: Message[] = [];
  service.attachPublisher({ wants: () => true, publish: (_s, m) => sent.push(m as Message) });
  return { service, sent };
}

const tick = (instrumentId: string, atMs: number): Tick => ({
  instrumentId,
  atMs,
  price: 100_000n,
  quantity: 1n,
  source: "simulated",
});

it("holds the trades of an instrument whose previous trade is being looked up, then sends them linked", () => {
  const { service, sent } = tapeService();
  const links = () =>
    sent.filter((m) => m.type === "trade").map((m) => [m.data.id, m.previousSequence, m.sequence]);
  service.awaitPreviousTrades(new Map([["ETHUSDT", 5]]), ["BTCUSDT"]);
  service.recordTrade(tick("BTCUSDT", 1_000), "b1", 10);
  service.recordTrade(tick("ETHUSDT", 1_000), "e1", 11);
  service.recordTrade(tick("BTCUSDT", 2_000), "b2", 12);
  // ETH's link was known at once; BTC's trades wait. Tickers need no link and go out.
  expect(links()).toEqual([["e1", 5, 11]]);
  expect(sent.filter((m) => m.type === "ticker").map((m) => m.sequence)).toEqual([10, 11, 12]);
  service.resolvePreviousTrade("BTCUSDT", 7);
  expect(links()).toEqual([
    ["e1", 5, 11],
    ["b1", 7, 10],
    ["b2", 10, 12],
  ]);
  service.recordTrade(tick("BTCUSDT", 3_000), "b3", 15);
  // A late answer changes nothing once the instrument's trades are linked.
  service.resolvePreviousTrade("BTCUSDT", 3);
  expect(links().slice(3)).toEqual([["b3", 12, 15]]);
});

describeEachDatabase("linking the first trade when the tape read model lags", (database) => {
  it("retries the lookup, then gives up and sends the waiting trades unlinked", async () => {
    // The kernel's last BTC/USDT tick, which the read model does not hold (its projector lags).
    const state = createKernelState({});
    const record = {
      type: "record_tick",
      id: "tick:BTCUSDT:simulated-1000-0",
      atMs: 1_000,
      tickId: "simulated-1000-0",
      instrumentId: "BTCUSDT",
      price: "100",
      tickAtMs: 1_000,
    } as Command;
    expect(apply(state, record).result.ok).toBe(true);
    const { service, sent } = tapeService();
    const warnings: string[] = [];
    const link = linkPreviousTrades({
      service,
      kernel: { query: (fn) => fn(state), lastSequenceOf: () => undefined },
      database: database(),
      instruments,
      logger: { info() {}, warn: (_o, message) => warnings.push(message ?? ""), error() {} },
      retryMs: 20,
      deadlineMs: 200,
    });
    service.recordTrade(tick("BTCUSDT", 2_000), "b2", 40);
    expect(sent.filter((m) => m.type === "trade")).toEqual([]);
    await link.done;
    expect(warnings.some((w) => w.includes("unlinked"))).toBe(true);
    expect(sent.filter((m) => m.type === "trade").map((m) => m.previousSequence)).toEqual([null]);
  });
});
