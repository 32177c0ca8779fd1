import { describe, expect, it } from "vitest";
import {
  chainStatement,
  extendsHead,
  statementGenesis,
  statementLineHash,
  totalsUpTo,
  verifyStatement,
  type StatementExport,
} from "./statement.ts";

const scales: Record<string, number> = { USDT: 6, BTC: 8 };

function line(postingSeq: number, sequence: number, wallet: string, asset: string, units: bigint) {
  return {
    postingSeq: String(postingSeq),
    sequence: String(sequence),
    atMs: 1_700_000_000_000 + postingSeq,
    wallet,
    asset,
    units,
    fromHeld: false,
    reason: units > 0n ? "deposit" : "trade",
    counterparty: "system:house",
    orderId: null,
    fillId: null,
    tickId: null,
    operatorId: null,
    reference: null,
  };
}

function statement(): StatementExport {
  const { lines, head } = chainStatement(
    "42",
    "real",
    [
      line(1, 10, "fund", "USDT", 1_000_000_000n),
      line(2, 11, "fund", "BTC", 5_000_000n),
      line(3, 11, "fund", "USDT", -250_500_000n),
      // A move between the user's own wallets: one posting, two lines.
      line(7, 20, "contract", "USDT", 100_000_000n),
      line(7, 20, "fund", "USDT", -100_000_000n),
    ],
    (asset) => scales[asset]!,
  );
  return {
    version: 1,
    userId: "42",
    mode: "real",
    sequence: "25",
    generatedAtMs: 1_700_000_000_999,
    assets: [
      { asset: "BTC", scale: 8 },
      { asset: "USDT", scale: 6 },
    ],
    balances: [
      { wallet: "fund", asset: "USDT", amount: "649.5" },
      { wallet: "fund", asset: "BTC", amount: "0.05" },
      { wallet: "contract", asset: "USDT", amount: "100" },
    ],
    lines,
    head,
  };
}

const copy = (s: StatementExport): StatementExport => structuredClone(s);

describe("verifiable statements", () => {
  it("chains the lines with running balances and verifies them", () => {
    const s = statement();
    expect(s.lines.map((l) => l.balanceAfter)).toEqual(["1000", "0.05", "749.5", "100", "649.5"]);
    const check = verifyStatement(s);
    expect(check).toMatchObject({ ok: true, lineCount: 5, head: s.head });
    if (check.ok) expect(check.balances.get("fund/USDT")).toBe(649_500_000n);
    // The chain starts at the user's own genesis and each hash covers the one before.
    const { hash, ...first } = s.lines[0]!;
    expect(hash).toBe(statementLineHash(statementGenesis("42", "real"), first));
  });

  it("refuses a changed amount, even with its running balance fixed up", () => {
    const s = copy(statement());
    s.lines[0]!.amount = "1001";
    expect(verifyStatement(s)).toMatchObject({ ok: false, reason: "balance_step", line: 1 });
    s.lines[0]!.balanceAfter = "1001";
    expect(verifyStatement(s)).toMatchObject({ ok: false, reason: "chain_broken", line: 1 });
  });

  it("refuses a dropped line, a changed field and a forged head", () => {
    const dropped = copy(statement());
    dropped.lines.splice(3, 1);
    expect(verifyStatement(dropped)).toMatchObject({ ok: false, reason: "chain_broken", line: 4 });

    const changed = copy(statement());
    changed.lines[1]!.tickId = "BTC-USDT:1";
    expect(verifyStatement(changed)).toMatchObject({ ok: false, reason: "chain_broken", line: 2 });

    const forged = copy(statement());
    forged.head = "0".repeat(64);
    expect(verifyStatement(forged)).toMatchObject({ ok: false, reason: "head_mismatch" });

    // Another user's chain does not verify as this user's, line for line the same.
    const other = copy(statement());
    other.userId = "43";
    expect(verifyStatement(other)).toMatchObject({ ok: false, reason: "chain_broken", line: 1 });
  });

  it("refuses lines out of order or after the statement's sequence", () => {
    const swapped = copy(statement());
    [swapped.lines[0], swapped.lines[1]] = [swapped.lines[1]!, swapped.lines[0]!];
    expect(verifyStatement(swapped)).toMatchObject({ ok: false, reason: "chain_broken", line: 1 });
    // Chained in the wrong order by the server itself: refused on the order, not the chain.
    const { lines, head } = chainStatement(
      "42",
      "real",
      [line(2, 10, "fund", "USDT", 1n), line(2, 10, "fund", "USDT", 1n)],
      () => 6,
    );
    const repeated = { ...statement(), lines, head, balances: [] };
    expect(verifyStatement(repeated)).toMatchObject({ ok: false, reason: "out_of_order", line: 2 });
    const late = copy(statement());
    late.sequence = "19";
    expect(verifyStatement(late)).toMatchObject({ ok: false, reason: "out_of_order", line: 4 });
  });

  it("refuses balances the lines do not add up to, and negative running balances", () => {
    const s = copy(statement());
    s.balances[1]!.amount = "0.06";
    expect(verifyStatement(s)).toMatchObject({ ok: false, reason: "balance_mismatch" });
    const missing = copy(statement());
    missing.balances.pop();
    expect(verifyStatement(missing)).toMatchObject({ ok: false, reason: "balance_mismatch" });

    const { lines, head } = chainStatement(
      "42",
      "real",
      [line(1, 1, "fund", "USDT", -1n)],
      () => 6,
    );
    const negative = { ...statement(), lines, head, balances: [] };
    expect(verifyStatement(negative)).toMatchObject({ ok: false, reason: "balance_negative" });
  });

  it("refuses malformed input without throwing", () => {
    for (const bad of [null, 1, "x", {}, { ...statement(), version: 2 }]) {
      expect(verifyStatement(bad)).toMatchObject({ ok: false, reason: "malformed" });
    }
    const overPrecise = copy(statement());
    overPrecise.lines[0]!.amount = "1000.0000001";
    expect(verifyStatement(overPrecise)).toMatchObject({ ok: false, reason: "malformed" });
    const float = copy(statement()) as unknown as { lines: { atMs: number }[] };
    float.lines[0]!.atMs = 1.5;
    expect(verifyStatement(float)).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("sums the lines at a tree's sequence over every wallet", () => {
    const s = statement();
    expect(totalsUpTo(s, 10n)).toEqual(new Map([["USDT", 1_000_000_000n]]));
    expect(totalsUpTo(s, 11n)).toEqual(
      new Map([
        ["USDT", 749_500_000n],
        ["BTC", 5_000_000n],
      ]),
    );
    // Moving between own wallets changes no total.
    expect(totalsUpTo(s, 25n).get("USDT")).toBe(749_500_000n);
  });

  it("tells whether a statement keeps the lines an earlier check saw", () => {
    const s = statement();
    expect(extendsHead(s, { lineCount: 3, head: s.lines[2]!.hash })).toBe(true);
    expect(extendsHead(s, { lineCount: 0, head: statementGenesis("42", "real") })).toBe(true);
    expect(extendsHead(s, { lineCount: 3, head: s.lines[1]!.hash })).toBe(false);
    expect(extendsHead(s, { lineCount: 9, head: s.head })).toBe(false);
  });
});
