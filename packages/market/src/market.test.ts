import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  binanceCombinedStreamUrl,
  calendars,
  CandleAggregator,
  candleOpenMs,
  findInstrument,
  instruments,
  instrumentsByBinanceSymbol,
  isMarketOpen,
  marketStatus,
  parseBinanceMessage,
  unitsOf,
  PriceSimulator,
  searchInstruments,
  TickerWindow,
  utcOffsetMinutes,
  type Tick,
} from "./index.ts";

const utc = (iso: string) => Date.parse(iso);
const dayMs = 86_400_000;

describe("catalogue and feed decimals", () => {
  it("accept zeros past the scale and refuse any other extra digit", () => {
    expect(unitsOf("1.2300", 2)).toBe(123n);
    expect(unitsOf("1.234", 2)).toBeNull();
    for (const bad of ["", "1e5", "abc", "1.", ".5", "1,5", " 1", "NaN"]) {
      expect(unitsOf(bad, 2)).toBeNull();
    }
  });
});

describe("instrument catalogue", () => {
  it("lists the five classes with the counts the issue asks for", () => {
    const count = (c: string) => instruments.filter((i) => i.assetClass === c).length;
    expect(count("crypto")).toBeGreaterThanOrEqual(8);
    expect(count("stock")).toBeGreaterThanOrEqual(8);
    expect(count("forex")).toBeGreaterThanOrEqual(6);
    expect(count("metal")).toBeGreaterThanOrEqual(3);
    expect(count("commodity")).toBeGreaterThanOrEqual(5);
    expect(instruments).toHaveLength(41);
    expect(instruments.filter((i) => i.venue === "HKEX").every((i) => i.stampDutyBps > 0)).toBe(
      true,
    );
  });
  it("has unique ids, positive steps and start prices on the tick grid", () => {
    expect(new Set(instruments.map((i) => i.id)).size).toBe(instruments.length);
    for (const i of instruments) {
      expect(i.tickSize > 0n && i.lotSize > 0n).toBe(true);
      const start = unitsOf(i.simulation.startPrice, i.priceScale);
      expect(start, i.id).not.toBeNull();
      expect(start! % i.tickSize, i.id).toBe(0n);
      expect(calendars[i.calendarId]).toBeDefined();
      if (i.assetClass === "crypto") expect(i.quote.symbol).toBe("USDT");
    }
  });
  it("finds instruments by id and searches by symbol and name", () => {
    expect(findInstrument("BTCUSDT")?.base.symbol).toBe("BTC");
    expect(findInstrument("nope")).toBeUndefined();
    expect(searchInstruments("btc")[0]?.id).toBe("BTCUSDT");
    expect(searchInstruments("gold")[0]?.id).toBe("XAUUSD");
    expect(searchInstruments("騰訊")[0]?.id).toBe("0700.HK");
    expect(searchInstruments("", { assetClass: "metal" })).toHaveLength(4);
    expect(searchInstruments("zzzz")).toEqual([]);
  });
});

describe("trading calendars", () => {
  it("follows US daylight saving time", () => {
    expect(utcOffsetMinutes("America/New_York", utc("2026-01-15T12:00:00Z"))).toBe(-300);
    expect(utcOffsetMinutes("America/New_York", utc("2026-07-15T12:00:00Z"))).toBe(-240);
    // 2026: DST from 8 March 07:00 UTC to 1 November 06:00 UTC.
    expect(utcOffsetMinutes("America/New_York", utc("2026-03-08T06:59:00Z"))).toBe(-300);
    expect(utcOffsetMinutes("America/New_York", utc("2026-03-08T07:00:00Z"))).toBe(-240);
    expect(utcOffsetMinutes("America/New_York", utc("2026-11-01T05:59:00Z"))).toBe(-240);
    expect(utcOffsetMinutes("America/New_York", utc("2026-11-01T06:00:00Z"))).toBe(-300);
    expect(utcOffsetMinutes("Asia/Hong_Kong", utc("2026-07-15T12:00:00Z"))).toBe(480);
  });
  const aapl = findInstrument("AAPL")!;
  const tencent = findInstrument("0700.HK")!;
  const eurusd = findInstrument("EURUSD")!;
  const btc = findInstrument("BTCUSDT")!;
  const gold = findInstrument("XAUUSD")!;

  it("opens US stocks 09:30–16:00 New York time, in summer and winter", () => {
    expect(isMarketOpen(aapl, utc("2026-07-15T13:30:00Z"))).toBe(true); // 09:30 EDT
    expect(isMarketOpen(aapl, utc("2026-07-15T13:29:00Z"))).toBe(false);
    expect(isMarketOpen(aapl, utc("2026-07-15T20:00:00Z"))).toBe(false); // 16:00 EDT
    expect(isMarketOpen(aapl, utc("2026-01-15T14:30:00Z"))).toBe(true); // 09:30 EST
    expect(isMarketOpen(aapl, utc("2026-01-15T14:29:00Z"))).toBe(false);
  });
  it("closes on weekends and holidays and says when it opens next", () => {
    // Thanksgiving 2026 is Thursday 26 November.
    const status = marketStatus(aapl, utc("2026-11-26T15:00:00Z"));
    expect(status.open).toBe(false);
    expect(status.nextOpenMs).toBe(utc("2026-11-27T14:30:00Z"));
    const weekend = marketStatus(aapl, utc("2026-11-21T15:00:00Z"));
    expect(weekend).toEqual({
      open: false,
      nextOpenMs: utc("2026-11-23T14:30:00Z"),
      nextCloseMs: null,
    });
    const open = marketStatus(aapl, utc("2026-11-23T15:00:00Z"));
    expect(open).toEqual({
      open: true,
      nextOpenMs: null,
      nextCloseMs: utc("2026-11-23T21:00:00Z"),
    });
  });
  it("has a lunch break in Hong Kong and skips Lunar New Year", () => {
    expect(isMarketOpen(tencent, utc("2026-11-23T02:00:00Z"))).toBe(true); // 10:00 HKT
    expect(isMarketOpen(tencent, utc("2026-11-23T04:30:00Z"))).toBe(false); // 12:30 HKT
    expect(marketStatus(tencent, utc("2026-11-23T04:30:00Z")).nextOpenMs).toBe(
      utc("2026-11-23T05:00:00Z"),
    );
    expect(isMarketOpen(tencent, utc("2026-02-17T02:00:00Z"))).toBe(false);
    expect(marketStatus(tencent, utc("2026-02-17T02:00:00Z")).nextOpenMs).toBe(
      utc("2026-02-20T01:30:00Z"),
    );
  });
  it("runs FX 24/5 from Sunday to Friday 17:00 New York", () => {
    expect(isMarketOpen(eurusd, utc("2026-11-25T03:00:00Z"))).toBe(true);
    expect(isMarketOpen(eurusd, utc("2026-11-28T12:00:00Z"))).toBe(false); // Saturday
    expect(marketStatus(eurusd, utc("2026-11-28T12:00:00Z")).nextOpenMs).toBe(
      utc("2026-11-29T22:00:00Z"),
    );
  });
  it("gives metals a daily break and crypto none", () => {
    expect(isMarketOpen(gold, utc("2026-11-24T22:30:00Z"))).toBe(false); // 17:30 EST
    expect(isMarketOpen(gold, utc("2026-11-24T23:00:00Z"))).toBe(true);
    expect(marketStatus(btc, utc("2026-12-25T00:00:00Z"))).toEqual({
      open: true,
      nextOpenMs: null,
      nextCloseMs: null,
    });
  });
  it("reports a next change that really is a change (property)", () => {
    const from = utc("2025-02-01T00:00:00Z");
    fc.assert(
      fc.property(
        fc.constantFrom(...instruments.filter((i) => i.calendarId !== "crypto")),
        fc.integer({ min: 0, max: 600 * 24 * 60 }),
        (instrument, minutes) => {
          const at = from + minutes * 60_000;
          const s = marketStatus(instrument, at);
          const next = s.open ? s.nextCloseMs : s.nextOpenMs;
          expect(next).not.toBeNull();
          expect(next! > at).toBe(true);
          expect(isMarketOpen(instrument, next!)).toBe(!s.open);
          expect(isMarketOpen(instrument, next! - 60_000)).toBe(s.open);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("price simulator", () => {
  const start = utc("2026-11-23T00:00:00Z");
  it("is deterministic for a seed and differs across seeds", () => {
    const a = new PriceSimulator({ seed: 7, instruments, startMs: start }).advanceTo(start + 5000);
    const b = new PriceSimulator({ seed: 7, instruments, startMs: start }).advanceTo(start + 5000);
    const c = new PriceSimulator({ seed: 8, instruments, startMs: start }).advanceTo(start + 5000);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
  it("backfills one instrument at a time exactly as all at once", () => {
    const all = new PriceSimulator({ seed: 7, instruments, startMs: start }).backfill(
      start,
      start + 2 * dayMs,
      { barInterval: "5m" },
    );
    const one = new PriceSimulator({ seed: 7, instruments, startMs: start });
    const each = instruments.flatMap((i) =>
      one.backfill(start, start + 2 * dayMs, { barInterval: "5m", instrumentId: i.id }),
    );
    expect(each).toEqual(all);
  });
  it("ticks only open markets, once a second each", () => {
    const sim = new PriceSimulator({ seed: 1, instruments, startMs: start });
    const ticks = sim.advanceTo(start + 3000);
    const open = instruments.filter((i) => isMarketOpen(i, start + 1000));
    expect(ticks).toHaveLength(open.length * 3);
    expect(ticks.every((t) => t.source === "simulated")).toBe(true);
    expect(ticks.some((t) => t.instrumentId === "AAPL")).toBe(false); // closed at midnight UTC
  });
  it("keeps prices positive, on the tick grid and quantities on the lot grid (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const sim = new PriceSimulator({ seed, instruments, startMs: start });
        const candles = sim.backfill(start, start + 2 * dayMs, {
          barInterval: "5m",
          stepsPerBar: 3,
        });
        for (const c of candles) {
          const i = findInstrument(c.instrumentId)!;
          expect(c.low > 0n).toBe(true);
          expect(c.low <= c.open && c.low <= c.close && c.high >= c.open && c.high >= c.close).toBe(
            true,
          );
          expect(c.close % i.tickSize).toBe(0n);
          expect(c.volume % i.lotSize).toBe(0n);
        }
      }),
      { numRuns: 5 },
    );
  });
  it("moves crypto more than FX over a backfill", () => {
    const sim = new PriceSimulator({ seed: 3, instruments, startMs: start });
    const candles = sim.backfill(start, start + 7 * dayMs, { barInterval: "5m" });
    const range = (id: string) => {
      const cs = candles.filter((c) => c.instrumentId === id);
      const hi = cs.reduce((m, c) => (c.high > m ? c.high : m), 0n);
      const lo = cs.reduce((m, c) => (c.low < m ? c.low : m), hi);
      return Number(((hi - lo) * 10_000n) / lo);
    };
    expect(range("BTCUSDT")).toBeGreaterThan(range("EURUSD"));
  });
  it("resumes from a recorded price", () => {
    const sim = new PriceSimulator({ seed: 1, instruments, startMs: start });
    sim.resumeFrom("BTCUSDT", 5_000_000n);
    expect(sim.price("BTCUSDT")).toBe(5_000_000n);
  });
});

describe("candles and tickers", () => {
  const t0 = utc("2026-11-23T10:00:00Z");
  const tick = (atMs: number, price: bigint, quantity = 1n): Tick => ({
    instrumentId: "BTCUSDT",
    atMs,
    price,
    quantity,
    source: "simulated",
  });
  it("aligns candles, weeks on Monday UTC", () => {
    expect(candleOpenMs("1w", utc("2026-11-25T10:00:00Z"))).toBe(utc("2026-11-23T00:00:00Z"));
    expect(candleOpenMs("4h", utc("2026-11-25T10:00:00Z"))).toBe(utc("2026-11-25T08:00:00Z"));
  });
  it("builds OHLCV and emits a completed candle once", () => {
    const agg = new CandleAggregator(["1m", "5m"]);
    expect(agg.addTick(tick(t0, 100n))).toEqual([]);
    agg.addTick(tick(t0 + 10_000, 120n, 2n));
    agg.addTick(tick(t0 + 20_000, 90n));
    const closed = agg.addTick(tick(t0 + 60_000, 95n));
    expect(closed).toEqual([
      {
        instrumentId: "BTCUSDT",
        interval: "1m",
        openMs: t0,
        open: 100n,
        high: 120n,
        low: 90n,
        close: 90n,
        volume: 4n,
        trades: 3,
      },
    ]);
    expect(agg.current("BTCUSDT", "5m")?.close).toBe(95n);
    expect(
      agg
        .closeBefore(t0 + 5 * 60_000)
        .map((c) => c.interval)
        .sort(),
    ).toEqual(["1m", "5m"]);
    expect(agg.currentAll()).toEqual([]);
  });
  it("aggregates 1m candles into every longer interval consistently (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 1, maxLength: 300 }),
        (prices) => {
          const agg = new CandleAggregator();
          const all = prices.flatMap((p, k) => agg.addTick(tick(t0 + k * 30_000, p)));
          all.push(...agg.closeBefore(t0 + 10 * 7 * dayMs));
          for (const interval of ["1m", "1h", "1w"] as const) {
            const cs = all.filter((c) => c.interval === interval);
            expect(cs.reduce((s, c) => s + c.volume, 0n)).toBe(BigInt(prices.length));
            const max = prices.reduce((m, p) => (p > m ? p : m));
            expect(cs.reduce((m, c) => (c.high > m ? c.high : m), 0n)).toBe(max);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
  it("computes a 24 h ticker and forgets older prints", () => {
    const w = new TickerWindow();
    w.addTick(tick(t0, 100n, 5n));
    w.addTick(tick(t0 + 3_600_000, 150n, 1n));
    w.addTick(tick(t0 + 2 * 3_600_000, 110n, 1n));
    expect(w.ticker("BTCUSDT", t0 + 2 * 3_600_000)).toMatchObject({
      last: 110n,
      open: 100n,
      high: 150n,
      low: 100n,
      volume: 7n,
      changeBps: 1000n,
    });
    const later = w.ticker("BTCUSDT", t0 + dayMs + 2 * 60_000)!;
    expect(later.open).toBe(150n);
    expect(later.volume).toBe(2n);
    expect(w.ticker("ETHUSDT", t0)).toBeUndefined();
  });
});

describe("Binance combined stream parser", () => {
  const index = instrumentsByBinanceSymbol(instruments);
  it("builds the stream URL", () => {
    expect(
      binanceCombinedStreamUrl("ws://localhost:1/", [
        findInstrument("BTCUSDT")!,
        findInstrument("AAPL")!,
      ]),
    ).toBe("ws://localhost:1/stream?streams=btcusdt@trade");
  });
  it("parses trade and aggTrade events", () => {
    const trade = parseBinanceMessage(
      '{"stream":"btcusdt@trade","data":{"e":"trade","E":1763892000100,"s":"BTCUSDT","t":1,"p":"95012.34000000","q":"0.00123456","T":1763892000099,"m":true,"M":true}}',
      index,
    );
    expect(trade).toEqual({
      kind: "tick",
      tick: {
        instrumentId: "BTCUSDT",
        atMs: 1763892000099,
        price: 9_501_234n,
        quantity: 12n,
        source: "binance",
      },
    });
    const agg = parseBinanceMessage(
      '{"stream":"ethusdt@aggTrade","data":{"e":"aggTrade","E":1,"s":"ETHUSDT","a":1,"p":"3400.10","q":"1.5","f":1,"l":2,"T":1763892000000,"m":false,"M":true}}',
      index,
    );
    expect(agg.kind === "tick" && agg.tick.price).toBe(340_010n);
  });
  it("rejects malformed and over-precise messages and skips other events", () => {
    expect(parseBinanceMessage("{", index).kind).toBe("error");
    expect(parseBinanceMessage('{"data":{}}', index).kind).toBe("error");
    expect(parseBinanceMessage('{"stream":"x","data":{"e":"depthUpdate"}}', index).kind).toBe(
      "ignored",
    );
    expect(
      parseBinanceMessage(
        '{"stream":"x","data":{"e":"trade","s":"BTCUSDT","p":"1.005","q":"1","T":1}}',
        index,
      ).kind,
    ).toBe("error");
    expect(
      parseBinanceMessage(
        '{"stream":"x","data":{"e":"trade","s":"BTCUSDT","p":"-1","q":"1","T":1}}',
        index,
      ).kind,
    ).toBe("error");
    expect(parseBinanceMessage("x".repeat(20_000), index).kind).toBe("error");
  });
});

describe("recorded Binance fixture", () => {
  it("parses into ticks, skipping only the non-trade events", async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(
      new URL("../fixtures/binance-combined.jsonl", import.meta.url),
      "utf8",
    );
    const results = text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => parseBinanceMessage(l, instrumentsByBinanceSymbol(instruments)));
    expect(results.filter((r) => r.kind === "error")).toEqual([]);
    expect(results.filter((r) => r.kind === "tick")).toHaveLength(60);
    expect(results.filter((r) => r.kind === "ignored")).toHaveLength(3);
  });
});
