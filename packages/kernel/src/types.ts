// The kernel's public vocabulary: commands in, events and a result out. The engine (journal,
// server) and the market maker are written against these shapes, so they only ever grow:
// new commands, events, fields or codes may be added, nothing is renamed or removed.
// Every command field is always present; `null` means "absent", so a command has exactly one
// canonical encoding.
//
// Each product declares its own commands, results and events in its folder's `types.ts` and
// adds them to the maps below by declaration merging (`declare module "../types.ts"`), so a new
// product never edits this file: `Command`, `Event` and `ResultOf` grow with the maps.

import type { BalancesChangedEvent, PostingEvent } from "./ledger/types.ts";
import type { RejectCode } from "./reject-codes.ts";

/** Real money or simulated (demo) money: two ledger namespaces that never exchange value. */
export type Mode = "real" | "demo";

/** Which wallet of an owner an account belongs to. Spot trading uses `fund`. */
export type Wallet = "fund" | "contract" | "fiat";

/**
 * Labelled system owners. Their accounts exist from the start; the market maker trades
 * through the same commands as users, and its trades appear on the tape like anyone's.
 * `external` is the clearing counterpart of deposits and withdrawals (real mode only; it goes
 * negative by what users hold); `demo_faucet` funds demo accounts (demo mode only).
 */
export const systemOwners = {
  fees: "system:fees",
  treasury: "system:treasury",
  marketMaker: "system:market_maker",
  house: "system:house",
  insuranceFund: "system:insurance_fund",
  demoFaucet: "system:demo_faucet",
  external: "system:external",
} as const;

/** The owner id of a system account, e.g. `system:fees`. */
export type SystemOwnerId = (typeof systemOwners)[keyof typeof systemOwners];

/** Fields every command carries. */
export interface CommandBase {
  /**
   * Client-supplied idempotency key (1–128 printable ASCII characters). A repeated id returns
   * the first result and changes nothing; the same id with different content (any field but
   * `atMs`) is rejected with `command_id_reused`. Ids are remembered for at least
   * `KernelOptions.idempotencyWindowMs`.
   */
  id: string;
  /** Time of the command in milliseconds since the Unix epoch; never earlier than the last one. */
  atMs: number;
}

/** Advances kernel time, runs due scheduled entries and prunes the idempotency window. */
export interface ClockTickCommand extends CommandBase {
  type: "clock_tick";
}

/** The value of a successful command that reports nothing but success. */
export type NoValue = Record<string, never>;

/** The value of a successful command that cancelled orders (cancel_all, reset_demo). */
export interface CancelledValue {
  cancelledCount: number;
}

/** The value of a successful command that moved money in one posting. */
export interface PostingValue {
  /** Sequence number of the posting (see `Posting.seq`). */
  postingSeq: number;
}

/**
 * Every command type → its command. Products add theirs by declaration merging in their own
 * `types.ts`; `clock_tick` belongs to the kernel itself.
 */
export interface CommandMap {
  clock_tick: ClockTickCommand;
}

/** Every command type → the value its success carries. Must have exactly the keys of CommandMap. */
export interface ResultMap {
  clock_tick: NoValue;
}

/** Every event type → its event. The ledger's events are the kernel's own. */
export interface EventMap {
  posting: PostingEvent;
  balances_changed: BalancesChangedEvent;
}

/** Everything the kernel accepts. */
export type Command = CommandMap[keyof CommandMap];

/** The `type` of a command. */
export type CommandType = keyof CommandMap;

/** The command of one type. */
export type CommandOf<K extends CommandType> = CommandMap[K];

/** Everything the kernel reports. */
export type Event = EventMap[keyof EventMap];

/** The `type` of an event. */
export type EventType = keyof EventMap;

/**
 * The result of a command: its value, or a stable rejection code (which changes nothing).
 * `ResultOf<typeof command>` is the result of the command a caller built, e.g.
 * `ResultOf<PlaceOrderCommand>` carries an `OrderOutcome`. Works for unstamped commands too.
 */
export type ResultOf<C extends { type: CommandType }> =
  { ok: true; value: ResultMap[C["type"]] } | { ok: false; code: RejectCode };

/** The result of any command. */
export type CommandResult = ResultOf<Command>;

/** What `apply` returns. */
export interface ApplyOutput<C extends { type: CommandType } = Command> {
  result: ResultOf<C>;
  /** Empty for rejections and duplicates. */
  events: Event[];
  /** True when the id was seen before: `result` is the first result and nothing changed. */
  duplicate: boolean;
}

/** Limits and defaults of a kernel; part of its state (snapshots carry them). */
export interface KernelOptions {
  /** Most open orders per owner and mode, over all markets. Default 200. */
  openOrdersPerOwnerMax: number;
  /** Most open orders of `system:market_maker` per mode. Default 100,000. */
  openOrdersMarketMakerMax: number;
  /** Default most price levels on one side of a book. Default 1,000. */
  levelsPerSideMax: number;
  /** Default most resting orders in one book. Default 100,000. */
  ordersPerBookMax: number;
  /** How long command ids are remembered, pruned by clock_tick. Default 600,000 (10 minutes). */
  idempotencyWindowMs: number;
  /**
   * Postings each account keeps in memory for `getStatement` (at least this many, the latest).
   * Default 1,000. Older postings live in the event stream and the server's statement tables.
   */
  statementPostingsMax: number;
  /** Granted on opening demo accounts and on reset_demo, as decimal strings of defined assets. */
  demoGrants: { assetId: string; amount: string }[];
}
