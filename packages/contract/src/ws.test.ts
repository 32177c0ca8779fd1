import { describe, expect, it } from "vitest";
import { CandlesQuery, InstrumentView } from "./market.ts";
import { streamKey, WsClientMessage, WsServerMessage, wsSubscriptionsMax } from "./ws.ts";

describe("WebSocket protocol", () => {
  it("accepts the documented client messages", () => {
    const subscribe = WsClientMessage.parse({
      op: "subscribe",
      requestId: "1",
      channels: [
        { channel: "ticker", instrumentId: "BTCUSDT" },
        { channel: "depth", instrumentId: "BTCUSDT" },
        { channel: "candles", instrumentId: "0700.HK", interval: "1m" },
        { channel: "orders" },
      ],
    });
    expect(subscribe.op === "subscribe" && subscribe.channels.map(streamKey)).toEqual([
      "ticker:BTCUSDT",
      "depth:BTCUSDT:real",
      "candles:0700.HK:1m",
      "orders",
    ]);
    expect(WsClientMessage.parse({ op: "ping", timeMs: 1 })).toEqual({ op: "ping", timeMs: 1 });
  });
  it("rejects unknown ops, bad channels and too many channels", () => {
    expect(WsClientMessage.safeParse({ op: "hack" }).success).toBe(false);
    expect(
      WsClientMessage.safeParse({
        op: "subscribe",
        channels: [{ channel: "ticker", instrumentId: "a b" }],
      }).success,
    ).toBe(false);
    const many = Array.from({ length: wsSubscriptionsMax + 1 }, () => ({ channel: "orders" }));
    expect(WsClientMessage.safeParse({ op: "subscribe", channels: many }).success).toBe(false);
  });
  it("describes depth diffs with the previous sequence", () => {
    const diff = {
      type: "depth_diff",
      stream: "depth:BTCUSDT:real",
      instrumentId: "BTCUSDT",
      sequence: 8,
      previousSequence: 7,
      bids: [["95000.00", "0"]],
      asks: [["95001.00", "0.5"]],
      atMs: 1,
    };
    expect(WsServerMessage.parse(diff)).toEqual(diff);
    expect(WsServerMessage.safeParse({ ...diff, bids: [[95000, 1]] }).success).toBe(false);
  });
  it("keeps prices as decimal strings", () => {
    expect(CandlesQuery.parse({})).toEqual({ interval: "1h", limit: 300 });
    expect(CandlesQuery.safeParse({ limit: "5000" }).success).toBe(false);
    expect(InstrumentView.shape.tickSize.safeParse(0.01).success).toBe(false);
  });
  it("sends private streams as contract views with decimal strings, not kernel events", () => {
    const order = {
      type: "order",
      stream: "orders",
      data: {
        orderId: "12",
        clientOrderId: "client-000001",
        instrumentId: "BTCUSDT",
        marketId: "BTC-USDT",
        mode: "real",
        side: "buy",
        type: "limit",
        timeInForce: "gtc",
        price: "30000",
        quantity: "0.5",
        quoteAmount: null,
        filledQuantity: "0.2",
        remainingQuantity: "0.3",
        filledQuote: "6000",
        averagePrice: "30000",
        status: "open",
        createdAtMs: 1,
      },
    };
    const balances = {
      type: "balances",
      stream: "balances",
      data: {
        mode: "demo",
        balances: [
          {
            ownerId: "100001",
            mode: "demo",
            wallet: "fund",
            asset: "USDT",
            decimals: 6,
            available: "99700.5",
            held: "0",
            total: "99700.5",
          },
        ],
      },
    };
    expect(WsServerMessage.parse(order)).toEqual(order);
    expect(WsServerMessage.parse(balances)).toEqual(balances);
    // A raw kernel event is not a message: ticks, lots and smallest units are not views.
    const raw = { type: "order", stream: "orders", data: { orderId: 12, priceTicks: 3_000_000 } };
    expect(WsServerMessage.safeParse(raw).success).toBe(false);
    const rawBalance = { ...balances.data.balances[0], available: 99_700_500_000 };
    expect(
      WsServerMessage.safeParse({ ...balances, data: { mode: "demo", balances: [rawBalance] } })
        .success,
    ).toBe(false);
    expect(WsServerMessage.safeParse({ ...order, stream: "fills" }).success).toBe(false);
  });
});
