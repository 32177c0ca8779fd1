import {
  streamKey as contractStreamKey,
  wsPath as contractWsPath,
  type Channel,
} from "@candor/contract";
import { describe, expect, it } from "vitest";
import { readServerMessage, streamKey, wsPath } from "./ws-client.ts";

describe("ws client", () => {
  it("names streams and the path exactly as the contract does", () => {
    const channels: Channel[] = [
      { channel: "ticker", instrumentId: "BTCUSDT" },
      { channel: "trades", instrumentId: "AAPL" },
      { channel: "depth", instrumentId: "BTCUSDT", mode: "demo" },
      { channel: "candles", instrumentId: "EURUSD", interval: "1m" },
      { channel: "orders" },
    ];
    for (const channel of channels) expect(streamKey(channel)).toBe(contractStreamKey(channel));
    expect(wsPath).toBe(contractWsPath);
  });

  it("drops frames that are not messages", () => {
    expect(readServerMessage("not json")).toBeUndefined();
    expect(readServerMessage("42")).toBeUndefined();
    expect(readServerMessage('{"stream":"ticker:X"}')).toBeUndefined();
    expect(readServerMessage('{"type":"ticker","stream":"ticker:X"}')).toBeUndefined();
    expect(readServerMessage('{"type":"pong","serverTimeMs":1}')).toEqual({
      type: "pong",
      serverTimeMs: 1,
    });
  });
});
