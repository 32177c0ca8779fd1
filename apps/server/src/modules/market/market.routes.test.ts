import { WsServerMessage } from "@candor/contract";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../../app.ts";
import { openDatabase } from "../../db/database.ts";
import { migrate } from "../../db/migrate.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { createMarketModule, type MarketModule } from "./market.module.ts";
import { MemoryTapeSink } from "./tape-sink.ts";

// Monday 23 November 2026, 15:00 UTC: crypto, US stocks, FX, metals and commodities are open;
// Hong Kong is closed for the evening.
const startMs = Date.parse("2026-11-23T15:00:00Z");

describeEachDatabase("market API", (database) => {
  let app: FastifyInstance;
  let market: MarketModule;
  let nowMs = startMs;
  const tape = new MemoryTapeSink();
  let baseUrl = "";

  beforeAll(async () => {
    market = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 2,
      tape,
      heartbeatMs: 1_000,
    });
    app = await buildApp({ database: database(), now: () => nowMs, market });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    baseUrl = address.replace("http", "ws");
  });
  afterAll(() => app.close());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: "GET", url, headers });
    return { status: response.statusCode, body: response.json() };
  };

  it("lists every instrument, by class and by search, labelled as simulated", async () => {
    const all = await get("/api/v1/market/instruments");
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(instruments.length);
    expect(all.body.data[0]).toMatchObject({
      id: "BTCUSDT",
      tickSize: "0.01",
      source: "simulated",
    });
    const metals = await get("/api/v1/market/instruments?assetClass=metal");
    expect(metals.body.data.map((i: { id: string }) => i.id)).toEqual([
      "XAUUSD",
      "XAGUSD",
      "XPTUSD",
      "XPDUSD",
    ]);
    const search = await get("/api/v1/market/instruments?q=tencent");
    expect(search.body.data[0].id).toBe("0700.HK");
    expect((await get("/api/v1/market/instruments/0700.HK")).body.data.stampDutyBps).toBe(10);
  });

  it("gives every instrument a ticker and a chart right after start", async () => {
    const tickers = await get("/api/v1/market/tickers");
    expect(tickers.body.data).toHaveLength(instruments.length);
    for (const ticker of tickers.body.data) {
      expect(ticker.last).toMatch(/^\d+(\.\d+)?$/);
      expect(ticker.source).toBe("simulated");
    }
    for (const instrument of instruments) {
      const candles = await get(
        `/api/v1/market/instruments/${instrument.id}/candles?interval=1h&limit=500`,
      );
      expect(candles.status).toBe(200);
      expect(candles.body.data.candles.length, instrument.id).toBeGreaterThan(0);
    }
  });

  it("moves open markets in real time and records every tick on the tape", async () => {
    const before = (await get("/api/v1/market/instruments/BTCUSDT/ticker")).body.data;
    const tapeBefore = tape.ticks.length;
    nowMs += 5_000;
    const ticks = market.service.step(nowMs);
    expect(ticks.some((t) => t.instrumentId === "BTCUSDT")).toBe(true);
    expect(ticks.some((t) => t.instrumentId === "0700.HK")).toBe(false);
    expect(tape.ticks.length - tapeBefore).toBe(ticks.length);
    const after = (await get("/api/v1/market/instruments/BTCUSDT/ticker")).body.data;
    expect(after.lastAtMs).toBeGreaterThan(before.lastAtMs);
    const trades = await get("/api/v1/market/instruments/BTCUSDT/trades?limit=3");
    expect(trades.body.data).toHaveLength(3);
    expect(tape.sessions.find((s) => s.instrumentId === "0700.HK")?.open).toBe(false);
  });

  it("serves candles in a range, the newest bar still open", async () => {
    const to = nowMs;
    const from = to - 3 * 3_600_000;
    const response = await get(
      `/api/v1/market/instruments/BTCUSDT/candles?interval=15m&fromMs=${from}&toMs=${to + 1}&limit=100`,
    );
    const candles = response.body.data.candles;
    expect(candles.length).toBeGreaterThanOrEqual(12);
    expect(candles.at(-1).closed).toBe(false);
    expect(candles.slice(0, -1).every((c: { closed: boolean }) => c.closed)).toBe(true);
    for (const c of candles) expect(Number(c.low) <= Number(c.high)).toBe(true);
  });

  it("reports market status with the next opening and open alternatives", async () => {
    const hk = (await get("/api/v1/market/instruments/0700.HK/status")).body.data;
    expect(hk).toMatchObject({ open: false, nextOpenMs: Date.parse("2026-11-24T01:30:00Z") });
    expect(hk.openAlternatives.length).toBeGreaterThan(0);
    const btc = (await get("/api/v1/market/instruments/BTCUSDT/status")).body.data;
    expect(btc).toMatchObject({ open: true, nextCloseMs: null, openAlternatives: [] });
    expect((await get("/api/v1/market/status?assetClass=forex")).body.data).toHaveLength(7);
  });

  it("serves depth with bids below asks and labelled simulated", async () => {
    const depth = (await get("/api/v1/market/instruments/BTCUSDT/depth?levels=5")).body.data;
    expect(depth.bids).toHaveLength(5);
    expect(Number(depth.bids[0][0])).toBeLessThan(Number(depth.asks[0][0]));
    expect(depth.source).toBe("simulated");
  });

  it.each([
    ["/api/v1/market/instruments/NOPE/ticker", 404, "instrument_not_found"],
    ["/api/v1/market/instruments/%20bad/candles", 400, "validation_failed"],
    [`/api/v1/market/instruments/${"X".repeat(30)}`, 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/candles?interval=7m", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/candles?limit=-1", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/candles?limit=1.5", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/candles?limit=100000", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/candles?fromMs=10&toMs=5", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/depth?levels=0", 400, "validation_failed"],
    ["/api/v1/market/instruments/BTCUSDT/depth?mode=paper", 400, "validation_failed"],
    ["/api/v1/market/instruments?assetClass=bonds", 400, "validation_failed"],
    [`/api/v1/market/instruments?q=${"a".repeat(100)}`, 400, "validation_failed"],
  ])("rejects bad input %s with %i %s", async (url, status, error) => {
    const response = await get(url, { "x-lang": "de" });
    expect(response.status).toBe(status);
    expect(response.body.error).toBe(error);
    expect(response.body.message).not.toMatch(/^[a-z_]+$/);
  });

  it("answers in the user's language", async () => {
    const response = await get("/api/v1/market/instruments/NOPE", { "x-lang": "jp" });
    expect(response.body.message).toBe("この銘柄は存在しません");
  });

  it("lists the market endpoints in the OpenAPI document", async () => {
    const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("/api/v1/market/tickers");
    expect(response.body).toContain("/api/v1/market/instruments/{id}/candles");
  });

  it("has no write endpoints", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/v1/market/instruments/BTCUSDT/ticker",
      payload: { last: "1" },
    });
    expect(response.statusCode).toBe(404);
  });

  function connect(query = ""): Promise<{ socket: WebSocket; messages: WsServerMessage[] }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${baseUrl}/api/v1/ws${query}`);
      const messages: WsServerMessage[] = [];
      socket.on("message", (data) => {
        const parsed = WsServerMessage.safeParse(JSON.parse(data.toString()));
        if (parsed.success) messages.push(parsed.data);
      });
      socket.once("open", () => resolve({ socket, messages }));
      socket.once("error", reject);
    });
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it("streams tickers, trades, candles and depth snapshot then diffs in sequence", async () => {
    const { socket, messages } = await connect();
    await until(() => messages.some((m) => m.type === "welcome"));
    socket.send(
      JSON.stringify({
        op: "subscribe",
        requestId: "r1",
        channels: [
          { channel: "ticker", instrumentId: "BTCUSDT" },
          { channel: "trades", instrumentId: "BTCUSDT" },
          { channel: "candles", instrumentId: "BTCUSDT", interval: "1m" },
          { channel: "depth", instrumentId: "BTCUSDT" },
        ],
      }),
    );
    await until(() => messages.some((m) => m.type === "depth_snapshot"));
    expect(messages.find((m) => m.type === "subscribed")).toMatchObject({ requestId: "r1" });
    for (let i = 0; i < 5; i++) {
      nowMs += 1_000;
      market.service.step(nowMs);
    }
    await until(() => messages.filter((m) => m.type === "trade").length >= 5);
    await until(() => messages.filter((m) => m.type === "depth_diff").length >= 1);
    expect(messages.some((m) => m.type === "ticker")).toBe(true);
    expect(messages.some((m) => m.type === "candle")).toBe(true);
    let sequence = -1;
    for (const m of messages) {
      if (m.type === "depth_snapshot") sequence = m.data.sequence;
      if (m.type === "depth_diff") {
        expect(m.previousSequence).toBe(sequence);
        sequence = m.sequence;
      }
    }
    socket.close();
  });

  it("answers ping, rejects unknown instruments, private channels without auth and too many subscriptions", async () => {
    const { socket, messages } = await connect("?lang=fr");
    socket.send(JSON.stringify({ op: "ping", timeMs: 7 }));
    await until(() => messages.some((m) => m.type === "pong"));
    socket.send(
      JSON.stringify({ op: "subscribe", channels: [{ channel: "ticker", instrumentId: "NOPE" }] }),
    );
    await until(() => messages.some((m) => m.type === "error"));
    expect(messages.find((m) => m.type === "error")).toMatchObject({
      error: "instrument_not_found",
      message: "Cet instrument n'existe pas",
    });
    socket.send(JSON.stringify({ op: "subscribe", channels: [{ channel: "orders" }] }));
    await until(() => messages.filter((m) => m.type === "error").length === 2);
    expect(messages.filter((m) => m.type === "error")[1]).toMatchObject({ error: "unauthorized" });
    const ids = instruments.map((i) => i.id);
    const channels = [
      ...ids.map((instrumentId) => ({ channel: "ticker", instrumentId })),
      ...ids.map((instrumentId) => ({ channel: "trades", instrumentId })),
      ...ids.map((instrumentId) => ({ channel: "candles", instrumentId, interval: "1m" })),
    ];
    socket.send(JSON.stringify({ op: "subscribe", channels: channels.slice(0, 90) }));
    await until(() => messages.some((m) => m.type === "subscribed"));
    socket.send(JSON.stringify({ op: "subscribe", channels: channels.slice(90, 120) }));
    await until(() => messages.filter((m) => m.type === "error").length === 3);
    expect(messages.filter((m) => m.type === "error")[2]).toMatchObject({
      error: "subscription_limit_reached",
    });
    socket.close();
  });

  it("closes with 4000 after repeated bad messages and 4001 for a bad token", async () => {
    const bad = await connect();
    const closed = new Promise<number>((resolve) =>
      bad.socket.on("close", (code) => resolve(code)),
    );
    for (let i = 0; i < 3; i++) bad.socket.send("not json");
    expect(await closed).toBe(4000);
    const auth = await connect();
    const closedAuth = new Promise<number>((resolve) =>
      auth.socket.on("close", (code) => resolve(code)),
    );
    auth.socket.send(JSON.stringify({ op: "auth", token: "forged" }));
    expect(await closedAuth).toBe(4001);
  });

  it("drops a client that does not read (4008) instead of buffering without limit", async () => {
    const slow = await connect();
    slow.socket.send(
      JSON.stringify({
        op: "subscribe",
        channels: [{ channel: "trades", instrumentId: "ETHUSDT" }],
      }),
    );
    await until(() => slow.messages.some((m) => m.type === "subscribed"));
    const closed = new Promise<number>((resolve) =>
      slow.socket.on("close", (code) => resolve(code)),
    );
    // Stop reading from the socket, then publish far more than the send queue may hold.
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const big = { type: "padding", stream: "trades:ETHUSDT", pad: "x".repeat(64 * 1024) };
    for (let i = 0; i < 2_000 && market.hub.wants("trades:ETHUSDT"); i++) {
      market.hub.publish("trades:ETHUSDT", big);
    }
    expect(market.hub.wants("trades:ETHUSDT")).toBe(false);
    expect(market.hub.slowConsumersClosed).toBe(1);
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(4008);
  });

  it("closes silent connections after two heartbeats", async () => {
    const quiet = await connect();
    const closed = new Promise<number>((resolve) =>
      quiet.socket.on("close", (code) => resolve(code)),
    );
    await new Promise((r) => setTimeout(r, 20));
    nowMs += 3_000;
    market.hub.sweep(nowMs);
    expect(await closed).toBe(4009);
  });

  it("serves the same chart for the same seed from memory, from storage and on a second start", async () => {
    // Another server on the same seed and start time, with its own empty candle store.
    const fresh = await openDatabase({ kind: "pglite" });
    await migrate(fresh);
    const twin = await createMarketModule({
      database: fresh,
      now: () => startMs,
      backfillDays: 2,
      deferHistory: true,
    });
    await twin.startHistory();
    const eth = twin.service.instrument("ETHUSDT")!;
    const chart = (service: MarketModule["service"], interval: "1m" | "15m" | "1d") =>
      service.candles(eth, interval, { toMs: startMs, limit: 1000 }, startMs);
    const fromMemory = await Promise.all([chart(twin.service, "1m"), chart(twin.service, "15m")]);
    await twin.service.flush(); // the backfill, written in slices
    const stored = await Promise.all([chart(twin.service, "1m"), chart(twin.service, "15m")]);
    const first = await Promise.all([chart(market.service, "1m"), chart(market.service, "15m")]);
    expect(fromMemory[0]).toHaveLength(1_000);
    expect(stored).toEqual(fromMemory);
    expect(first).toEqual(fromMemory);
    await fresh.close();
  });

  it("resumes after a restart from the stored candles without rewriting history", async () => {
    await market.service.flush();
    const before = (await get("/api/v1/market/instruments/ETHUSDT/candles?interval=1h&limit=1000"))
      .body.data.candles;
    nowMs += 120_000;
    const again = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 2,
    });
    const ticker = again.service.ticker(again.service.instrument("ETHUSDT")!, nowMs);
    expect(ticker).toBeDefined();
    const after = await again.service.candles(
      again.service.instrument("ETHUSDT")!,
      "1h",
      { limit: 1000 },
      nowMs,
    );
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    expect(after.slice(0, before.length - 1).map((c) => c.close)).toEqual(
      before.slice(0, -1).map((c: { close: string }) => c.close),
    );
  });
});
