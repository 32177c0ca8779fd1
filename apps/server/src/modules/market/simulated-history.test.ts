import {
  CandleAggregator,
  candleIntervals,
  instruments,
  intervalMs,
  PriceSimulator,
  type Candle,
} from "@candor/market";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { createMarketModule } from "./market.module.ts";
import { SimulatedHistory } from "./simulated-history.ts";
import { candleView } from "./views.ts";

// Monday 23 November 2026, 15:00 UTC, and the default seed.
const startMs = Date.parse("2026-11-23T15:00:00Z");
const seed = 20_261_123;
const days = 3;
const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * The backfill as wip/memory wrote it (every instrument in one simulator, one instrument at a
 * time): the candles it stored for `instrumentId`, completed and still open at the start.
 */
function oldBackfill(instrumentId: string, nowMs: number): Candle[] {
  const simulator = new PriceSimulator({ seed, instruments, startMs: 0 });
  const aggregator = new CandleAggregator();
  const stored: Candle[] = [];
  const fromMs = nowMs - days * dayMs;
  const recentFromMs = Math.floor((nowMs - dayMs) / (5 * minuteMs)) * 5 * minuteMs;
  const keep = (c: Candle) => {
    if (c.interval !== "5m" || c.openMs >= nowMs - 7 * dayMs) stored.push(c);
  };
  for (const instrument of instruments) {
    const bars = simulator.backfill(fromMs, recentFromMs, {
      barInterval: "5m",
      instrumentId: instrument.id,
    });
    bars.push(...simulator.backfill(recentFromMs, nowMs, { instrumentId: instrument.id }));
    for (const bar of bars) for (const c of aggregator.addCandle(bar)) keep(c);
  }
  for (const c of aggregator.closeBefore(nowMs)) keep(c);
  stored.push(...aggregator.currentAll());
  return stored.filter((c) => c.instrumentId === instrumentId);
}

const plain = (c: { openMs: number; open: string; high: string; low: string; close: string }) => ({
  openMs: c.openMs,
  open: c.open,
  high: c.high,
  low: c.low,
  close: c.close,
});

describeEachDatabase("simulated history computed on demand", (database) => {
  it("gives the same charts as the stored backfill, stores none of it, and joins the live tape", async () => {
    let nowMs = startMs;
    const market = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: days,
    });
    const service = market.service;
    // Nothing before the live start is stored: only the candles still open at it.
    const rows = await sql<{ n: string }>`
      SELECT count(*) AS n FROM market_candles WHERE open_ms < ${BigInt(startMs - dayMs)}`.execute(
      database().db,
    );
    expect(Number(rows.rows[0]!.n)).toBeLessThanOrEqual(2 * instruments.length); // 1d, 1w
    expect(service.simulatedHistory()!.anchor).toEqual({
      fromMs: startMs - days * dayMs,
      liveStartMs: startMs,
    });

    for (const id of ["ETHUSDT", "AAPL", "EURUSD"]) {
      const instrument = service.instrument(id)!;
      const reference = oldBackfill(id, startMs);
      for (const interval of candleIntervals) {
        const expected = reference
          .filter((c) => c.interval === interval)
          .sort((a, b) => a.openMs - b.openMs)
          .slice(-1000)
          .map((c) => candleView(instrument, c, c.openMs + intervalMs[interval] <= startMs));
        const served = await service.candles(instrument, interval, { limit: 1000 }, startMs);
        expect(served.length, `${id} ${interval}`).toBeGreaterThan(0);
        expect(served, `${id} ${interval}`).toEqual(expected);
      }
    }

    // Live: ten minutes of ticks, written; the 1m chart runs through the live start with no gap
    // and no double, and the 1h candle that straddles it is one candle.
    const eth = service.instrument("ETHUSDT")!;
    for (let i = 0; i < 600; i++) service.step((nowMs += 1_000));
    await service.flush();
    const minutes = await service.candles(
      eth,
      "1m",
      { fromMs: startMs - 30 * minuteMs, toMs: startMs + 10 * minuteMs, limit: 1000 },
      nowMs,
    );
    expect(minutes.map((c) => c.openMs)).toEqual(
      Array.from({ length: 40 }, (_, i) => startMs - 30 * minuteMs + i * minuteMs),
    );
    const hours = await service.candles(eth, "1h", { limit: 1000 }, nowMs);
    const openings = hours.map((c) => c.openMs);
    expect(new Set(openings).size).toBe(openings.length);
    expect(openings.at(-1)).toBe(startMs);
    expect(openings.at(-2)).toBe(startMs - intervalMs["1h"]);

    // A second server on the same data: same anchor, same chart (computed again, not stored).
    const again = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 10, // read only by a first start
    });
    expect(again.service.simulatedHistory()!.anchor).toEqual(service.simulatedHistory()!.anchor);
    const chart = (s: typeof service) =>
      s.candles(eth, "15m", { toMs: startMs + 5 * minuteMs, limit: 1000 }, nowMs);
    expect((await chart(again.service)).map(plain)).toEqual((await chart(service)).map(plain));
    expect(again.service.ticker(eth, nowMs)).toEqual(service.ticker(eth, nowMs));

    // The stock detail's ranges: the computed history's low and high before the live start.
    const days1d = oldBackfill("ETHUSDT", startMs).filter(
      (c) => c.interval === "1h" && c.openMs + intervalMs["1h"] <= startMs,
    );
    expect(service.computedRange("ETHUSDT", "1h", 0)).toEqual({
      low: days1d.reduce((m, c) => (c.low < m ? c.low : m), days1d[0]!.low),
      high: days1d.reduce((m, c) => (c.high > m ? c.high : m), days1d[0]!.high),
    });
    expect(service.computedRange("ETHUSDT", "1h", startMs)).toBeNull();
  });
});

it("bounds the cache of computed history (least recently used instruments leave)", () => {
  const anchor = { fromMs: startMs - days * dayMs, liveStartMs: startMs };
  const history = new SimulatedHistory({ seed, instruments, anchor, cacheInstruments: 2 });
  const first = history.candles("ETHUSDT", "1h", 0, startMs, 1000);
  history.candles("AAPL", "1h", 0, startMs, 1000);
  history.candles("ETHUSDT", "1m", 0, startMs, 10);
  expect(history.computed).toBe(2);
  history.candles("EURUSD", "1h", 0, startMs, 1000);
  expect(history.cached()).toEqual(["ETHUSDT", "EURUSD"]);
  history.candles("AAPL", "1h", 0, startMs, 1000);
  expect(history.computed).toBe(4);
  expect(history.cached()).toEqual(["EURUSD", "AAPL"]);
  // Computed again after eviction: the same candles.
  expect(history.candles("ETHUSDT", "1h", 0, startMs, 1000)).toEqual(first);
  expect(history.computed).toBe(5);
  expect(history.cached()).toHaveLength(2);
  // Ranges and limits: the newest `limit` in [from, to); nothing at or after the live start.
  expect(history.candles("ETHUSDT", "1h", startMs, startMs + dayMs, 10)).toEqual([]);
  const last = history.candles("ETHUSDT", "1h", 0, startMs + dayMs, 3);
  expect(last.map((c) => c.openMs)).toEqual([3, 2, 1].map((n) => startMs - n * 3_600_000));
});
