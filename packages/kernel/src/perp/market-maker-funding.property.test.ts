// The operator's market-maker perp funding (type code 42) against the slow reference model
// (market-maker-funding.reference.ts): random streams of operator deposits, funding commands
// (good, zero, negative, above the maximum, above the fund wallet, blank references and reasons,
// assets without a perpetual, unknown assets), the market maker's own refused transfers, its
// quotes and cancels on the perpetual books, and a second perpetual quoted in another asset
// defined midway. After every command: the same acceptance and reject code, the same fund and
// contract balances, the reference's invariants, and (the harness) every kernel invariant.

import { describe, expect, it } from "vitest";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { Random } from "../testing/simulate.ts";
import { PerpHarness, perpDefinition, PERP } from "./kernel-testing.ts";
import {
  applyMmReference,
  createMmReference,
  mmReferenceViolations,
  type MmReference,
  type MmReferenceCommand,
} from "./market-maker-funding.reference.ts";

const MM = "system:market_maker";
const EUR_PERP = "XAU-EUR-PERP";
const ASSETS = ["USDT", "EUR", "BTC", "DOGE"] as const;

function run(seed: number, steps: number) {
  const random = new Random(seed);
  const h = new PerpHarness();
  let ref: MmReference = createMmReference();
  const both = (command: Record<string, unknown>, refCommand: MmReferenceCommand) => {
    const out = h.tryRun(command as never);
    const refOut = applyMmReference(ref, refCommand);
    expect(out.result.ok, `${command.type as string} accepted alike`).toBe(refOut.ok);
    if (!out.result.ok && !refOut.ok) expect(out.result.code).toBe(refOut.code);
    if (refOut.ok) ref = refOut.state;
    return out.result.ok;
  };
  // The harness defined USDT (no maximum) and BTC-PERP quoted in it.
  ref = applyOk(ref, [
    { type: "define_asset", assetId: "USDT", amountMax: null },
    { type: "define_perp_quote", assetId: "USDT" },
  ]);
  for (const [assetId, scale, amountMax] of [
    ["EUR", 2, 1_000_000_000n],
    ["BTC", 8, 10n ** 12n],
  ] as const) {
    both(
      { type: "define_asset", assetId, scale, amountMax },
      {
        type: "define_asset",
        assetId,
        amountMax,
      },
    );
  }
  h.tick("50000.0");
  let eurPerp = false;
  const stats = { funded: 0, refused: 0, quotes: 0 };
  const amount = (assetId: string): bigint => {
    const fund = ref.fund.get(assetId) ?? 0n;
    const max = ref.assets.get(assetId)?.amountMax ?? 10n ** 36n;
    const roll = random.next();
    if (roll < 0.05) return 0n;
    if (roll < 0.1) return -BigInt(random.int(1, 1_000));
    if (roll < 0.14) return max + 1n;
    if (roll < 0.24) return fund + BigInt(random.int(1, 1_000));
    if (fund > 0n && roll < 0.6) return 1n + (fund * BigInt(random.int(0, 1_000))) / 1_000n;
    return BigInt(random.int(1, 10_000)) * 1_000_000n;
  };
  const text = (): string => random.pick(["ticket-1", "bank-77", "", " ", "x"]);
  for (let step = 0; step < steps; step++) {
    const roll = random.next();
    const assetId = random.pick(ASSETS);
    if (roll < 0.25) {
      const reference = random.chance(0.1) ? "" : "bank-77";
      const value = amount(assetId);
      both(
        {
          type: "credit_deposit",
          ownerId: MM,
          mode: "real",
          assetId,
          amount: value,
          reference,
          operatorId: "op-1",
        },
        { type: "deposit", assetId, amount: value, reference },
      );
    } else if (roll < 0.65) {
      const reference = random.chance(0.85) ? "bank-77" : text();
      const reason = random.chance(0.85) ? "real perp quotes" : text();
      const value = amount(assetId);
      const accepted = both(
        {
          type: "fund_perp_market_maker",
          assetId,
          amount: value,
          reference,
          reason,
          operatorId: random.chance(0.5) ? "op-1" : null,
        },
        { type: "fund", assetId, amount: value, reference, reason },
      );
      if (accepted) stats.funded++;
      else stats.refused++;
    } else if (roll < 0.72) {
      const value = amount(assetId);
      both(
        {
          type: "transfer_wallet",
          ownerId: MM,
          mode: "real",
          assetId: "USDT",
          amount: value < 1n ? 1n : value,
          sourceWallet: random.chance(0.5) ? "fund" : "contract",
          targetWallet: "contract",
        },
        { type: "transfer", assetId: "USDT", amount: value },
      );
    } else if (roll < 0.87) {
      // The market maker quotes far from the mark (nothing trades): holds move money from
      // available to held, never in or out of the contract wallet.
      const marketId = eurPerp && random.chance(0.5) ? EUR_PERP : PERP;
      const buy = random.chance(0.5);
      const price = marketId === PERP ? (buy ? 450_000 : 550_000) : buy ? 1_800 : 2_200;
      const out = h.order(MM, buy ? "buy" : "sell", random.int(1, 40), price, {
        tif: "post_only",
        marketId,
      });
      if (out.result.ok) stats.quotes++;
    } else if (roll < 0.95) {
      const open = [...h.state.perp.orders.values()].filter((o) => o.account.owner.ownerId === MM);
      if (open.length > 0) {
        h.run({
          type: "cancel_perp_order",
          ownerId: MM,
          mode: "real",
          orderId: random.pick(open).orderId,
        } as never);
      }
    } else if (!eurPerp) {
      // A perpetual quoted in EUR: funding in EUR becomes possible from here on.
      h.run(
        perpDefinition({
          marketId: EUR_PERP,
          instrumentId: "XAU-EUR",
          quoteAssetId: "EUR",
          priceStep: "1",
          contractSize: "1",
        }),
      );
      h.tick("2000", "XAU-EUR");
      ref = applyOk(ref, [{ type: "define_perp_quote", assetId: "EUR" }]);
      eurPerp = true;
    }
    for (const a of ["USDT", "EUR", "BTC"]) {
      const fund = getBalance(h.state, MM, "real", "fund", a);
      const contract = getBalance(h.state, MM, "real", "contract", a);
      expect(fund.available + fund.held, `${a} fund, seed ${seed} step ${step}`).toBe(
        ref.fund.get(a) ?? 0n,
      );
      expect(contract.available + contract.held, `${a} contract, seed ${seed} step ${step}`).toBe(
        ref.contract.get(a) ?? 0n,
      );
    }
    expect(mmReferenceViolations(ref)).toEqual([]);
  }
  expect(stateHash(restore(snapshot(h.state)))).toBe(stateHash(h.state));
  return stats;
}

function applyOk(state: MmReference, commands: MmReferenceCommand[]): MmReference {
  let s = state;
  for (const c of commands) {
    const out = applyMmReference(s, c);
    if (!out.ok) throw new Error(`reference refused ${c.type}: ${out.code}`);
    s = out.state;
  }
  return s;
}

describe("fund_perp_market_maker against the reference model", () => {
  it("agrees on every result, reject code and balance (60 seeds)", () => {
    const totals = { funded: 0, refused: 0, quotes: 0 };
    for (let seed = 1; seed <= 60; seed++) {
      const stats = run(seed, 80);
      totals.funded += stats.funded;
      totals.refused += stats.refused;
      totals.quotes += stats.quotes;
    }
    expect(totals.funded).toBeGreaterThan(120);
    expect(totals.refused).toBeGreaterThan(200);
    expect(totals.quotes).toBeGreaterThan(100);
  });

  it("the reference model's own worked case", () => {
    const s = applyOk(createMmReference(), [
      { type: "define_asset", assetId: "USDT", amountMax: null },
      { type: "define_perp_quote", assetId: "USDT" },
      { type: "deposit", assetId: "USDT", amount: 5_000n, reference: "bank-77" },
      { type: "fund", assetId: "USDT", amount: 2_000n, reference: "bank-77", reason: "quotes" },
    ]);
    expect(s.fund.get("USDT")).toBe(3_000n);
    expect(s.contract.get("USDT")).toBe(2_000n);
    expect(
      applyMmReference(s, {
        type: "fund",
        assetId: "USDT",
        amount: 3_001n,
        reference: "bank-77",
        reason: "quotes",
      }),
    ).toEqual({ ok: false, code: "insufficient_balance" });
    expect(mmReferenceViolations(s)).toEqual([]);
  });
});
