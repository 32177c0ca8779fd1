import {
  extendsHead,
  totalsUpTo,
  verifyStatement,
  type SavedHead,
  type StatementExport,
  type StatementFailure,
} from "@candor/proof";
import { ApiError, callEndpoint } from "../../../lib/api-client.ts";
import { proofEndpoints } from "./endpoints.ts";
import { checkMyInclusion, type CheckOutcome } from "./proof-api.ts";

/** Where the CSV export downloads from (the session cookie signs the request). */
export const statementCsvUrl = "/api/v1/wallet/statement/export?format=csv";

/** What the statement check found. */
export type StatementOutcome =
  | {
      ok: true;
      lineCount: number;
      sequence: string;
      head: string;
      /**
       * Against the published liabilities tree (real money; null in demo mode): whether the
       * postings up to the tree's sequence add up to the user's amounts in it, or why they
       * could not be compared.
       */
      tree: TreeComparison | null;
      /** The earlier check in this browser, and whether its lines are still there unchanged. */
      previous: { atMs: number; kept: boolean } | null;
    }
  | { ok: false; reason: StatementFailure; detail: string };

export type TreeComparison =
  | { state: "matches" | "differs"; sequence: string }
  /** The account is not in the latest tree (no real money then, or opened since). */
  | { state: "not_included" }
  /** The inclusion proof itself did not verify. */
  | { state: "proof_failed"; reason: string };

interface SavedCheck extends SavedHead {
  atMs: number;
}

const storageKey = (userId: string, mode: string) => `candor.statement-head.${userId}.${mode}`;

function savedCheck(key: string): SavedCheck | null {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? "null") as SavedCheck | null;
    const valid =
      saved !== null &&
      Number.isSafeInteger(saved.lineCount) &&
      Number.isSafeInteger(saved.atMs) &&
      typeof saved.head === "string";
    return valid ? saved : null;
  } catch {
    return null;
  }
}

/**
 * Checks the signed-in user's whole statement here, in the browser: the hash chain and every
 * running balance are recomputed from the lines (`verifyStatement`); for real money, the lines
 * up to the latest liabilities tree are summed and compared with the user's amounts in it, which
 * the inclusion proof ties to the public root; and the lines the previous check in this browser
 * saw must still be there, unchanged. The server's arithmetic is trusted for none of it.
 *
 * The tree is read before the statement, so the statement is complete up to the tree's sequence
 * (or a later one). Read the other way round, a tree published between the two reads (the
 * hourly publication, an operator's) is newer than the statement, and an honest statement
 * would be reported as differing from it.
 */
export async function checkMyStatement(userId: string, real: boolean): Promise<StatementOutcome> {
  const inclusion = real ? await myInclusion(userId) : undefined;
  const statement = (await callEndpoint(proofEndpoints.exportStatement, {
    query: { format: "json" },
  })) as StatementExport;
  const check = verifyStatement(statement);
  if (!check.ok) return { ok: false, reason: check.reason, detail: check.detail };
  if (statement.userId !== userId) {
    return { ok: false, reason: "malformed", detail: "the statement is someone else's" };
  }

  const tree = inclusion === undefined ? null : compareWithTree(inclusion, statement);

  const key = storageKey(userId, statement.mode);
  const saved = savedCheck(key);
  const kept = saved ? extendsHead(statement, saved) : true;
  // A changed history keeps the earlier head, so the warning stays until it is explained.
  if (kept) {
    const next: SavedCheck = { lineCount: check.lineCount, head: check.head, atMs: Date.now() };
    localStorage.setItem(key, JSON.stringify(next));
  }
  return {
    ok: true,
    lineCount: check.lineCount,
    sequence: statement.sequence,
    head: check.head,
    tree,
    previous: saved ? { atMs: saved.atMs, kept } : null,
  };
}

/** The user's checked inclusion in the latest tree; null when the tree does not hold them. */
function myInclusion(userId: string): Promise<CheckOutcome | null> {
  return checkMyInclusion(userId).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "proof_not_included") return null;
    throw error;
  });
}

/** The statement's lines up to the latest tree's sequence against the user's verified leaf. */
function compareWithTree(
  inclusion: CheckOutcome | null,
  statement: StatementExport,
): TreeComparison {
  if (inclusion === null) return { state: "not_included" };
  if (!inclusion.ok) return { state: "proof_failed", reason: inclusion.reason };
  // The tree is built from the ledger at its sequence; the statement is complete up to a later one.
  if (BigInt(inclusion.sequence) > BigInt(statement.sequence)) {
    return { state: "differs", sequence: inclusion.sequence };
  }
  const totals = totalsUpTo(statement, BigInt(inclusion.sequence));
  const matches = inclusion.assets.every(
    (asset, i) => (totals.get(asset) ?? 0n) === inclusion.values[i],
  );
  return { state: matches ? "matches" : "differs", sequence: inclusion.sequence };
}
