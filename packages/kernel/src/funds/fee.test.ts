import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { apply, createKernelState, type Command, type FillEvent } from "../index.ts";
import { checkInvariants } from "../invariants.ts";
import { accountOf, systemOwner } from "../ledger/accounts.ts";
import { CommandMaker } from "../testing/commands.ts";
import { systemOwners } from "../types.ts";

// Spot fees go through the generic `collectFee` hook (funds/fee.ts); this pins what the hook
// must keep doing for every product: the fee account gains exactly the fees the fill reports.
describe("collectFee through a spot fill", () => {
  it("credits the mode's fee account with exactly the maker and taker fees", () => {
    const state = createKernelState({}, createOrderBook);
    const c = new CommandMaker();
    const ok = (command: Command) => {
      const out = apply(state, command);
      checkInvariants(state);
      if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
      return out;
    };
    ok(c.asset("USDT", 6));
    ok(c.asset("BTC", 8));
    ok(c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 10, feeBpsTaker: 20 }));
    ok(c.session("BTC-USDT", true));
    for (const user of ["1", "2"]) {
      ok(c.open(user));
      ok(c.deposit(user, "USDT", 100_000_000_000n));
      ok(c.deposit(user, "BTC", 1_000_000_000n));
    }
    ok(c.limit("1", "BTC-USDT", "buy", 3_000_000, 2));
    const out = ok(c.limit("2", "BTC-USDT", "sell", 2_900_000, 3));
    const fills = out.events.filter((e): e is FillEvent => e.type === "fill");
    expect(fills.length).toBe(1);
    const fees = systemOwner(state, "real", systemOwners.fees);
    const byAsset = new Map<string, bigint>();
    for (const f of fills) {
      byAsset.set(f.feeMakerAssetId, (byAsset.get(f.feeMakerAssetId) ?? 0n) + f.feeMaker);
      byAsset.set(f.feeTakerAssetId, (byAsset.get(f.feeTakerAssetId) ?? 0n) + f.feeTaker);
    }
    for (const [assetId, amount] of byAsset) {
      expect(amount > 0n).toBe(true);
      expect(accountOf(state, fees, "fund", assetId).available).toBe(amount);
    }
  });
});
