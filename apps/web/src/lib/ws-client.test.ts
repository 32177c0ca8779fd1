import {
  streamKey as contractStreamKey,
  wsPath as contractWsPath,
  type Channel,
} from "@candor/contract";
import { describe, expect, it } from "vitest";
import { MarketSocket, readServerMessage, streamKey, wsPath } from "./ws-client.ts";

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

  it("subscribes channel by channel, and private channels only when signed in", () => {
    class FakeSocket {
      static OPEN = 1;
      static last: FakeSocket | undefined;
      readyState = 0;
      sent: { op: string; channels?: Channel[]; token?: string }[] = [];
      onopen: (() => void) | null = null;
      onmessage: ((event: { data: string }) => void) | null = null;
      onclose: (() => void) | null = null;
      constructor() {
        FakeSocket.last = this;
      }
      send(text: string) {
        this.sent.push(JSON.parse(text));
      }
      close() {}
    }
    const original = globalThis.WebSocket;
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
    try {
      const sut = new MarketSocket(
        () => "ws://test/api/v1/ws",
        () => true,
      );
      sut.subscribe({ channel: "depth", instrumentId: "BTCUSDT", mode: "demo" }, () => {});
      sut.subscribe({ channel: "orders" }, () => {});
      sut.subscribe({ channel: "ticker", instrumentId: "BTCUSDT" }, () => {});
      const socket = FakeSocket.last!;
      socket.readyState = FakeSocket.OPEN;
      socket.onopen!();
      // One channel per message: a refused one takes no other with it.
      expect(socket.sent.map((m) => m.channels![0]!.channel)).toEqual([
        "depth",
        "orders",
        "ticker",
      ]);
      // Another session signs in: a new connection, authenticated again; the old one is inert.
      sut.renewIdentity();
      const renewed = FakeSocket.last!;
      expect(renewed).not.toBe(socket);
      socket.onclose!();
      renewed.readyState = FakeSocket.OPEN;
      renewed.onopen!();
      expect(renewed.sent).toHaveLength(3);
      // Without a session, private channels are never asked for.
      const anonymous = new MarketSocket(() => "ws://test/api/v1/ws");
      anonymous.subscribe({ channel: "fills" }, () => {});
      FakeSocket.last!.readyState = FakeSocket.OPEN;
      FakeSocket.last!.onopen!();
      expect(FakeSocket.last!.sent).toEqual([]);
    } finally {
      globalThis.WebSocket = original;
    }
  });
});
