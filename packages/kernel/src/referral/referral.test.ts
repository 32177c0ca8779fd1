// Hand-checked rebates: a spot fill and a perpetual fill pay the inviter its share of the fee
// just collected, out of the fee account; rejections of bad links and shares; demo stays demo.

import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { apply, createKernelState, type Command } from "../index.ts";
import { checkInvariants } from "../invariants.ts";
import { accountOf, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { PerpHarness } from "../perp/kernel-testing.ts";
import { CommandMaker } from "../testing/commands.ts";
import { systemOwners } from "../types.ts";

describe("referral rebates", () => {
  it("pays the spot inviter its share of the invitee's fee, per mode, and refuses bad input", () => {
    const state = createKernelState({}, createOrderBook);
    const c = new CommandMaker();
    const run = (command: Command) => {
      const out = apply(state, command);
      checkInvariants(state);
      return out;
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
    for (const user of ["inviter", "a", "b"]) {
      ok(c.open(user));
      ok(c.deposit(user, "USDT", 100_000_000_000n));
      ok(c.deposit(user, "BTC", 1_000_000_000n));
    }
    const code = (command: Command) => {
      const out = run(command);
      return out.result.ok ? "ok" : out.result.code;
    };
    expect(code(c.referralLink("a", "a"))).toBe("referral_self");
    expect(code(c.referralLink("inviter", "nobody"))).toBe("account_not_found");
    expect(code(c.referralLink("bad id", "a"))).toBe("owner_id_invalid");
    expect(code(c.referralLink("inviter", "a"))).toBe("ok");
    expect(code(c.referralLink("b", "a"))).toBe("referral_exists");
    expect(code(c.referralConfigure("bond", 10))).toBe("referral_product_invalid");
    expect(code(c.referralConfigure("spot", 10_001))).toBe("referral_rebate_invalid");
    expect(code(c.referralConfigure("spot", -1))).toBe("referral_rebate_invalid");
    expect(code(c.referralConfigure("spot", 2_500))).toBe("ok");
    // The demo share applies to demo fees only: configuring it pays nothing in real mode.
    expect(code(c.referralConfigure("spot", 10_000, "demo"))).toBe("ok");
    ok(c.limit("b", "BTC-USDT", "sell", 3_000_000, 2));
    const out = ok(c.limit("a", "BTC-USDT", "buy", 3_000_000, 2));
    // a (taker, buys) pays 20 bps of what it receives (base); 25 % of that goes to the inviter.
    const fill = out.events.find((e) => e.type === "fill")!;
    const rebate = out.events.find((e) => e.type === "referral_rebate")!;
    expect(rebate).toMatchObject({
      mode: "real",
      product: "spot",
      inviterId: "inviter",
      inviteeId: "a",
      assetId: "BTC",
      fee: fill.feeTaker,
      rebate: fill.feeTaker / 4n,
    });
    expect(fill.feeTaker > 0n).toBe(true);
    const fees = systemOwner(state, "real", systemOwners.fees);
    expect(accountOf(state, fees, "fund", "BTC").available).toBe(
      fill.feeTaker - fill.feeTaker / 4n,
    );
    const inviter = ownerOf(state, "real", "inviter")!;
    expect(accountOf(state, inviter, "fund", "BTC").available).toBe(
      1_000_000_000n + fill.feeTaker / 4n,
    );
  });

  it("pays the perpetual inviter its share of the trading fee taken from margin", () => {
    const h = new PerpHarness();
    h.user("inviter", 0n);
    h.user("alice", 1_000_000_000n);
    h.user("bob", 1_000_000_000n);
    h.run({
      type: "referral_link",
      inviterId: "inviter",
      inviteeId: "alice",
      mode: "real",
    } as never);
    h.run({ type: "referral_configure", mode: "real", product: "perp", rebateBps: 5_000, operatorId: null } as never); // prettier-ignore
    h.tick("50000.0");
    expect(h.order("bob", "sell", 10, 500_000).result.ok).toBe(true);
    expect(h.order("alice", "buy", 10, 500_000).result.ok).toBe(true);
    // Notional 500 USDT; taker 5 bps = 0.25 USDT; half of it to the inviter.
    const rebates = h.eventsOf("referral_rebate");
    expect(rebates.map((r) => [r.product, r.inviteeId, r.fee, r.rebate])).toEqual([
      ["perp", "alice", 250_000n, 125_000n],
    ]);
    const inviter = ownerOf(h.state, "real", "inviter")!;
    expect(accountOf(h.state, inviter, "fund", "USDT").available).toBe(125_000n);
  });
});
