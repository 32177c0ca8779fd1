// The labelled market maker on the perpetual books: funds its demo contract wallet once from
// the demo faucet, then keeps post-only levels each side of the mark, through ordinary commands.

import {
  getBalance,
  getPerpMarkets,
  getPerpOpenOrders,
  getPerpPositions,
  type Command,
} from "@candor/kernel";
import { instruments } from "@candor/market";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Unstamped } from "../../engine/engine.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { startTestEngine } from "../spot/spot.testing.ts";
import { defaultPerpMarkets, PerpMarketMaker, perpSetupCommands } from "./perp.markets.ts";

describeEachDatabase("perpetual market maker", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  const submit = async (command: Unstamped<Command>) => {
    const applied = await running.engine.submit(command);
    expect(applied.result.ok, `${command.id}: ${JSON.stringify(applied.result)}`).toBe(true);
  };

  beforeAll(async () => {
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) await submit(command);
    for (const command of perpSetupCommands(defaultPerpMarkets)) await submit(command);
    await submit({
      type: "record_tick",
      id: "tick:1",
      tickId: "t1",
      instrumentId: "BTCUSDT",
      price: "30000",
      tickAtMs: nowMs,
    });
  });
  afterAll(async () => {
    await running?.close();
  });

  it("quotes both sides of the mark in demo, and requotes only when needed", async () => {
    const maker = new PerpMarketMaker(running.engine, { modes: ["demo"], levels: 3 });
    await maker.refresh(nowMs);
    const owner = "system:market_maker";
    const orders = running.engine.query((s) => getPerpOpenOrders(s, owner, "demo"));
    expect(orders.filter((o) => o.marketId === "BTC-PERP")).toHaveLength(6);
    const market = running.engine
      .query((s) => getPerpMarkets(s, "demo"))
      .find((m) => m.marketId === "BTC-PERP")!;
    // 5 bps each side of 30,000.0 (300,000 ticks).
    expect(market.bestBidTicks).toBe(299_850);
    expect(market.bestAskTicks).toBe(300_150);
    const wallet = running.engine.query((s) => getBalance(s, owner, "demo", "contract", "USDT"));
    expect(wallet.held).toBeGreaterThan(0n);
    // Nothing moved: no requote.
    nowMs += 1_000;
    await maker.refresh(nowMs);
    expect(running.engine.query((s) => getPerpOpenOrders(s, owner, "demo"))).toEqual(orders);
  });

  it("follows an operator's lower leverage cap so it keeps quoting (issue 17)", async () => {
    const maker = new PerpMarketMaker(running.engine, { modes: ["demo"], levels: 3 });
    const owner = "system:market_maker";
    await submit({
      type: "set_perp_market_terms",
      id: "terms:btc:1",
      marketId: "BTC-PERP",
      feeBpsMaker: 2,
      feeBpsTaker: 5,
      leverageMax: 5,
      operatorId: "op-1",
    });
    nowMs += 60_000;
    await maker.refresh(nowMs);
    const record = running.engine
      .query((s) => getPerpPositions(s, owner, "demo"))
      .find((p) => p.marketId === "BTC-PERP")!;
    expect(record.leverage).toBe(5);
    const orders = running.engine
      .query((s) => getPerpOpenOrders(s, owner, "demo"))
      .filter((o) => o.marketId === "BTC-PERP");
    expect(orders).toHaveLength(6);
  });
});
