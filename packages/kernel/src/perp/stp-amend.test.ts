// Perpetual orders: self-trade prevention modes and the size-only amend, through the kernel with
// every invariant checked after every command. One lot at one tick = 100 USDT units.
import { describe, expect, it } from "vitest";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { getPerpOpenOrders } from "./queries.ts";
import { PerpHarness, PERP } from "./kernel-testing.ts";

const USDT = 1_000_000n;

function market() {
  const h = new PerpHarness();
  h.user("alice", 1_000n * USDT);
  h.user("bob", 1_000n * USDT);
  h.user("carol", 1_000n * USDT);
  h.tick("50000.0");
  return h;
}

function stp(
  h: PerpHarness,
  ownerId: string,
  side: "buy" | "sell",
  lots: number,
  price: number,
  mode: string,
) {
  return h.tryRun({
    type: "place_perp_order_stp",
    ownerId,
    mode: "real",
    marketId: PERP,
    side,
    orderType: "limit",
    timeInForce: "gtc",
    priceTicks: price,
    quantityLots: lots,
    reduceOnly: false,
    selfTradeMode: mode,
  } as never);
}

function amend(h: PerpHarness, ownerId: string, orderId: number, lots: number) {
  return h.tryRun({
    type: "amend_perp_order_size",
    ownerId,
    mode: "real",
    orderId,
    quantityLots: lots,
  } as never);
}

describe("perpetual self-trade prevention", () => {
  // bob sells 1 at 500,000 first, alice sells 2 at 500,000; alice buys 3 at 500,010.
  function scene(mode: string) {
    const h = market();
    h.order("bob", "sell", 1, 500_000);
    h.order("alice", "sell", 2, 500_000);
    return { h, out: stp(h, "alice", "buy", 3, 500_010, mode) };
  }

  it("cancel_resting: alice's sell goes, the buy fills bob and rests the rest", () => {
    const { h, out } = scene("cancel_resting");
    expect(out.result).toEqual({
      ok: true,
      value: { orderId: 3, orderStatus: "open", filledLots: 1, restingLots: 2 },
    });
    expect(getPerpOpenOrders(h.state, "alice", "real").map((o) => o.orderId)).toEqual([3]);
  });

  it("cancel_incoming: alice's sell stays, the rest of the buy is cancelled", () => {
    const { h, out } = scene("cancel_incoming");
    expect(out.result).toEqual({
      ok: true,
      value: { orderId: 3, orderStatus: "cancelled", filledLots: 1, restingLots: 0 },
    });
    expect(getPerpOpenOrders(h.state, "alice", "real").map((o) => o.orderId)).toEqual([2]);
  });

  it("cancel_both: both alice's orders are gone", () => {
    const { h, out } = scene("cancel_both");
    expect(out.result).toMatchObject({ ok: true, value: { orderStatus: "cancelled" } });
    expect(getPerpOpenOrders(h.state, "alice", "real")).toEqual([]);
    // Alice is long 1 lot (bob's): only that position's margin stays held.
    expect(h.wallet("alice").held).toBe(h.account("alice")!.margin);
  });

  it("refuses an unknown mode and keeps the mode in snapshots", () => {
    const h = market();
    expect(stp(h, "alice", "buy", 1, 499_000, "newest").result).toEqual({
      ok: false,
      code: "self_trade_mode_invalid",
    });
    expect(stp(h, "alice", "buy", 1, 499_000, "cancel_both").result.ok).toBe(true);
    const copy = restore(snapshot(h.state));
    expect(stateHash(copy)).toBe(stateHash(h.state));
    expect(copy.perp.orders.get(1)!.selfTradeMode).toBe("cancel_both");
  });
});

describe("perpetual size-only amend", () => {
  it("a smaller size keeps the queue place and releases margin; a larger one is refused", () => {
    const h = market();
    expect(h.order("alice", "sell", 5, 500_000).result.ok).toBe(true);
    expect(h.order("bob", "sell", 5, 500_000).result.ok).toBe(true);
    const heldBefore = h.wallet("alice").held;
    const out = amend(h, "alice", 1, 2);
    expect(out.result).toEqual({
      ok: true,
      value: { orderId: 1, orderStatus: "open", filledLots: 0, restingLots: 2 },
    });
    const amended = h.eventsOf("perp_order_amended").at(-1)!;
    expect(amended.remainingLots).toBe(2);
    // The kept share of the hold, rounded up: 2/5 of what 5 lots held.
    expect(amended.heldAmount).toBe((heldBefore * 2n + 4n) / 5n);
    expect(h.wallet("alice").held).toBe(amended.heldAmount);
    expect(amend(h, "alice", 1, 3).result).toEqual({ ok: false, code: "quantity_too_high" });
    expect(amend(h, "bob", 1, 1).result).toEqual({ ok: false, code: "order_not_found" });
    expect(amend(h, "alice", 1, 0).result).toEqual({
      ok: false,
      code: "quantity_must_be_positive",
    });
    // carol buys 3: alice's 2 first (she kept her place), then 1 of bob's.
    h.order("carol", "buy", 3, 500_000);
    const fills = h.eventsOf("perp_fill").map((f) => [f.makerOrderId, f.quantityLots]);
    expect(fills.slice(-2)).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });
});
