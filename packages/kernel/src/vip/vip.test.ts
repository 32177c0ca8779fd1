// Hand-checked VIP levels: configuration and its rejections, the spot and perpetual fee
// discounts once the 30-day volume reaches a level, the window rolling after 30 days, the balance
// condition, the daily withdrawal limit per level, and a snapshot that restores the same state.

import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { apply, createKernelState, type Command } from "../index.ts";
import { checkInvariants } from "../invariants.ts";
import { PerpHarness } from "../perp/kernel-testing.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { CommandMaker } from "../testing/commands.ts";
import { vipLevelOf, vipVolume } from "./apply.ts";
import { discountedFee } from "./state.ts";

const DAY = 86_400_000;

describe("VIP levels", () => {
  it("discounts spot fees from the level the 30-day volume reaches, and limits withdrawals", () => {
    const state = createKernelState({}, createOrderBook);
    const c = new CommandMaker(1_800_000_000_000);
    const run = (command: Command) => {
      const out = apply(state, command);
      checkInvariants(state);
      return out;
    };
    const code = (command: Command) => {
      const out = run(command);
      return out.result.ok ? "ok" : out.result.code;
    };
    const ok = (command: Command) => {
      const out = run(command);
      if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
      return out;
    };
    ok(c.asset("USDT", 6));
    ok(c.asset("BTC", 8));
    ok(c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 10, feeBpsTaker: 20 }));
    ok(c.session("BTC-USDT", true));
    for (const user of ["a", "b", "rich"]) {
      ok(c.open(user));
      ok(c.deposit(user, "USDT", user === "rich" ? 1_000_000_000_000n : 100_000_000_000n));
      ok(c.deposit(user, "BTC", 1_000_000_000n));
    }
    // A first fill before VIP exists counts no volume.
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const first = ok(c.limit("a", "BTC-USDT", "buy", 3_000_000, 2)).events.find(
      (e) => e.type === "fill",
    )!;
    expect(vipVolume(state, "real", "a")).toBe(0n);
    const quote = first.quoteAmount;

    expect(code(c.vipConfigure(11, { minVolume: 1n }))).toBe("vip_level_invalid");
    expect(code(c.vipConfigure(-1, {}))).toBe("vip_level_invalid");
    expect(code(c.vipConfigure(0, { minVolume: 1n }))).toBe("vip_terms_invalid");
    expect(code(c.vipConfigure(1, {}))).toBe("vip_terms_invalid");
    expect(code(c.vipConfigure(1, { minVolume: 1n, feeDiscountBps: 10_001 }))).toBe(
      "vip_terms_invalid",
    );
    expect(code(c.vipConfigure(1, { minVolume: -1n, minBalance: 5n }))).toBe("vip_terms_invalid");
    expect(code(c.vipConfigure(1, { assetId: "EUR", minVolume: 1n }))).toBe("asset_not_found");
    expect(code(c.vipConfigure(2, { remove: true }))).toBe("vip_level_invalid");
    // Level 0 is everyone's: no discount, 1,000 USDT a day; level 1 by volume, level 2 by balance.
    expect(code(c.vipConfigure(0, { withdrawDailyLimit: 1_000_000_000n }))).toBe("ok");
    expect(code(c.vipConfigure(1, { assetId: "BTC", minVolume: 1n }))).toBe("vip_asset_mismatch");
    expect(code(c.vipConfigure(1, { minVolume: quote, feeDiscountBps: 5_000 }))).toBe("ok");
    expect(code(c.vipConfigure(2, { minBalance: 500_000_000_000n, feeDiscountBps: 10_000 }))).toBe(
      "ok",
    );
    expect(vipLevelOf(state, "real", "a")!.level).toBe(0);
    expect(vipLevelOf(state, "real", "rich")!.level).toBe(2);

    // The fill that reaches the threshold pays full fees (the level is read before the fill).
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const second = ok(c.limit("a", "BTC-USDT", "buy", 3_000_000, 2)).events.find(
      (e) => e.type === "fill",
    )!;
    expect([second.feeMaker, second.feeTaker]).toEqual([first.feeMaker, first.feeTaker]);
    expect(vipVolume(state, "real", "a")).toBe(quote);
    expect(vipLevelOf(state, "real", "a")!.level).toBe(1);
    // Now both a (taker) and b (maker) are level 1: half of each fee, rounded in the venue's favour.
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const third = ok(c.limit("a", "BTC-USDT", "buy", 3_000_000, 2)).events.find(
      (e) => e.type === "fill",
    )!;
    expect(third.feeTaker).toBe(first.feeTaker - first.feeTaker / 2n);
    expect(third.feeMaker).toBe(first.feeMaker - first.feeMaker / 2n);
    // The level 2 owner (by balance) pays no fee at all.
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const free = ok(c.limit("rich", "BTC-USDT", "buy", 3_000_000, 2)).events.find(
      (e) => e.type === "fill",
    )!;
    expect(free.feeTaker).toBe(0n);

    // Withdrawals: level 1 has no limit of its own; level 0's 1,000 USDT a day applies to b
    // after the window rolls.
    expect(code(c.withdrawHold("a", "USDT", 2_000_000_000n, "w1"))).toBe("ok");
    ok(c.clock(31 * DAY));
    expect(vipVolume(state, "real", "a")).toBe(0n);
    expect(vipLevelOf(state, "real", "a")!.level).toBe(0);
    expect(code(c.withdrawHold("a", "USDT", 600_000_000n, "w2"))).toBe("ok");
    expect(code(c.withdrawHold("a", "USDT", 400_000_001n, "w3"))).toBe("vip_withdrawal_limit");
    expect(code(c.withdrawHold("a", "USDT", 400_000_000n, "w4"))).toBe("ok");
    // BTC is not the VIP asset: no limit.
    expect(code(c.withdrawHold("a", "BTC", 500_000_000n, "w5"))).toBe("ok");
    ok(c.clock(DAY));
    expect(code(c.withdrawHold("a", "USDT", 1_000_000_000n, "w6"))).toBe("ok");
    // Fees are full again after the window rolled.
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const later = ok(c.limit("a", "BTC-USDT", "buy", 3_000_000, 2)).events.find(
      (e) => e.type === "fill",
    )!;
    expect(later.feeTaker).toBe(first.feeTaker);

    const copy = restore(snapshot(state), createOrderBook);
    expect(stateHash(copy)).toBe(stateHash(state));
    // Removing every level forgets the volumes.
    for (const level of [0, 1, 2]) ok(c.vipConfigure(level, { remove: true }));
    expect(state.vip.volumes.size).toBe(0);
  });

  it("discounts perpetual trading fees", () => {
    const h = new PerpHarness();
    h.user("alice", 1_000_000_000n);
    h.user("bob", 1_000_000_000n);
    h.run({ type: "vip_configure", mode: "real", level: 0, assetId: "USDT", minVolume: 0n, minBalance: 0n, feeDiscountBps: 2_000, withdrawDailyLimit: 0n, remove: false, operatorId: null } as never); // prettier-ignore
    h.tick("50000.0");
    expect(h.order("bob", "sell", 10, 500_000).result.ok).toBe(true);
    expect(h.order("alice", "buy", 10, 500_000).result.ok).toBe(true);
    // Notional 500 USDT; taker 5 bps = 0.25 USDT, less 20 %.
    const fill = h.eventsOf("perp_fill")[0]!;
    expect(fill.feeTaker).toBe(discountedFee(250_000n, 2_000));
    expect(fill.feeTaker).toBe(200_000n);
    expect(vipVolume(h.state, "real", "alice")).toBe(500_000_000n);
  });

  it("never raises a fee and never goes below zero", () => {
    for (const fee of [0n, 1n, 2n, 3n, 9_999n, 10_000n, 123_456_789n]) {
      for (const bps of [0, 1, 5_000, 9_999, 10_000]) {
        const paid = discountedFee(fee, bps);
        expect(paid <= fee && paid >= 0n).toBe(true);
      }
    }
  });
});
