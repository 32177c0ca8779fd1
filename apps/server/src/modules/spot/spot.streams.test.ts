import { WsServerMessage, type WsFill, type WsOrder } from "@candor/contract";
import type { Command } from "@candor/kernel";
import { instruments } from "@candor/market";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Unstamped } from "../../engine/engine.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { SpotRepository } from "./spot.repository.ts";
import { SpotStreams } from "./spot.streams.ts";
import { startTestEngine } from "./spot.testing.ts";

describeEachDatabase("spot private streams", (database) => {
  const nowMs = Date.parse("2026-11-23T13:00:00Z");
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  let streams: SpotStreams | undefined;
  const sent: { userId: string; mode: string; message: WsOrder | WsFill }[] = [];

  const submit = async (command: Unstamped<Command>) => {
    const applied = await running.engine.submit(command);
    expect(applied.result.ok, `${command.id}: ${JSON.stringify(applied.result)}`).toBe(true);
    return applied;
  };
  const limit = (id: string, ownerId: string, side: "buy" | "sell", lots: number) =>
    submit({
      type: "place_order",
      id,
      ownerId,
      mode: "real",
      marketId: "BTC-USDT",
      side,
      orderType: "limit",
      timeInForce: "gtc",
      priceTicks: 3_000_000,
      quantityLots: lots,
      quoteAmount: null,
    });

  beforeAll(async () => {
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) await submit(command);
    for (const [ownerId, assetId, amount] of [
      ["1", "BTC", 100_000_000n],
      ["2", "USDT", 100_000_000_000n],
    ] as const) {
      await submit({ type: "open_accounts", id: `open:${ownerId}`, ownerId, mode: "real" });
      await submit({
        type: "credit_deposit",
        id: `deposit:${ownerId}`,
        ownerId,
        mode: "real",
        assetId,
        amount,
        reference: `bank-${ownerId}`,
        operatorId: "operator",
      });
    }
  });
  afterAll(async () => {
    streams?.stop();
    await running?.close();
  });

  it("sends order and fill views; an order that traded before the streams started stays exact", async () => {
    // User 1 sells 1 BTC at 30000; user 2 takes a quarter of it before the streams start.
    await limit("sell-1", "1", "sell", 10_000);
    await limit("buy-1", "2", "buy", 2_500);
    await running.projector.flush();
    streams = await SpotStreams.start(running.engine, new SpotRepository(database()), {
      publishPrivate: (userId, mode, _stream, build) =>
        sent.push({ userId, mode, message: build() }),
    });

    await limit("buy-2", "2", "buy", 2_500);
    for (const { message } of sent) {
      expect(WsServerMessage.safeParse(message).success, JSON.stringify(message)).toBe(true);
    }
    const ordersOf = (userId: string) =>
      sent.filter((s) => s.userId === userId && s.message.type === "order").map((s) => s.message);
    expect(ordersOf("1").at(-1)?.data).toMatchObject({
      clientOrderId: "sell-1",
      status: "open",
      filledQuantity: "0.5",
      remainingQuantity: "0.5",
      filledQuote: "15000",
      averagePrice: "30000",
    });
    expect(ordersOf("2").at(-1)?.data).toMatchObject({
      clientOrderId: "buy-2",
      status: "filled",
      filledQuantity: "0.25",
      filledQuote: "7500",
    });
    const fills = sent.filter((s) => s.message.type === "fill");
    expect(fills.map((s) => [s.userId, s.message.data])).toEqual([
      ["1", expect.objectContaining({ role: "maker", side: "sell", quantity: "0.25", fee: "7.5" })],
      ["2", expect.objectContaining({ role: "taker", side: "buy", quantity: "0.25" })],
    ]);

    // Cancelling the rest: the last view of the order, with all it traded.
    const orderId = Number(ordersOf("1").at(-1)!.data.orderId);
    sent.length = 0;
    await submit({ type: "cancel_order", id: "cancel-1", ownerId: "1", mode: "real", orderId });
    expect(sent.map((s) => [s.userId, s.message.type])).toEqual([["1", "order"]]);
    expect(sent[0]!.message.data).toMatchObject({
      status: "cancelled",
      filledQuantity: "0.5",
      remainingQuantity: "0",
      filledQuote: "15000",
      averagePrice: "30000",
    });
  });
});
