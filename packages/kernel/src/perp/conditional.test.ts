// Conditional orders on perpetuals (stop-market, stop-limit, take-profit; type codes 49 and 80),
// through the kernel with every invariant checked after every command. The harness market has
// no mark basis, so the mark is the index: 50,000.0 USDT = 500,000 ticks.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { decodeCommand, encodeCommand } from "../index.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { Random } from "../testing/simulate.ts";
import type { Command } from "../types.ts";
import { getPerpConditionalOrders, perpDirectionOf } from "./conditional.ts";
import type { PerpHarness } from "./kernel-testing.ts";
import { PERP, twoTraders as market } from "./kernel-testing.ts";
import { getPerpOpenOrders } from "./queries.ts";

const USDT = 1_000_000n;

function conditional(
  h: PerpHarness,
  ownerId: string,
  fields: {
    side: "buy" | "sell";
    kind?: string;
    triggerTicks: number;
    priceTicks?: number | null;
    lots?: number;
    reduceOnly?: boolean;
    mode?: "real" | "demo";
    timeInForce?: string;
  },
) {
  const priceTicks = fields.priceTicks ?? null;
  return h.tryRun({
    type: "place_perp_conditional_order",
    ownerId,
    mode: fields.mode ?? "real",
    marketId: PERP,
    side: fields.side,
    kind: fields.kind ?? "stop",
    orderType: priceTicks === null ? "market" : "limit",
    timeInForce: fields.timeInForce ?? (priceTicks === null ? "ioc" : "gtc"),
    triggerTicks: fields.triggerTicks,
    priceTicks,
    quantityLots: fields.lots ?? 2,
    reduceOnly: fields.reduceOnly ?? false,
    selfTradeMode: "cancel_resting",
  } as never);
}

function idOf(out: { result: { ok: boolean } }): number {
  expect(out.result.ok).toBe(true);
  return (out.result as unknown as { value: { orderId: number } }).value.orderId;
}

describe("perpetual stop and take-profit orders", () => {
  it("a buy stop-market fires when the mark reaches its trigger and names the tick", () => {
    const h = market();
    h.order("bob", "sell", 2, 500_700);
    const id = idOf(conditional(h, "alice", { side: "buy", triggerTicks: 500_500 }));
    expect(getPerpConditionalOrders(h.state, "alice", "real")).toHaveLength(1);
    h.tick("50040.0");
    expect(h.eventsOf("perp_conditional_done")).toHaveLength(0);
    const fired = h.tick("50060.0");
    const done = fired.events.filter((e) => e.type === "perp_conditional_done");
    expect(done).toEqual([
      {
        type: "perp_conditional_done",
        conditionalId: id,
        marketId: PERP,
        mode: "real",
        ownerId: "alice",
        kind: "stop",
        side: "buy",
        triggerTicks: 500_500,
        quantityLots: 2,
        status: "triggered",
        reason: null,
        markTicks: 500_600n,
        tickIds: ["t3"],
        orderId: 2,
        rejectCode: null,
      },
    ]);
    // The market order bought bob's 2 lots at 500,700.
    expect(h.account("alice")!.position.sizeLots).toBe(2n);
    expect(getPerpConditionalOrders(h.state, "alice", "real")).toHaveLength(0);
  });

  it("a sell stop-limit places its limit order when the mark falls to the trigger", () => {
    const h = market();
    conditional(h, "alice", { side: "sell", triggerTicks: 499_000, priceTicks: 498_900, lots: 3 });
    h.tick("49950.0");
    expect(getPerpOpenOrders(h.state, "alice", "real")).toHaveLength(0);
    h.tick("49900.0"); // at the trigger: fires
    const open = getPerpOpenOrders(h.state, "alice", "real");
    expect(open.map((o) => [o.side, o.priceTicks, o.quantityLots])).toEqual([["sell", 498_900, 3]]);
  });

  it("a take-profit fires the other way: a sell above, a buy below", () => {
    expect(perpDirectionOf("take_profit", "sell")).toBe("at_or_above");
    expect(perpDirectionOf("take_profit", "buy")).toBe("at_or_below");
    expect(perpDirectionOf("stop", "sell")).toBe("at_or_below");
    expect(perpDirectionOf("stop", "buy")).toBe("at_or_above");
  });

  it("a reduce-only take-profit closes a long, and is refused at the trigger without one", () => {
    const h = market();
    h.order("bob", "sell", 2, 500_000);
    h.order("alice", "buy", 2, 500_000);
    expect(h.account("alice")!.position.sizeLots).toBe(2n);
    conditional(h, "alice", {
      side: "sell",
      kind: "take_profit",
      triggerTicks: 505_000,
      priceTicks: 505_000,
      reduceOnly: true,
    });
    // bob has no long: his reduce-only take-profit is refused when it fires.
    const bobs = idOf(
      conditional(h, "bob", {
        side: "buy",
        kind: "take_profit",
        triggerTicks: 499_000,
        reduceOnly: true,
        lots: 5,
      }),
    );
    h.order("bob", "buy", 2, 505_000); // liquidity for alice's take-profit, resting below it
    h.tick("50500.0");
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
    h.tick("49900.0");
    const refused = h.eventsOf("perp_conditional_done").find((e) => e.conditionalId === bobs)!;
    expect(refused).toMatchObject({
      status: "rejected",
      rejectCode: "reduce_only_would_increase",
      orderId: null,
      markTicks: 499_000n,
    });
    expect(refused.tickIds).toEqual([`t${h.tickSerial}`]);
  });

  it("is refused when the trigger is already reached, and on bad terms", () => {
    const h = market();
    const code = (out: { result: unknown }) => (out.result as { code?: string }).code;
    expect(code(conditional(h, "alice", { side: "buy", triggerTicks: 500_000 }))).toBe(
      "trigger_would_fire_now",
    );
    expect(code(conditional(h, "alice", { side: "sell", triggerTicks: 500_001 }))).toBe(
      "trigger_would_fire_now",
    );
    expect(code(conditional(h, "alice", { side: "buy", triggerTicks: 0 }))).toBe(
      "price_must_be_positive",
    );
    expect(code(conditional(h, "alice", { side: "buy", triggerTicks: 501_000, lots: 0 }))).toBe(
      "quantity_must_be_positive",
    );
    expect(code(conditional(h, "alice", { side: "buy", triggerTicks: 501_000, kind: "oco" }))).toBe(
      "conditional_kind_invalid",
    );
    expect(
      code(conditional(h, "alice", { side: "buy", triggerTicks: 501_000, timeInForce: "gtc" })),
    ).toBe("time_in_force_invalid");
    expect(
      code(conditional(h, "alice", { side: "buy", triggerTicks: 501_000, priceTicks: -5 })),
    ).toBe("price_must_be_positive");
    expect(h.state.perp.conditionals.size).toBe(0);
  });

  it("refuses the order at the trigger when the margin is not there (nothing is held before)", () => {
    const h = market();
    h.order("bob", "sell", 500, 501_000);
    const before = h.wallet("alice");
    conditional(h, "alice", { side: "buy", triggerTicks: 500_500, lots: 500 });
    expect(h.wallet("alice")).toEqual(before);
    h.tick("50060.0");
    expect(h.eventsOf("perp_conditional_done").at(-1)).toMatchObject({
      status: "rejected",
      rejectCode: "insufficient_margin",
    });
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
  });

  it("is cancelled by its owner only, and a demo reset ends the demo ones", () => {
    const h = market();
    const id = idOf(conditional(h, "alice", { side: "buy", triggerTicks: 501_000 }));
    const cancel = (ownerId: string, conditionalId: number, mode = "real") =>
      h.tryRun({
        type: "cancel_perp_conditional_order",
        ownerId,
        mode,
        conditionalId,
      } as never).result;
    expect(cancel("bob", id)).toMatchObject({ ok: false, code: "order_not_found" });
    expect(cancel("alice", id, "demo")).toMatchObject({ ok: false, code: "mode_mismatch" });
    expect(cancel("alice", id)).toEqual({ ok: true, value: { orderId: id } });
    expect(cancel("alice", id)).toMatchObject({ ok: false, code: "order_not_found" });
    h.tick("50200.0");
    expect(h.eventsOf("perp_conditional_done").map((e) => [e.status, e.reason])).toEqual([
      ["cancelled", "user"],
    ]);

    h.user("alice", 1_000n * USDT, "demo");
    conditional(h, "alice", { side: "sell", triggerTicks: 490_000, mode: "demo" });
    h.run({ type: "reset_demo", ownerId: "alice", mode: "demo" } as never);
    expect(getPerpConditionalOrders(h.state, "alice", "demo")).toHaveLength(0);
    expect(h.eventsOf("perp_conditional_done").at(-1)).toMatchObject({
      status: "cancelled",
      reason: "demo_reset",
    });
  });

  it("round-trips through the codec and the snapshot, and fires the same after a restore", () => {
    const h = market();
    h.order("bob", "sell", 2, 500_700);
    conditional(h, "alice", { side: "buy", triggerTicks: 500_500 });
    conditional(h, "alice", { side: "sell", triggerTicks: 499_000, priceTicks: 498_000 });
    for (const command of h.commands.slice(-2)) {
      const bytes = encodeCommand(command);
      expect(decodeCommand(bytes)).toEqual(command as Command);
    }
    const restored = restore(snapshot(h.state));
    expect(stateHash(restored)).toBe(stateHash(h.state));
    const tick = {
      type: "record_tick",
      id: "next-tick",
      atMs: h.nowMs + 1,
      tickId: "t-next",
      instrumentId: "BTC-USDT",
      price: "50060.0",
      tickAtMs: h.nowMs + 1,
    } as unknown as Command;
    apply(h.state, tick);
    apply(restored, tick);
    expect(h.state.perp.conditionals.size).toBe(1);
    expect(stateHash(restored)).toBe(stateHash(h.state));
  });

  it("fires exactly the orders a naive scan says the mark reaches (random streams)", () => {
    let fired = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = new Random(seed);
      const h = market();
      let price = 500_000;
      for (let step = 0; step < 60; step++) {
        if (random.chance(0.6)) {
          const side = random.chance(0.5) ? "buy" : "sell";
          const kind = random.chance(0.5) ? "stop" : "take_profit";
          const above = perpDirectionOf(kind, side) === "at_or_above";
          const away = random.int(1, 3_000);
          conditional(h, random.chance(0.5) ? "alice" : "bob", {
            side,
            kind,
            triggerTicks: above ? price + away : price - away,
            lots: random.int(1, 3),
          });
          continue;
        }
        price = Math.max(1_000, price + random.int(-2_500, 2_500));
        // The naive reference: every waiting order whose trigger this mark reaches.
        const expected = [...h.state.perp.conditionals.values()]
          .filter((c) =>
            perpDirectionOf(c.kind, c.side) === "at_or_above"
              ? price >= c.triggerTicks
              : price <= c.triggerTicks,
          )
          .map((c) => c.conditionalId)
          .sort((a, b) => a - b);
        const out = h.tick((price / 10).toFixed(1));
        const done = out.events
          .filter((e) => e.type === "perp_conditional_done")
          .map((e) => (e as { conditionalId: number }).conditionalId)
          .sort((a, b) => a - b);
        expect(done).toEqual(expected);
        fired += done.length;
      }
    }
    expect(fired).toBeGreaterThan(100);
  });
});
