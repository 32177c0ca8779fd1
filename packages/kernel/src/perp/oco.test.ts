// OCO pairs on perpetuals (type code 82): a take-profit and a stop that end together, through
// the kernel with every invariant checked after every command. The harness market has no mark
// basis, so the mark is the index: 50,000.0 USDT = 500,000 ticks.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { decodeCommand, encodeCommand } from "../index.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { Random } from "../testing/simulate.ts";
import type { Command } from "../types.ts";
import { getPerpConditionalOrders, perpDirectionOf } from "./conditional.ts";
import type { PerpHarness } from "./kernel-testing.ts";
import { PERP, twoTraders as market } from "./kernel-testing.ts";

const USDT = 1_000_000n;

function oco(
  h: PerpHarness,
  ownerId: string,
  fields: {
    side: "buy" | "sell";
    takeProfit: number;
    stop: number;
    takeProfitPrice?: number | null;
    stopPrice?: number | null;
    lots?: number;
    mode?: "real" | "demo";
  },
) {
  return h.tryRun({
    type: "place_perp_oco_order",
    ownerId,
    mode: fields.mode ?? "real",
    marketId: PERP,
    side: fields.side,
    quantityLots: fields.lots ?? 2,
    reduceOnly: true,
    selfTradeMode: "cancel_resting",
    takeProfitTriggerTicks: fields.takeProfit,
    takeProfitPriceTicks: fields.takeProfitPrice ?? null,
    stopTriggerTicks: fields.stop,
    stopPriceTicks: fields.stopPrice ?? null,
  } as never);
}

function idOf(out: { result: { ok: boolean } }): number {
  expect(out.result.ok).toBe(true);
  return (out.result as unknown as { value: { orderId: number } }).value.orderId;
}

/** Alice long 2 lots at 50,000.0; bob's bids and asks either side for the legs to fill. */
function aliceLong() {
  const h = market();
  h.order("bob", "sell", 2, 500_000);
  h.order("alice", "buy", 2, 500_000);
  expect(h.account("alice")!.position.sizeLots).toBe(2n);
  return h;
}

const doneOf = (h: PerpHarness) =>
  h.eventsOf("perp_conditional_done").map((e) => [e.conditionalId, e.kind, e.status, e.reason]);

describe("perpetual OCO pairs", () => {
  it("a rising mark fires the take-profit; the stop ends first, so only one order is placed", () => {
    const h = aliceLong();
    const id = idOf(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000 }));
    const waiting = getPerpConditionalOrders(h.state, "alice", "real");
    expect(waiting.map((c) => [c.conditionalId, c.kind, c.ocoConditionalId])).toEqual([
      [id, "take_profit", id + 1],
      [id + 1, "stop", id],
    ]);
    expect(waiting.every((c) => c.clientOrderId === waiting[0]!.clientOrderId)).toBe(true);
    h.order("bob", "buy", 2, 505_500);
    h.tick("50400.0");
    expect(doneOf(h)).toEqual([]);
    const fired = h.tick("50550.0");
    const done = fired.events.filter((e) => e.type === "perp_conditional_done");
    expect(done.map((e) => [e.conditionalId, e.status, e.reason])).toEqual([
      [id + 1, "cancelled", "oco"],
      [id, "triggered", null],
    ]);
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
    expect(h.state.perp.conditionals.size).toBe(0);
    // The stop can never fire now: the mark falls through its trigger and nothing happens.
    h.tick("49000.0");
    expect(doneOf(h)).toHaveLength(2);
  });

  it("a falling mark fires the stop and ends the take-profit", () => {
    const h = aliceLong();
    const id = idOf(
      oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000, stopPrice: 494_000 }),
    );
    h.order("bob", "buy", 2, 494_500);
    h.tick("49450.0");
    expect(doneOf(h)).toEqual([
      [id, "take_profit", "cancelled", "oco"],
      [id + 1, "stop", "triggered", null],
    ]);
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
  });

  it("cancelling either leg ends both; a demo reset ends demo pairs", () => {
    const h = aliceLong();
    const id = idOf(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000 }));
    const cancel = (conditionalId: number) =>
      h.tryRun({
        type: "cancel_perp_conditional_order",
        ownerId: "alice",
        mode: "real",
        conditionalId,
      } as never).result;
    expect(cancel(id + 1)).toEqual({ ok: true, value: { orderId: id + 1 } });
    expect(doneOf(h)).toEqual([
      [id + 1, "stop", "cancelled", "user"],
      [id, "take_profit", "cancelled", "oco"],
    ]);
    expect(cancel(id)).toMatchObject({ ok: false, code: "order_not_found" });

    h.user("alice", 1_000n * USDT, "demo");
    oco(h, "alice", { side: "buy", takeProfit: 495_000, stop: 505_000, mode: "demo" });
    expect(getPerpConditionalOrders(h.state, "alice", "demo")).toHaveLength(2);
    h.run({ type: "reset_demo", ownerId: "alice", mode: "demo" } as never);
    expect(getPerpConditionalOrders(h.state, "alice", "demo")).toHaveLength(0);
    expect(
      doneOf(h)
        .slice(-2)
        .map((d) => d[3]),
    ).toEqual(["demo_reset", "demo_reset"]);
  });

  it("refuses a pair whose legs cannot both wait, and places neither leg", () => {
    const h = aliceLong();
    const next = h.state.perp.conditionalIdNext;
    const code = (out: { result: unknown }) => (out.result as { code?: string }).code;
    // A sell's take-profit must be above the mark and its stop below; a buy's the other way.
    expect(code(oco(h, "alice", { side: "sell", takeProfit: 495_000, stop: 490_000 }))).toBe(
      "trigger_would_fire_now",
    );
    expect(code(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 500_000 }))).toBe(
      "trigger_would_fire_now",
    );
    expect(code(oco(h, "alice", { side: "buy", takeProfit: 505_000, stop: 495_000 }))).toBe(
      "trigger_would_fire_now",
    );
    expect(code(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 0 }))).toBe(
      "price_must_be_positive",
    );
    expect(
      code(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000, stopPrice: -1 })),
    ).toBe("price_must_be_positive");
    expect(
      code(oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000, lots: 0 })),
    ).toBe("quantity_must_be_positive");
    expect(code(oco(h, "nobody", { side: "sell", takeProfit: 505_000, stop: 495_000 }))).toBe(
      "account_not_found",
    );
    expect(h.state.perp.conditionals.size).toBe(0);
    expect(h.state.perp.conditionalIdNext).toBe(next);
  });

  it("refuses a pair that would pass the open-order limit, even with one place left", () => {
    const h = aliceLong();
    const max = h.state.options.openOrdersPerOwnerMax;
    h.checkEvery = false;
    for (let i = 0; i < max - 1; i++) {
      h.run({
        type: "place_perp_conditional_order",
        ownerId: "alice",
        mode: "real",
        marketId: PERP,
        side: "buy",
        kind: "stop",
        orderType: "market",
        timeInForce: "ioc",
        triggerTicks: 600_000 + i,
        priceTicks: null,
        quantityLots: 1,
        reduceOnly: false,
        selfTradeMode: "cancel_resting",
      } as never);
    }
    const out = oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000 });
    expect(out.result).toMatchObject({ ok: false, code: "too_many_open_orders" });
    expect(h.state.perp.conditionals.size).toBe(max - 1);
  });

  it("round-trips through the codec and the snapshot, and fires the same after a restore", () => {
    const h = aliceLong();
    oco(h, "alice", { side: "sell", takeProfit: 505_000, stop: 495_000, takeProfitPrice: 505_500 });
    const command = h.commands.at(-1)!;
    expect(decodeCommand(encodeCommand(command))).toEqual(command);
    const restored = restore(snapshot(h.state));
    expect(stateHash(restored)).toBe(stateHash(h.state));
    expect(getPerpConditionalOrders(restored, "alice", "real")).toEqual(
      getPerpConditionalOrders(h.state, "alice", "real"),
    );
    const tick = {
      type: "record_tick",
      id: "next-tick",
      atMs: h.nowMs + 1,
      tickId: "t-next",
      instrumentId: "BTC-USDT",
      price: "49400.0",
      tickAtMs: h.nowMs + 1,
    } as unknown as Command;
    const a = apply(h.state, tick);
    const b = apply(restored, tick);
    expect(b.events).toEqual(a.events);
    expect(h.state.perp.conditionals.size).toBe(0);
    expect(stateHash(restored)).toBe(stateHash(h.state));
  });

  it("ends exactly what a naive scan says, pairs and single orders mixed (random streams)", () => {
    let fired = 0;
    let paired = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = new Random(seed);
      const h = market();
      let price = 500_000;
      for (let step = 0; step < 60; step++) {
        if (random.chance(0.6)) {
          const side = random.chance(0.5) ? "buy" : "sell";
          const owner = random.chance(0.5) ? "alice" : "bob";
          // A sell's take-profit waits above the mark, a buy's below; stops the other way.
          const up = random.int(1, 3_000);
          const down = random.int(1, 3_000);
          const [takeProfit, stop] =
            side === "sell" ? [price + up, price - down] : [price - down, price + up];
          if (random.chance(0.5)) {
            oco(h, owner, { side, takeProfit, stop, lots: random.int(1, 3) });
          } else {
            h.tryRun({
              type: "place_perp_conditional_order",
              ownerId: owner,
              mode: "real",
              marketId: PERP,
              side,
              kind: "stop",
              orderType: "market",
              timeInForce: "ioc",
              triggerTicks: stop,
              priceTicks: null,
              quantityLots: random.int(1, 3),
              reduceOnly: false,
              selfTradeMode: "cancel_resting",
            } as never);
          }
          continue;
        }
        price = Math.max(1_000, price + random.int(-2_500, 2_500));
        // The naive reference: every waiting order the mark reaches fires, and the other leg
        // of each fired pair is cancelled.
        const waiting = [...h.state.perp.conditionals.values()];
        const reached = waiting.filter((c) =>
          perpDirectionOf(c.kind, c.side) === "at_or_above"
            ? price >= c.triggerTicks
            : price <= c.triggerTicks,
        );
        const expected = [
          ...reached.map((c) => [c.conditionalId, "fired"]),
          ...reached.filter((c) => c.ocoWith !== 0).map((c) => [c.ocoWith, "cancelled"]),
        ].sort((a, b) => (a[0] as number) - (b[0] as number));
        const out = h.tick((price / 10).toFixed(1));
        const done = out.events
          .filter((e) => e.type === "perp_conditional_done")
          .map((e) => {
            const d = e as { conditionalId: number; status: string; reason: string | null };
            return [d.conditionalId, d.status === "cancelled" ? "cancelled" : "fired"];
          })
          .sort((a, b) => (a[0] as number) - (b[0] as number));
        expect(done).toEqual(expected);
        fired += reached.length;
        paired += reached.filter((c) => c.ocoWith !== 0).length;
      }
    }
    expect(fired).toBeGreaterThan(100);
    expect(paired).toBeGreaterThan(30);
  });
});
