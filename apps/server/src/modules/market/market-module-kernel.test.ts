import {
  apply,
  checkInvariants,
  createKernelState,
  getLastTick,
  type Command,
} from "@candor/kernel";
import { WsServerMessage } from "@candor/contract";
import { expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../../app.ts";
import type { Unstamped } from "../../engine/engine.ts";
import type { CandorApplied, CandorEngine } from "../../engine/kernel-port.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { createMarketModule } from "./market.module.ts";

// The market module is tested with the kernel behind the same submit/query/subscribe shape the
// engine has, without a journal.
describeEachDatabase("market module with a kernel", (database) => {
  it("defines spot markets, records ticks, funds and runs the market maker, serves kernel depth", async () => {
    const state = createKernelState({});
    let nowMs = Date.parse("2026-11-23T15:00:00Z");
    const listeners: ((applied: CandorApplied) => void)[] = [];
    let sequence = 0n;
    const kernel = {
      async submit(command: Unstamped<Command>) {
        const stamped = { ...command, atMs: nowMs } as Command;
        const step = apply(state, stamped);
        const applied = { ...step, sequence: ++sequence, command: stamped, replay: false };
        for (const listener of listeners) listener(applied);
        return applied;
      },
      query: <T>(fn: (s: typeof state) => T) => fn(state),
      subscribe(listener: (applied: CandorApplied) => void) {
        listeners.push(listener);
        return () => {};
      },
      recall: () => undefined,
    };
    const market = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 1,
      kernel,
      authenticate: async (token) =>
        token === "good-token" ? { userId: "100001", mode: "demo" } : null,
    });
    nowMs += 2_000;
    market.service.step(nowMs);
    await new Promise((r) => setTimeout(r, 0));
    expect(getLastTick(state, "BTCUSDT")?.tickAtMs).toBe(nowMs);

    // Public trades are the recorded ticks: the tape's tick id, numbered by the journal
    // sequence of their record_tick, each linked to the instrument's trade before it.
    type TradeMessage = { sequence: number; previousSequence: number | null; data: { id: string } };
    const published: TradeMessage[] = [];
    const tickSequences = new Map<string, number>();
    kernel.subscribe((applied) => {
      const command = applied.command;
      if (
        command.type === "record_tick" &&
        command.instrumentId === "BTCUSDT" &&
        applied.result.ok
      ) {
        tickSequences.set(command.tickId, Number(applied.sequence));
      }
    });
    market.service.attachPublisher({
      wants: (stream) => stream === "trades:BTCUSDT",
      publish: (_stream, message) => published.push(message as TradeMessage),
    });
    for (let i = 0; i < 3; i++) {
      nowMs += 1_000;
      market.service.step(nowMs);
    }
    await new Promise((r) => setTimeout(r, 0));
    market.service.attachPublisher(market.hub);
    expect(published.length).toBeGreaterThanOrEqual(3);
    for (const [i, trade] of published.entries()) {
      expect(trade.sequence).toBe(tickSequences.get(trade.data.id));
      if (i > 0) expect(trade.previousSequence).toBe(published[i - 1]!.sequence);
    }
    // Other records (ticks of other instruments) lie between: sequences rise, not by one.
    expect(published.at(-1)!.sequence - published[0]!.sequence).toBeGreaterThan(
      published.length - 1,
    );
    // Demo side is funded automatically; the real side waits for an operator credit.
    expect(await market.marketMaker!.refresh(market.service.lastPrices(), nowMs)).toBeGreaterThan(
      0,
    );
    const btc = market.service.instrument("BTCUSDT")!;
    const demo = market.service.depth(btc, "demo", 5, nowMs);
    expect(demo.source).toBe("order_book");
    expect(demo.bids).toHaveLength(5);
    expect(demo.asks).toHaveLength(5);
    expect(Number(demo.bids[0]![0])).toBeLessThan(Number(demo.asks[0]![0]));
    expect(market.service.depth(btc, "real", 5, nowMs).bids).toEqual([]);
    expect(market.service.depth(market.service.instrument("AAPL")!, "real", 5, nowMs).source).toBe(
      "simulated",
    );
    checkInvariants(state);

    // A signed-in user gets their own orders, fills and balances, and nobody else's.
    const operatorToken = "operator-token-0123456789";
    // The fake has the engine's submit, query, subscribe and recall: enough for the private
    // streams of the spot and wallet modules.
    const engine = kernel as unknown as CandorEngine;
    const app = await buildApp({
      database: database(),
      now: () => nowMs,
      market,
      operatorToken,
      engine,
    });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      // Real inventory only by an operator's credit; bad input changes nothing.
      const fund = (payload: unknown, token?: string) =>
        app.inject({
          method: "POST",
          url: "/api/v1/operator/market-maker/funding",
          payload: payload as Record<string, unknown>,
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
      const good = {
        id: "f1",
        assetId: "USDT",
        amount: "1000000",
        reference: "bank-123",
        reason: "market maker inventory",
      };
      expect((await fund(good)).statusCode).toBe(401);
      expect((await fund({ ...good, amount: "-5" }, operatorToken)).statusCode).toBe(400);
      expect((await fund({ ...good, amount: "1.0000001" }, operatorToken)).statusCode).toBe(400);
      expect((await fund({ ...good, assetId: "NOPE" }, operatorToken)).statusCode).toBe(400);
      expect((await fund({ ...good, extra: 1 }, operatorToken)).statusCode).toBe(400);
      expect(market.service.depth(btc, "real", 5, nowMs).bids).toEqual([]);
      const credited = await fund(good, operatorToken);
      expect(credited.statusCode).toBe(200);
      expect(credited.json().data).toEqual({ credited: true, duplicate: false });
      expect((await fund(good, operatorToken)).json().data.duplicate).toBe(true);
      nowMs += 31_000;
      await market.marketMaker!.refresh(market.service.lastPrices(), nowMs);
      expect(market.service.depth(btc, "real", 5, nowMs).bids).toHaveLength(5);

      const socket = new WebSocket(`${address.replace("http", "ws")}/api/v1/ws`);
      const messages: { type: string; stream?: string; data?: Record<string, unknown> }[] = [];
      socket.on("message", (data) => messages.push(JSON.parse(data.toString())));
      await new Promise((resolve) => socket.once("open", resolve));
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
        expect(check()).toBe(true);
      };
      socket.send(JSON.stringify({ op: "auth", token: "good-token" }));
      await until(() => messages.some((m) => m.type === "auth_ok"));
      socket.send(
        JSON.stringify({
          op: "subscribe",
          channels: [{ channel: "orders" }, { channel: "fills" }, { channel: "balances" }],
        }),
      );
      await until(() => messages.some((m) => m.type === "subscribed"));
      await kernel.submit({
        type: "open_accounts",
        id: "open-100001",
        ownerId: "100001",
        mode: "demo",
      });
      await kernel.submit({
        type: "place_order",
        id: "buy-1",
        ownerId: "100001",
        mode: "demo",
        marketId: "BTC-USDT",
        side: "buy",
        orderType: "market",
        timeInForce: "ioc",
        priceTicks: null,
        quantityLots: 10,
        quoteAmount: null,
      });
      await until(() => messages.some((m) => m.type === "fill"));
      expect(messages.some((m) => m.type === "order")).toBe(true);
      const balances = messages.filter((m) => m.type === "balances");
      expect(balances.length).toBeGreaterThan(0);
      for (const m of balances) {
        for (const b of m.data!.balances as { ownerId: string }[]) expect(b.ownerId).toBe("100001");
      }
      // Every private message is a contract view (decimal strings), not a kernel event.
      for (const m of messages.filter((m) => ["order", "fill", "balances"].includes(m.type))) {
        expect(WsServerMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
      }
      socket.close();
    } finally {
      await app.close();
    }
  });
});
