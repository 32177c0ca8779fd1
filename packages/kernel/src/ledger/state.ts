// The ledger's slice of kernel state: owners, their accounts and the posting sequence. Only
// the ledger's own functions change balances; products read accounts and call `post`, `hold`
// and `release`.

import type { Mode, Wallet } from "../types.ts";
import { PostingLog } from "./posting-log.ts";

/** One owner's balance of one asset in one wallet and mode. */
export interface Account {
  key: string;
  ownerId: string;
  mode: Mode;
  wallet: Wallet;
  assetId: string;
  available: bigint;
  held: bigint;
  /**
   * `available` and `held` as doubles while they are safe integers (exact), else NaN: holds and
   * releases then do their arithmetic and checks in doubles and never read the BigInts (which
   * stay the record). Only the ledger's primitives write the four fields.
   */
  availableUnits: number;
  heldUnits: number;
  /** Only `system:external` and `system:demo_faucet` may go below zero. */
  negativeAllowed: boolean;
  /**
   * The latest postings touching this account, oldest first, as slots of the ledger's
   * `postingLog`: at least `KernelOptions.statementPostingsMax` of them (fewer only if there
   * were fewer). The full history is in the event stream (and the server's read model).
   */
  postingSlots: number[];
  /** Serial of the last command that touched it, to list each account once per command. */
  touchedSerial: number;
  /** Scratch for `checkInvariants`: the holds the products expect it to have. */
  heldExpected: bigint;
}

/** An owner (user or system) in one mode. */
export interface OwnerState {
  /** `mode|ownerId`. */
  key: string;
  ownerId: string;
  mode: Mode;
  /**
   * Small integer identity, unique over both modes: books use it for self-trade prevention and
   * products index per-owner tables by it.
   */
  index: number;
  system: boolean;
  /** Accounts by `wallet|assetId`. */
  accounts: Map<string, Account>;
  /** The fund wallet's accounts by asset id (the trading path; no key strings built). */
  fund: Map<string, Account>;
}

/** The ledger's slice: `state.ledger`. */
export interface LedgerState {
  /** Every owner by `mode|ownerId` (for snapshots), and by id per mode (for lookups). */
  owners: Map<string, OwnerState>;
  ownersReal: Map<string, OwnerState>;
  ownersDemo: Map<string, OwnerState>;
  ownerIndexNext: number;
  accounts: Map<string, Account>;
  /** Sequence number of the last posting. */
  postingSeqLast: number;
  /** The postings accounts keep for their statements. */
  postingLog: PostingLog;
  /**
   * Scratch: the first `touchedCount` are the accounts the current command touched, in the
   * order it first touched them. Written by index and never truncated (setting a V8 array's
   * length to 0 drops its backing store, so the next push reallocates it).
   */
  touched: Account[];
  touchedCount: number;
}

/** `owner|mode|wallet|asset`: the key of an account in postings and balances. */
export function accountKey(ownerId: string, mode: Mode, wallet: Wallet, assetId: string): string {
  return ownerId + "|" + mode + "|" + wallet + "|" + assetId;
}

/** `mode|ownerId`. */
export function ownerKey(mode: Mode, ownerId: string): string {
  return mode + "|" + ownerId;
}

export function createLedgerState(): LedgerState {
  return {
    owners: new Map(),
    ownersReal: new Map(),
    ownersDemo: new Map(),
    ownerIndexNext: 1,
    accounts: new Map(),
    postingSeqLast: 0,
    postingLog: new PostingLog(),
    touched: [],
    touchedCount: 0,
  };
}

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** An amount as an exact double when it is a safe integer, else NaN. */
export function unitsOfAmount(amount: bigint): number {
  return amount <= SAFE_MAX && amount >= -SAFE_MAX ? Number(amount) : Number.NaN;
}
