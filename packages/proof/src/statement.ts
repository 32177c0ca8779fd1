// Verifiable statements: a user's postings of one mode, oldest first, each with its journal
// sequence, the running balance of its wallet and asset, and a hash chaining it to every line
// before it. The check recomputes all of it from the lines alone:
//
//   genesis  = SHA-256("candor/statement/v1/genesis\n" ‖ JSON [userId, mode])
//   hash[i]  = SHA-256("candor/statement/v1/line\n" ‖ hash[i-1] ‖ "\n" ‖ JSON line fields)
//
// (JSON of an array of strings, numbers, booleans and nulls, as JSON.stringify writes it.)
// What it proves: the lines are in order, every running balance follows from the amounts, the
// last balances are the ones stated, and nothing before a saved head was changed or dropped
// since (`extendsHead`). Completeness against the published liabilities is the caller's second
// step: `totalsUpTo` sums the lines at the tree's sequence, to compare with the user's leaf.
import { formatDecimal, parseDecimal } from "@candor/decimal";
import { sha256Hex, utf8Encode } from "@candor/kernel/hash/sha256";
import { HASH_PATTERN } from "./encoding.ts";

export const STATEMENT_VERSION = 1;

/** One posting on one of the user's accounts. Amounts are decimal strings at the asset's scale. */
export interface StatementLine {
  /**
   * The ledger's posting number. It increases down the statement; a move between the user's own
   * wallets has two lines with one number, ordered by wallet, then asset (byte order).
   */
  postingSeq: string;
  /** Journal sequence of the command that made the posting. */
  sequence: string;
  atMs: number;
  wallet: string;
  asset: string;
  /** Signed: positive when the account received it. */
  amount: string;
  fromHeld: boolean;
  reason: string;
  counterparty: string;
  orderId: string | null;
  fillId: string | null;
  tickId: string | null;
  operatorId: string | null;
  reference: string | null;
  /** The account's balance (available + held) after this line. */
  balanceAfter: string;
  /** The chain hash after this line. */
  hash: string;
}

/** A whole statement of one user and mode, complete up to journal sequence `sequence`. */
export interface StatementExport {
  version: typeof STATEMENT_VERSION;
  userId: string;
  mode: "real" | "demo";
  sequence: string;
  generatedAtMs: number;
  /** Decimals of every asset that appears. */
  assets: { asset: string; scale: number }[];
  /** Every account's balance (available + held) at `sequence`, as the ledger holds it. */
  balances: { wallet: string; asset: string; amount: string }[];
  lines: StatementLine[];
  /** The last line's hash (the genesis hash when there are no lines). */
  head: string;
}

/** Why a statement was refused. Append-only: web translations key on these codes. */
export const statementFailures = [
  /** A field is missing or of the wrong shape, or the version is unknown. */
  "malformed",
  /** Posting numbers do not increase, or a line is after the statement's sequence. */
  "out_of_order",
  /** A running balance does not follow from the one before and the amount. */
  "balance_step",
  /** A running balance is negative. */
  "balance_negative",
  /** A line's hash is not the chain's next hash: a line was changed, added or dropped. */
  "chain_broken",
  /** The head is not the last line's hash. */
  "head_mismatch",
  /** The lines do not add up to a stated balance. */
  "balance_mismatch",
] as const;
export type StatementFailure = (typeof statementFailures)[number];

export type StatementCheck =
  | {
      ok: true;
      lineCount: number;
      head: string;
      /** Balance per `wallet/asset`, in smallest units, after the last line. */
      balances: Map<string, bigint>;
    }
  | { ok: false; reason: StatementFailure; detail: string; line?: number };

const prefix = "candor/statement/v1/";

/** The hash a user's chain of one mode starts from. */
export function statementGenesis(userId: string, mode: string): string {
  return sha256Hex(utf8Encode(`${prefix}genesis\n${JSON.stringify([userId, mode])}`));
}

/** The chain hash after `line`, given the hash before it. */
export function statementLineHash(previous: string, line: Omit<StatementLine, "hash">): string {
  const fields = [
    line.postingSeq,
    line.sequence,
    line.atMs,
    line.wallet,
    line.asset,
    line.amount,
    line.fromHeld,
    line.reason,
    line.counterparty,
    line.orderId,
    line.fillId,
    line.tickId,
    line.operatorId,
    line.reference,
    line.balanceAfter,
  ];
  return sha256Hex(utf8Encode(`${prefix}line\n${previous}\n${JSON.stringify(fields)}`));
}

/**
 * Chains lines that carry no hash yet (the server's side): running balances from zero, then
 * hashes. `amount` is in smallest units; `format` turns units into the asset's decimal text.
 */
export function chainStatement(
  userId: string,
  mode: string,
  lines: readonly (Omit<StatementLine, "hash" | "balanceAfter" | "amount"> & { units: bigint })[],
  scaleOf: (asset: string) => number,
): { lines: StatementLine[]; head: string } {
  const running = new Map<string, bigint>();
  let head = statementGenesis(userId, mode);
  const out: StatementLine[] = [];
  for (const { units, ...rest } of lines) {
    const key = `${rest.wallet}/${rest.asset}`;
    const after = (running.get(key) ?? 0n) + units;
    running.set(key, after);
    const scale = scaleOf(rest.asset);
    const line = {
      ...rest,
      amount: formatDecimal(units, scale),
      balanceAfter: formatDecimal(after, scale),
    };
    head = statementLineHash(head, line);
    out.push({ ...line, hash: head });
  }
  return { lines: out, head };
}

const digits = /^(0|[1-9][0-9]{0,18})$/;
const nullableText = (value: unknown) => value === null || typeof value === "string";

function lineShapeError(line: unknown): string | undefined {
  if (!line || typeof line !== "object") return "not an object";
  const l = line as Record<string, unknown>;
  for (const key of ["postingSeq", "sequence"]) {
    if (typeof l[key] !== "string" || !digits.test(l[key])) return `${key} is not a whole number`;
  }
  if (typeof l.atMs !== "number" || !Number.isSafeInteger(l.atMs)) return "atMs is not a time";
  for (const key of ["wallet", "asset", "amount", "reason", "counterparty", "balanceAfter"]) {
    if (typeof l[key] !== "string") return `${key} is not text`;
  }
  if (typeof l.fromHeld !== "boolean") return "fromHeld is not true or false";
  for (const key of ["orderId", "fillId", "tickId", "operatorId", "reference"]) {
    if (!nullableText(l[key])) return `${key} is not text or null`;
  }
  if (typeof l.hash !== "string" || !HASH_PATTERN.test(l.hash)) return "hash is not a SHA-256";
  return undefined;
}

function shapeError(value: unknown): string | undefined {
  if (!value || typeof value !== "object") return "not an object";
  const s = value as Record<string, unknown>;
  if (s.version !== STATEMENT_VERSION) return `version is not ${STATEMENT_VERSION}`;
  if (typeof s.userId !== "string" || s.userId.length === 0) return "userId is missing";
  if (s.mode !== "real" && s.mode !== "demo") return "mode is not real or demo";
  if (typeof s.sequence !== "string" || !digits.test(s.sequence)) return "sequence is missing";
  if (typeof s.head !== "string" || !HASH_PATTERN.test(s.head)) return "head is not a SHA-256";
  if (!Array.isArray(s.assets) || !Array.isArray(s.balances) || !Array.isArray(s.lines)) {
    return "assets, balances or lines is not a list";
  }
  for (const asset of s.assets as unknown[]) {
    const a = asset as Record<string, unknown> | null;
    if (!a || typeof a.asset !== "string" || !Number.isInteger(a.scale)) return "bad asset";
    if ((a.scale as number) < 0 || (a.scale as number) > 36) return "bad asset scale";
  }
  for (const balance of s.balances as unknown[]) {
    const b = balance as Record<string, unknown> | null;
    if (!b || typeof b.wallet !== "string" || typeof b.asset !== "string") return "bad balance";
    if (typeof b.amount !== "string") return "bad balance amount";
  }
  for (const [i, line] of (s.lines as unknown[]).entries()) {
    const error = lineShapeError(line);
    if (error) return `line ${i + 1}: ${error}`;
  }
  return undefined;
}

/**
 * Checks a statement from its own lines, trusting nothing the server computed: order, running
 * balances, the hash chain, the head and the stated balances.
 */
export function verifyStatement(value: unknown): StatementCheck {
  const shape = shapeError(value);
  if (shape) return { ok: false, reason: "malformed", detail: shape };
  const statement = value as StatementExport;
  const scales = new Map(statement.assets.map((a) => [a.asset, a.scale]));
  const amount = (text: string, asset: string) => {
    const scale = scales.get(asset);
    if (scale === undefined) return undefined;
    const parsed = parseDecimal(text, scale, { allowNegative: true });
    return parsed.ok ? parsed.value : undefined;
  };
  const running = new Map<string, bigint>();
  let head = statementGenesis(statement.userId, statement.mode);
  let previousPosting = -1n;
  let previousWallet = "";
  let previousAsset = "";
  let previousSequence = 0n;
  const last = BigInt(statement.sequence);
  for (const [i, line] of statement.lines.entries()) {
    const n = i + 1;
    const fail = (reason: StatementFailure, detail: string): StatementCheck => ({
      ok: false,
      reason,
      detail: `line ${n}: ${detail}`,
      line: n,
    });
    const units = amount(line.amount, line.asset);
    const after = amount(line.balanceAfter, line.asset);
    if (units === undefined || after === undefined) {
      return fail("malformed", `amount of ${line.asset} is not a decimal at its scale`);
    }
    const posting = BigInt(line.postingSeq);
    const key = `${line.wallet}/${line.asset}`;
    const sameOrBefore =
      line.wallet < previousWallet ||
      (line.wallet === previousWallet && line.asset <= previousAsset);
    if (posting < previousPosting || (posting === previousPosting && sameOrBefore)) {
      return fail("out_of_order", "posting number does not increase");
    }
    const sequence = BigInt(line.sequence);
    if (sequence < previousSequence) return fail("out_of_order", "journal sequence goes back");
    if (sequence > last) return fail("out_of_order", "after the statement's sequence");
    previousPosting = posting;
    previousWallet = line.wallet;
    previousAsset = line.asset;
    previousSequence = sequence;
    const expected = (running.get(key) ?? 0n) + units;
    if (after !== expected) return fail("balance_step", `${key} should be ${expected} units`);
    if (after < 0n) return fail("balance_negative", `${key} is below zero`);
    running.set(key, after);
    const { hash, ...fields } = line;
    head = statementLineHash(head, fields);
    if (hash !== head) return fail("chain_broken", "hash does not follow from the lines before");
  }
  if (statement.head !== head) {
    return { ok: false, reason: "head_mismatch", detail: "head is not the last line's hash" };
  }
  const stated = new Map<string, bigint>();
  for (const balance of statement.balances) {
    const units = amount(balance.amount, balance.asset);
    if (units === undefined) return { ok: false, reason: "malformed", detail: "bad balance" };
    stated.set(`${balance.wallet}/${balance.asset}`, units);
  }
  for (const key of new Set([...stated.keys(), ...running.keys()])) {
    if ((stated.get(key) ?? 0n) !== (running.get(key) ?? 0n)) {
      return {
        ok: false,
        reason: "balance_mismatch",
        detail: `${key}: the lines add up to ${running.get(key) ?? 0n} units, the balance is ${stated.get(key) ?? 0n}`,
      };
    }
  }
  return { ok: true, lineCount: statement.lines.length, head, balances: running };
}

/**
 * Per asset, the sum of every line made at or before journal sequence `sequence` over all
 * wallets, in smallest units: what the user's leaf of a liabilities tree built at that sequence
 * must hold. Call on a statement that verified.
 */
export function totalsUpTo(statement: StatementExport, sequence: bigint): Map<string, bigint> {
  const scales = new Map(statement.assets.map((a) => [a.asset, a.scale]));
  const totals = new Map<string, bigint>();
  for (const line of statement.lines) {
    if (BigInt(line.sequence) > sequence) break;
    const parsed = parseDecimal(line.amount, scales.get(line.asset) ?? 0, { allowNegative: true });
    if (parsed.ok) totals.set(line.asset, (totals.get(line.asset) ?? 0n) + parsed.value);
  }
  return totals;
}

/** A head saved after an earlier check: how many lines it covered and the hash after them. */
export interface SavedHead {
  lineCount: number;
  head: string;
}

/**
 * True when the statement starts with exactly the lines an earlier check saw: the same hash
 * after the same number of lines (history kept, only appended to).
 */
export function extendsHead(statement: StatementExport, saved: SavedHead): boolean {
  if (saved.lineCount === 0)
    return saved.head === statementGenesis(statement.userId, statement.mode);
  return statement.lines[saved.lineCount - 1]?.hash === saved.head;
}
