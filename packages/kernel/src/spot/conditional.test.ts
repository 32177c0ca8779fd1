// Hand-checked scenarios: self-trade prevention modes, the size-only amend, stop / take-profit
// orders and OCO pairs. Market BTC-USDT: price step 0.01, lot 0.001 BTC (100,000 sat); one lot
// at one tick is 10 USDT units (6 decimals). Every scenario runs on both books.
import { describe, expect, it } from "vitest";
import { bookFactories } from "../book/testing.ts";
import type { OrderBookFactory } from "../book/types.ts";
import { checkInvariants } from "../invariants.ts";
import { apply, createKernelState } from "../index.ts";
import type { Command, Event } from "../index.ts";
import { getBalance, getConditionalOrders, getDepth, getOpenOrders } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { CommandMaker } from "../testing/commands.ts";

const LOT = 100_000n;

function setup(factory: OrderBookFactory) {
  const state = createKernelState({}, factory);
  const c = new CommandMaker();
  const run = (command: Command) => {
    const out = apply(state, command);
    checkInvariants(state);
    return out;
  };
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 0, feeBpsTaker: 0 }),
    c.session("BTC-USDT", true),
    c.tick("BTC-USDT", "100.00"),
  ]) {
    expect(run(command).result.ok).toBe(true);
  }
  for (const owner of ["a", "b", "c"]) {
    run(c.open(owner));
    run(c.deposit(owner, "BTC", 10n * LOT));
    run(c.deposit(owner, "USDT", 1_000_000n));
  }
  const balance = (owner: string, asset: string) => {
    const b = getBalance(state, owner, "real", "fund", asset);
    return [b.available, b.held];
  };
  return { state, c, run, balance };
}

function ofType<T extends Event["type"]>(events: readonly Event[], type: T) {
  return events.filter((e): e is Extract<Event, { type: T }> => e.type === type);
}

function ok(out: { result: { ok: boolean } }): Record<string, unknown> {
  expect(out.result).toMatchObject({ ok: true });
  return (out.result as unknown as { value: Record<string, unknown> }).value;
}

describe.each(bookFactories)("spot orders beyond limit and market: %s book", (_name, factory) => {
  describe("self-trade prevention", () => {
    // b sells 1 lot at 10000 first, then a sells 2 at 10000; a buys 3 at 10001.
    function scene(mode: string) {
      const s = setup(factory);
      ok(s.run(s.c.limit("b", "BTC-USDT", "sell", 10_000, 1)));
      const own = ok(s.run(s.c.limit("a", "BTC-USDT", "sell", 10_000, 2))).orderId as number;
      const out = s.run(s.c.limitStp("a", "BTC-USDT", "buy", 10_001, 3, mode));
      return { ...s, own, out };
    }

    it("cancel_resting removes a's resting sell and the buy rests what is left", () => {
      const { out, own, state, balance } = scene("cancel_resting");
      expect(ok(out)).toMatchObject({ orderStatus: "open", filledLots: 1, restingLots: 2 });
      const cancelled = ofType(out.events, "order_cancelled");
      expect(cancelled.map((e) => [e.orderId, e.reason])).toEqual([[own, "self_trade"]]);
      expect(getDepth(state, "BTC-USDT", "real", 5)?.bids).toEqual([
        { priceTicks: 10_001, quantityLots: 2, orderCount: 1 },
      ]);
      // a bought 1 lot for 100,000 units and holds 2 × 10001 × 10 for the rest.
      expect(balance("a", "USDT")).toEqual([1_000_000n - 100_000n - 200_020n, 200_020n]);
    });

    it("cancel_incoming keeps a's resting sell and cancels the rest of the buy", () => {
      const { out, own, state, balance } = scene("cancel_incoming");
      expect(ok(out)).toMatchObject({ orderStatus: "cancelled", filledLots: 1, restingLots: 0 });
      const cancelled = ofType(out.events, "order_cancelled");
      expect(cancelled.map((e) => [e.orderId, e.reason])).toEqual([[own + 1, "self_trade"]]);
      expect(getOpenOrders(state, "a", "real").map((o) => o.orderId)).toEqual([own]);
      expect(getDepth(state, "BTC-USDT", "real", 5)?.bids).toEqual([]);
      expect(balance("a", "USDT")).toEqual([1_000_000n - 100_000n, 0n]);
    });

    it("cancel_both cancels the resting sell and the rest of the buy", () => {
      const { out, own, state, balance } = scene("cancel_both");
      expect(ok(out)).toMatchObject({ orderStatus: "cancelled", filledLots: 1, restingLots: 0 });
      const cancelled = ofType(out.events, "order_cancelled");
      expect(cancelled.map((e) => [e.orderId, e.reason])).toEqual([
        [own, "self_trade"],
        [own + 1, "self_trade"],
      ]);
      expect(getOpenOrders(state, "a", "real")).toEqual([]);
      expect(balance("a", "BTC")).toEqual([11n * LOT, 0n]);
    });

    it("refuses an unknown mode", () => {
      const s = setup(factory);
      const out = s.run(s.c.limitStp("a", "BTC-USDT", "buy", 10_000, 1, "cancel_newest"));
      expect(out.result).toEqual({ ok: false, code: "self_trade_mode_invalid" });
    });

    it("a replaced order keeps its mode", () => {
      const s = setup(factory);
      const own = ok(s.run(s.c.limit("a", "BTC-USDT", "sell", 10_010, 1))).orderId as number;
      const buy = ok(s.run(s.c.limitStp("a", "BTC-USDT", "buy", 9_990, 1, "cancel_incoming")));
      const out = s.run(s.c.replace("a", buy.orderId as number, 10_010, 1));
      expect(ok(out)).toMatchObject({ orderStatus: "cancelled", filledLots: 0 });
      expect(getOpenOrders(s.state, "a", "real").map((o) => o.orderId)).toEqual([own]);
    });
  });

  describe("amend_order_size", () => {
    it("a smaller size keeps the queue place and releases the hold it no longer needs", () => {
      const s = setup(factory);
      const first = ok(s.run(s.c.limit("a", "BTC-USDT", "sell", 10_000, 5))).orderId as number;
      const second = ok(s.run(s.c.limit("b", "BTC-USDT", "sell", 10_000, 5))).orderId as number;
      const out = s.run(s.c.amend("a", first, 2));
      expect(ok(out)).toMatchObject({ orderStatus: "open", restingLots: 2 });
      expect(ofType(out.events, "order_amended")).toEqual([
        {
          type: "order_amended",
          orderId: first,
          remainingLots: 2,
          heldAmount: 2n * LOT,
          releasedAmount: 3n * LOT,
        },
      ]);
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 2n * LOT]);
      const buy = s.run(s.c.limit("c", "BTC-USDT", "buy", 10_000, 3));
      expect(ofType(buy.events, "fill").map((f) => [f.makerOrderId, f.quantityLots])).toEqual([
        [first, 2],
        [second, 1],
      ]);
    });

    it("a larger size loses the queue place and holds the extra funds", () => {
      const s = setup(factory);
      const first = ok(s.run(s.c.limit("a", "BTC-USDT", "sell", 10_000, 2))).orderId as number;
      const second = ok(s.run(s.c.limit("b", "BTC-USDT", "sell", 10_000, 2))).orderId as number;
      expect(ok(s.run(s.c.amend("a", first, 4)))).toMatchObject({ restingLots: 4 });
      expect(s.balance("a", "BTC")).toEqual([6n * LOT, 4n * LOT]);
      const buy = s.run(s.c.limit("c", "BTC-USDT", "buy", 10_000, 3));
      expect(ofType(buy.events, "fill").map((f) => [f.makerOrderId, f.quantityLots])).toEqual([
        [second, 2],
        [first, 1],
      ]);
    });

    it("refuses a size the owner cannot fund, a zero size and another owner's order", () => {
      const s = setup(factory);
      const id = ok(s.run(s.c.limit("a", "BTC-USDT", "sell", 10_000, 2))).orderId as number;
      expect(s.run(s.c.amend("a", id, 11)).result).toEqual({
        ok: false,
        code: "insufficient_balance",
      });
      expect(s.run(s.c.amend("a", id, 0)).result).toEqual({
        ok: false,
        code: "quantity_must_be_positive",
      });
      expect(s.run(s.c.amend("b", id, 1)).result).toEqual({ ok: false, code: "order_not_found" });
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 2n * LOT]);
    });
  });

  describe("stop and take-profit orders", () => {
    it("a sell stop-limit holds its base, waits for the tick that reaches it, records it", () => {
      const s = setup(factory);
      const placed = s.run(
        s.c.conditional("a", "BTC-USDT", "sell", 9_900, { priceTicks: 9_890, quantityLots: 2 }),
      );
      const id = ok(placed).orderId as number;
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 2n * LOT]);
      const above = s.run(s.c.tick("BTC-USDT", "99.01"));
      expect(ofType(above.events, "conditional_triggered")).toEqual([]);
      expect(getConditionalOrders(s.state, "a", "real").map((o) => o.orderId)).toEqual([id]);
      const tick = s.c.tick("BTC-USDT", "99.00");
      const fired = s.run(tick);
      const tickId = (tick as { tickId: string }).tickId;
      expect(ofType(fired.events, "conditional_triggered")).toEqual([
        {
          type: "conditional_triggered",
          orderId: id,
          tickId,
          tickPrice: "99.00",
          releasedAmount: 2n * LOT,
        },
      ]);
      const done = ofType(fired.events, "conditional_done")[0]!;
      expect(done).toMatchObject({ status: "triggered", tickId, rejectCode: null });
      const open = getOpenOrders(s.state, "a", "real");
      expect(open.map((o) => [o.orderId, o.priceTicks, o.fromConditionalId])).toEqual([
        [done.resultOrderId, 9_890, id],
      ]);
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 2n * LOT]);
      expect(getConditionalOrders(s.state, "a", "real")).toEqual([]);
    });

    it("refuses a trigger the last price already reached", () => {
      const s = setup(factory);
      const out = s.run(
        s.c.conditional("a", "BTC-USDT", "buy", 9_990, { priceTicks: 10_000, quantityLots: 1 }),
      );
      expect(out.result).toEqual({ ok: false, code: "trigger_would_fire_now" });
      const tp = s.run(
        s.c.conditional("a", "BTC-USDT", "sell", 9_990, {
          kind: "take_profit",
          priceTicks: 9_990,
          quantityLots: 1,
        }),
      );
      expect(tp.result).toEqual({ ok: false, code: "trigger_would_fire_now" });
    });

    it("a buy stop-market spends its held quote amount when the price rises to it", () => {
      const s = setup(factory);
      ok(s.run(s.c.limit("b", "BTC-USDT", "sell", 10_150, 3)));
      const id = ok(
        s.run(
          s.c.conditional("a", "BTC-USDT", "buy", 10_100, {
            orderType: "market",
            timeInForce: "ioc",
            quoteAmount: 250_000n,
          }),
        ),
      ).orderId as number;
      expect(s.balance("a", "USDT")).toEqual([750_000n, 250_000n]);
      expect(ofType(s.run(s.c.tick("BTC-USDT", "100.99")).events, "fill")).toEqual([]);
      const fired = s.run(s.c.tick("BTC-USDT", "101.00"));
      expect(ofType(fired.events, "conditional_done")[0]).toMatchObject({
        orderId: id,
        status: "triggered",
      });
      // 250,000 buys 2 lots at 10150 (101,500 each); the rest comes back.
      expect(ofType(fired.events, "fill").map((f) => f.quantityLots)).toEqual([2]);
      expect(s.balance("a", "USDT")).toEqual([1_000_000n - 203_000n, 0n]);
      expect(s.balance("a", "BTC")).toEqual([12n * LOT, 0n]);
    });

    it("a take-profit sell waits for a rise", () => {
      const s = setup(factory);
      const id = ok(
        s.run(
          s.c.conditional("a", "BTC-USDT", "sell", 10_200, {
            kind: "take_profit",
            priceTicks: 10_200,
            quantityLots: 1,
          }),
        ),
      ).orderId as number;
      expect(ofType(s.run(s.c.tick("BTC-USDT", "95.00")).events, "conditional_done")).toEqual([]);
      const fired = s.run(s.c.tick("BTC-USDT", "102.50"));
      expect(ofType(fired.events, "conditional_done")[0]).toMatchObject({
        orderId: id,
        status: "triggered",
      });
    });

    it("holds at placement, so funds cannot be promised twice", () => {
      const s = setup(factory);
      ok(
        s.run(
          s.c.conditional("a", "BTC-USDT", "sell", 9_000, { priceTicks: 9_000, quantityLots: 10 }),
        ),
      );
      const second = s.run(
        s.c.conditional("a", "BTC-USDT", "sell", 8_000, { priceTicks: 8_000, quantityLots: 1 }),
      );
      expect(second.result).toEqual({ ok: false, code: "insufficient_balance" });
      const order = s.run(s.c.limit("a", "BTC-USDT", "sell", 10_500, 1));
      expect(order.result).toEqual({ ok: false, code: "insufficient_balance" });
      const buyTooMuch = s.run(
        s.c.conditional("b", "BTC-USDT", "buy", 10_100, {
          orderType: "market",
          timeInForce: "ioc",
          quoteAmount: 1_000_001n,
        }),
      );
      expect(buyTooMuch.result).toEqual({ ok: false, code: "insufficient_balance" });
    });

    it("cancel_order and cancel_all cancel pending conditionals and release their holds", () => {
      const s = setup(factory);
      const id = ok(
        s.run(
          s.c.conditional("a", "BTC-USDT", "sell", 9_000, { priceTicks: 9_000, quantityLots: 3 }),
        ),
      ).orderId as number;
      ok(
        s.run(
          s.c.conditional("a", "BTC-USDT", "sell", 8_000, { priceTicks: 8_000, quantityLots: 1 }),
        ),
      );
      expect(s.run(s.c.cancel("b", id)).result).toEqual({ ok: false, code: "order_not_found" });
      const out = s.run(s.c.cancel("a", id));
      expect(ok(out)).toEqual({ orderId: id, cancelledCount: 1 });
      expect(ofType(out.events, "conditional_done")[0]).toMatchObject({
        status: "cancelled",
        reason: "user",
        releasedAmount: 3n * LOT,
      });
      expect(ok(s.run(s.c.cancelAll("a")))).toEqual({ cancelledCount: 1 });
      expect(s.balance("a", "BTC")).toEqual([10n * LOT, 0n]);
      // Nothing is left to fire.
      expect(ofType(s.run(s.c.tick("BTC-USDT", "70.00")).events, "conditional_done")).toEqual([]);
    });
  });

  describe("OCO pairs", () => {
    it("the first fill of the limit leg cancels the stop leg", () => {
      const s = setup(factory);
      const stop = ok(s.run(s.c.oco("a", "BTC-USDT", "sell", 2, 10_100, 9_900, null)))
        .orderId as number;
      const [leg] = getOpenOrders(s.state, "a", "real");
      expect(leg).toMatchObject({ priceTicks: 10_100, ocoConditionalId: stop });
      // Both legs sell 2 lots: the pair holds 2 lots, once.
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 2n * LOT]);
      const buy = s.run(s.c.limit("b", "BTC-USDT", "buy", 10_100, 1));
      expect(ofType(buy.events, "conditional_done")).toMatchObject([
        { orderId: stop, status: "cancelled", reason: "oco" },
      ]);
      expect(getConditionalOrders(s.state, "a", "real")).toEqual([]);
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 1n * LOT]);
      expect(ofType(s.run(s.c.tick("BTC-USDT", "90.00")).events, "conditional_done")).toEqual([]);
    });

    it("the stop firing cancels the limit leg and sells into the bids", () => {
      const s = setup(factory);
      ok(s.run(s.c.limit("b", "BTC-USDT", "buy", 9_850, 5)));
      const stop = ok(s.run(s.c.oco("a", "BTC-USDT", "sell", 2, 10_100, 9_900, null)))
        .orderId as number;
      const leg = getOpenOrders(s.state, "a", "real")[0]!.orderId;
      const tick = s.c.tick("BTC-USDT", "98.90");
      const fired = s.run(tick);
      expect(ofType(fired.events, "order_cancelled")).toMatchObject([
        { orderId: leg, reason: "oco" },
      ]);
      expect(ofType(fired.events, "conditional_triggered")[0]).toMatchObject({
        orderId: stop,
        tickId: (tick as { tickId: string }).tickId,
      });
      expect(ofType(fired.events, "fill").map((f) => [f.priceTicks, f.quantityLots])).toEqual([
        [9_850, 2],
      ]);
      expect(s.balance("a", "BTC")).toEqual([8n * LOT, 0n]);
    });

    it("a buy pair holds the larger leg; cancelling the limit leg cancels the pair", () => {
      const s = setup(factory);
      const stop = ok(s.run(s.c.oco("a", "BTC-USDT", "buy", 2, 9_900, 10_100, 10_150)))
        .orderId as number;
      // Limit leg 2 × 9900 × 10 = 198,000; stop leg 2 × 10150 × 10 = 203,000: 5,000 more.
      expect(s.balance("a", "USDT")).toEqual([1_000_000n - 203_000n, 203_000n]);
      expect(s.run(s.c.oco("a", "BTC-USDT", "buy", 2, 9_900, 10_100, null)).result).toEqual({
        ok: false,
        code: "order_type_invalid",
      });
      const leg = getOpenOrders(s.state, "a", "real")[0]!.orderId;
      expect(s.run(s.c.amend("a", leg, 1)).result).toEqual({
        ok: false,
        code: "order_type_invalid",
      });
      const out = s.run(s.c.cancel("a", leg));
      expect(ofType(out.events, "conditional_done")).toMatchObject([
        { orderId: stop, status: "cancelled", reason: "oco", releasedAmount: 5_000n },
      ]);
      expect(s.balance("a", "USDT")).toEqual([1_000_000n, 0n]);
    });

    it("a limit leg that would trade at once refuses the pair and changes nothing", () => {
      const s = setup(factory);
      ok(s.run(s.c.limit("b", "BTC-USDT", "buy", 10_100, 1)));
      const out = s.run(s.c.oco("a", "BTC-USDT", "sell", 1, 10_100, 9_900, null));
      expect(out.result).toEqual({ ok: false, code: "post_only_would_trade" });
      expect(out.events).toEqual([]);
      expect(getOpenOrders(s.state, "a", "real")).toEqual([]);
      expect(getConditionalOrders(s.state, "a", "real")).toEqual([]);
      expect(s.balance("a", "BTC")).toEqual([10n * LOT, 0n]);
    });
  });

  it("a snapshot with pending conditionals restores to the same hash and fires the same", () => {
    const s = setup(factory);
    ok(
      s.run(
        s.c.conditional("a", "BTC-USDT", "sell", 9_900, { priceTicks: 9_890, quantityLots: 2 }),
      ),
    );
    ok(s.run(s.c.oco("b", "BTC-USDT", "buy", 1, 9_800, 10_100, 10_200)));
    ok(s.run(s.c.limitStp("c", "BTC-USDT", "sell", 10_300, 1, "cancel_both")));
    const copy = restore(snapshot(s.state), factory);
    expect(stateHash(copy)).toBe(stateHash(s.state));
    checkInvariants(copy);
    const tick = s.c.tick("BTC-USDT", "98.00");
    const a = apply(s.state, tick);
    const b = apply(copy, tick);
    expect(b.events).toEqual(a.events);
    expect(stateHash(copy)).toBe(stateHash(s.state));
  });
});
