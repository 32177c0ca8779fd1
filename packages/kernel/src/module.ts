// The shape of a kernel module. The ledger and the schedule are the kernel's own modules; every
// product (reference data, funds, spot, and later perp, seconds, stocks, savings, loans) is one
// folder exporting one `KernelModule`, listed once in `registry.ts`. See README.md, "How to add
// a product".

import type { ScheduledEntry } from "./schedule.ts";
import type { KernelState } from "./state.ts";
import type { CommandOf, CommandType, ResultOf } from "./types.ts";
import type { Account, OwnerState } from "./ledger/state.ts";
import type { RejectCode } from "./reject-codes.ts";
import type { Tick } from "./reference/types.ts";

/** JSON as snapshots hold it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The kind of one command field; a trailing `?` means it may be null. `string?+` is a nullable
 * string appended to a command type after records of it were journaled: it may be absent
 * (records from before, callers that do not set it), absent and null encode and fingerprint
 * as nothing, so older records decode and remember exactly as they did.
 */
export type FieldKind =
  | "string"
  | "string?"
  | "string?+"
  | "int"
  | "int?"
  | "bigint"
  | "bigint?"
  | "bool"
  | "mode"
  | "wallet"
  | "side"
  | "tif"
  | "order_type";

/** The numeric fields a result value may carry, in the order snapshots write them. */
export type ResultField =
  "orderId" | "orderStatus" | "filledLots" | "restingLots" | "cancelledCount" | "postingSeq";

/** How one command type is encoded, validated, fingerprinted and remembered. */
export interface CommandCodecEntry {
  /**
   * Stable number of the command type: it seeds the idempotency fingerprint that snapshots
   * store, so it is never changed or reused. New command types take the next free number.
   */
  typeCode: number;
  /** Fields after `type`, `id` and `atMs`, in encoding order. Append-only. */
  fields: readonly (readonly [string, FieldKind])[];
  /** The fields of the command's result value, in the order the value object has them. */
  result: readonly ResultField[];
}

/** Applies one command of type K: validate, then change state through the ledger; or reject. */
export type Handler<K extends CommandType> = (
  state: KernelState,
  command: CommandOf<K>,
) => ResultOf<CommandOf<K>>;

/** A module's handlers: one per command type it owns. */
export type Handlers = { [K in CommandType]?: Handler<K> };

/** A module's part of the snapshot. */
export interface SnapshotSection {
  /**
   * Named top-level snapshot fields. A field whose value is `undefined` is left out, which is
   * how a new module keeps the snapshot (and state hash) of states without it unchanged: write
   * nothing while the slice is empty.
   */
  write(state: KernelState): Record<string, Json | undefined>;
  /** Restores the slice from the snapshot's fields (missing fields: an empty slice). */
  read(state: KernelState, json: Readonly<Record<string, Json | undefined>>): void;
}

/**
 * One module of the kernel. Everything is optional but the name: a product has commands, a
 * slice of state (`state[name]`), a snapshot section, invariants and hooks. `apply` calls the
 * hooks of all modules in registry order (see `registry.ts`).
 */
export interface KernelModule {
  /** The slice's key in `KernelState` (declared by merging into `KernelSlices`). */
  name: string;
  /** The slice of a new kernel (called in registry order, after the kernel's own fields). */
  createState?(state: KernelState): unknown;
  /** Codec entries of the module's commands. */
  commands?: { [K in CommandType]?: CommandCodecEntry };
  handlers?: Handlers;
  snapshot?: SnapshotSection;
  /**
   * Checks the module's invariants; throws `AssertionError`. Adds the holds it expects to each
   * account's `heldExpected`: the ledger then checks every account holds exactly that.
   */
  checkInvariants?(state: KernelState): void;
  /** A tick was recorded (after the reference data took it), within record_tick. */
  onTick?(state: KernelState, tick: Tick): void;
  /** clock_tick, after the due scheduled entries ran. */
  onClock?(state: KernelState): void;
  /** reset_demo: end everything the demo owner has open; returns how many orders it cancelled. */
  onDemoReset?(state: KernelState, owner: OwnerState): number;
  /**
   * Money is about to leave `account`'s available balance by a transfer between wallets: a
   * code refuses it (perp: cross collateral backing open positions). Called before anything
   * changes.
   */
  outflowCode?(state: KernelState, account: Account, amount: bigint): RejectCode | null;
  /** Money left `account`'s available balance by a transfer (perp re-indexes cross positions). */
  afterOutflow?(state: KernelState, account: Account): void;
  /** Runs a due scheduled entry of one of this module's kinds (`entry.kind`). */
  runScheduled?(state: KernelState, entry: ScheduledEntry): void;
}
