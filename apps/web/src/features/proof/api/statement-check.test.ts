import { chainStatement, type StatementExport } from "@candor/proof";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callEndpoint } from "../../../lib/api-client.ts";
import { checkMyInclusion, type CheckOutcome } from "./proof-api.ts";
import { checkMyStatement } from "./statement-check.ts";

vi.mock(import("../../../lib/api-client.ts"), async (importOriginal) => ({
  ...(await importOriginal()),
  callEndpoint: vi.fn(),
}));
vi.mock(import("./proof-api.ts"), async (importOriginal) => ({
  ...(await importOriginal()),
  checkMyInclusion: vi.fn(),
}));

const userId = "42";

/**
 * A server whose journal moves on between any two requests (other users' postings), and which
 * publishes a liabilities tree of the current state whenever one is asked for (an hourly or an
 * operator's publication landing at that moment). The user's own postings are two deposits, at
 * journal sequences 2 and 3.
 */
function busyServer() {
  let sequence = 10n;
  const { lines, head } = chainStatement(
    userId,
    "real",
    [2n, 3n].map((at) => ({
      postingSeq: String(at),
      sequence: String(at),
      atMs: 1_700_000_000_000,
      wallet: "fund",
      asset: "USDT",
      units: 5_000_000n,
      fromHeld: false,
      reason: "deposit",
      counterparty: "system:external",
      orderId: null,
      fillId: null,
      tickId: null,
      operatorId: "bootstrap",
      reference: "test",
    })),
    () => 6,
  );
  vi.mocked(callEndpoint).mockImplementation(async () => {
    sequence += 1n;
    const statement: StatementExport = {
      version: 1,
      userId,
      mode: "real",
      sequence: String(sequence),
      generatedAtMs: 1_700_000_000_000,
      assets: [{ asset: "USDT", scale: 6 }],
      balances: [{ wallet: "fund", asset: "USDT", amount: "10" }],
      lines,
      head,
    };
    return statement;
  });
  vi.mocked(checkMyInclusion).mockImplementation(async () => {
    sequence += 1n;
    const outcome: CheckOutcome = {
      ok: true,
      sequence: String(sequence),
      rootHash: "00".repeat(32),
      assets: ["USDT"],
      scales: [6],
      values: [10_000_000n],
    };
    return outcome;
  });
}

describe("checkMyStatement", () => {
  beforeEach(() => {
    const stored = new Map<string, string>();
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetAllMocks();
  });

  it("matches the tree when a tree is published while the check reads (the tree is read first)", async () => {
    busyServer();
    const outcome = await checkMyStatement(userId, true);
    expect(outcome).toMatchObject({ ok: true, lineCount: 2, tree: { state: "matches" } });
  });

  it("still says when the tree holds other amounts than the statement's lines", async () => {
    busyServer();
    vi.mocked(checkMyInclusion).mockResolvedValue({
      ok: true,
      sequence: "5",
      rootHash: "00".repeat(32),
      assets: ["USDT"],
      scales: [6],
      values: [11_000_000n],
    });
    const outcome = await checkMyStatement(userId, true);
    expect(outcome).toMatchObject({ ok: true, tree: { state: "differs", sequence: "5" } });
  });

  it("reads no tree for demo money", async () => {
    busyServer();
    const outcome = await checkMyStatement(userId, false);
    expect(outcome).toMatchObject({ ok: true, tree: null });
    expect(checkMyInclusion).not.toHaveBeenCalled();
  });
});
