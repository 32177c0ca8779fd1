// The operator's funding of the market maker's real contract wallet (type code 42), by hand.

import { describe, expect, it } from "vitest";
import { decodeCommand, encodeCommand, getBalance } from "../index.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import type { Command } from "../types.ts";
import { PerpHarness } from "./kernel-testing.ts";

const MM = "system:market_maker";

function funding(amount: bigint, overrides: Record<string, unknown> = {}) {
  return {
    type: "fund_perp_market_maker",
    assetId: "USDT",
    amount,
    reference: "bank-77",
    reason: "real perp quotes",
    operatorId: "op-9",
    ...overrides,
  } as never;
}

function deposit(h: PerpHarness, amount: bigint): void {
  h.run({
    type: "credit_deposit",
    ownerId: MM,
    mode: "real",
    assetId: "USDT",
    amount,
    reference: "bank-77",
    operatorId: "op-9",
  } as never);
}

describe("fund_perp_market_maker", () => {
  it("moves operator-deposited inventory from the fund to the contract wallet, one posting", () => {
    const h = new PerpHarness();
    deposit(h, 5_000_000_000n);
    const out = h.run(funding(2_000_000_000n));
    expect(out.result.ok).toBe(true);
    const balance = (wallet: "fund" | "contract") =>
      getBalance(h.state, MM, "real", wallet, "USDT").available;
    expect(balance("fund")).toBe(3_000_000_000n);
    expect(balance("contract")).toBe(2_000_000_000n);
    const postings = out.events.filter((e) => e.type === "posting");
    expect(postings).toHaveLength(1);
    expect(postings[0]!.posting).toMatchObject({
      reason: "transfer_wallet",
      operatorId: "op-9",
      reference: "bank-77",
      amount: 2_000_000_000n,
    });
  });

  it("is refused without operator-funded inventory, for other assets, and without reasons", () => {
    const h = new PerpHarness();
    expect(h.tryRun(funding(1n)).result).toMatchObject({ ok: false, code: "insufficient_balance" });
    deposit(h, 1_000_000n);
    expect(h.tryRun(funding(2_000_000n)).result).toMatchObject({
      ok: false,
      code: "insufficient_balance",
    });
    expect(h.tryRun(funding(0n)).result.ok).toBe(false);
    expect(h.tryRun(funding(-1n)).result.ok).toBe(false);
    expect(h.tryRun(funding(1n, { assetId: "BTC" })).result).toMatchObject({
      ok: false,
      code: "asset_not_found",
    });
    expect(h.tryRun(funding(1n, { reason: " " })).result).toMatchObject({
      ok: false,
      code: "reference_missing",
    });
    expect(h.tryRun(funding(1n, { reference: "" })).result).toMatchObject({
      ok: false,
      code: "reference_missing",
    });
    expect(getBalance(h.state, MM, "real", "contract", "USDT").available).toBe(0n);
  });

  it("keeps the market maker's own real wallet transfer refused", () => {
    const h = new PerpHarness();
    deposit(h, 1_000_000n);
    const out = h.tryRun({
      type: "transfer_wallet",
      ownerId: MM,
      mode: "real",
      assetId: "USDT",
      amount: 1_000_000n,
      sourceWallet: "fund",
      targetWallet: "contract",
    } as never);
    expect(out.result).toMatchObject({ ok: false, code: "owner_not_allowed" });
  });

  it("lets the market maker quote a real perpetual book once funded", () => {
    const h = new PerpHarness();
    h.tick("50000.0");
    const quote = () => h.order(MM, "buy", 10, 499_000, { tif: "post_only", mode: "real" }).result;
    expect(quote().ok).toBe(false);
    deposit(h, 10_000_000_000n);
    h.run(funding(10_000_000_000n));
    expect(quote()).toMatchObject({ ok: true, value: { orderStatus: "open" } });
  });

  it("round-trips through the codec, the snapshot and the state hash", () => {
    const h = new PerpHarness();
    deposit(h, 3_000_000n);
    h.run(funding(1_000_000n));
    const command = h.commands.at(-1)!;
    const bytes = encodeCommand(command);
    expect(new TextDecoder().decode(bytes)).toMatch(/^\["fund_perp_market_maker",/);
    expect(decodeCommand(bytes)).toEqual(command as Command);
    expect(stateHash(restore(snapshot(h.state)))).toBe(stateHash(h.state));
  });
});
