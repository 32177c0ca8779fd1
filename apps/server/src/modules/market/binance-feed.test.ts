import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { instruments, type Tick } from "@candor/market";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { BinanceFeed } from "./binance-feed.ts";

const fixture = readFileSync(
  new URL("../../../../../packages/market/fixtures/binance-combined.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "");

describe("Binance adapter against a local server replaying the recorded stream", () => {
  let server: WebSocketServer;
  let baseUrl = "";
  const requestedUrls: string[] = [];

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    baseUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Each connection gets the whole recording, then the server hangs up, as a venue does
    // on maintenance: the adapter must reconnect by itself.
    server.on("connection", (socket, request) => {
      requestedUrls.push(request.url ?? "");
      for (const line of fixture) socket.send(line);
      socket.close(1001, "going away");
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("connects, parses every trade and reconnects after the server closes", async () => {
    const feed = new BinanceFeed({ baseUrl, instruments, reconnectDelayMs: 20 });
    expect(feed.instrumentIds).toContain("BTCUSDT");
    const ticks: Tick[] = [];
    for await (const tick of feed.ticks()) {
      ticks.push(tick);
      if (ticks.length === 120) break;
    }
    await feed.close();
    expect(feed.connects).toBeGreaterThanOrEqual(2);
    expect(feed.parseErrors).toBe(0);
    expect(requestedUrls[0]).toMatch(/^\/stream\?streams=btcusdt@trade\/ethusdt@trade\//);
    // The second connection replays the same recording: same ticks in the same order.
    expect(ticks.slice(60)).toEqual(ticks.slice(0, 60));
    expect(ticks[0]).toEqual({
      instrumentId: "BTCUSDT",
      atMs: 1763892000139,
      price: 9_501_603n,
      quantity: 2_712n,
      source: "binance",
    });
    expect(new Set(ticks.map((t) => t.instrumentId))).toEqual(
      new Set(["BTCUSDT", "ETHUSDT", "SOLUSDT"]),
    );
  });

  it("ends its tick stream when closed", async () => {
    const feed = new BinanceFeed({
      baseUrl: "ws://127.0.0.1:9",
      instruments,
      reconnectDelayMs: 10,
    });
    const done = (async () => {
      let count = 0;
      for await (const _tick of feed.ticks()) count += 1;
      return count;
    })();
    await new Promise((r) => setTimeout(r, 50));
    await feed.close();
    expect(await done).toBe(0);
    expect(feed.connects).toBeGreaterThanOrEqual(1);
  });
});
