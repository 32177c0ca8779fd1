// The ledger primitives: the only code that changes balances. `post` moves value between two
// accounts as one balanced posting; `hold` and `release` move it between an account's available
// and held parts. Each marks the account touched, so the command reports its balances once.

import { assert } from "../assert.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import type { PostingLog } from "./posting-log.ts";
import { unitsOfAmount, type Account } from "./state.ts";
import type { AssetState } from "../reference/state.ts";
import type { Posting, PostingReason } from "./types.ts";
import { emit } from "../events.ts";
import { bigintOfSafeInteger } from "../amount/bigint-of.ts";

/** What a posting cites besides its command. Absent fields are null in the posting. */
export interface PostingRefs {
  orderId?: number | null;
  fillId?: number | null;
  tickId?: string | null;
  operatorId?: string | null;
  /** Deposit/withdrawal reference, or the counterparty of a transfer. */
  reference?: string | null;
}

/** One balanced movement, by name. */
export interface PostingInput {
  debit: Account;
  credit: Account;
  /** Smallest units, positive. */
  amount: bigint;
  /** Out of the debit account's held balance rather than its available one (default false). */
  debitHeld?: boolean;
  reason: PostingReason;
  refs?: PostingRefs;
}

const NO_REFS: PostingRefs = Object.freeze({});

/** Moves `amount` from `debit` (its held part when `debitHeld`) to `credit`'s available. */
export function post(state: KernelState, input: PostingInput): number {
  const { debit, credit, amount } = input;
  const debitHeld = input.debitHeld === true;
  assert(amount > 0n, "posting amount must be positive");
  assert(debit.assetId === credit.assetId, "posting across assets");
  assert(debit.mode === credit.mode, "posting across modes");
  assert(debit !== credit, "posting to the same account");
  if (debitHeld) {
    const held = debit.held - amount;
    assert(held >= 0n, "held balance went negative");
    debit.held = held;
    debit.heldUnits = unitsOfAmount(held);
  } else {
    const available = debit.available - amount;
    assert(debit.negativeAllowed || available >= 0n, "available balance went negative");
    debit.available = available;
    debit.availableUnits = unitsOfAmount(available);
  }
  const credited = credit.available + amount;
  credit.available = credited;
  credit.availableUnits = unitsOfAmount(credited);
  const ledger = state.ledger;
  const seq = ++ledger.postingSeqLast;
  const command = state.command!;
  const refs = input.refs ?? NO_REFS;
  // Field order is part of the event stream (and the snapshot's posting records): keep it.
  const posting: Posting = {
    seq,
    debitAccount: debit.key,
    creditAccount: credit.key,
    assetId: debit.assetId,
    amount,
    debitHeld,
    reason: input.reason,
    commandId: command.id,
    atMs: command.atMs,
    orderId: refs.orderId ?? null,
    fillId: refs.fillId ?? null,
    tickId: refs.tickId ?? null,
    operatorId: refs.operatorId ?? null,
    reference: refs.reference ?? null,
  };
  const log = ledger.postingLog;
  const slot = log.add(posting);
  const kept = state.options.statementPostingsMax;
  keepPosting(log, debit, slot, kept);
  keepPosting(log, credit, slot, kept);
  touch(state, debit);
  touch(state, credit);
  emit(state, { type: "posting", posting });
  return seq;
}

/** Appends to an account's statement, dropping the oldest half when it holds twice the limit. */
function keepPosting(log: PostingLog, account: Account, slot: number, kept: number): void {
  const list = account.postingSlots;
  log.keep(slot);
  list.push(slot);
  if (list.length > 2 * kept) {
    for (const dropped of list.splice(0, list.length - kept)) log.drop(dropped);
  }
}

/**
 * Sets both balances of an account and their double copies (restoring a snapshot; the
 * primitives below keep the copies themselves).
 */
export function setBalances(account: Account, available: bigint, held: bigint): void {
  account.available = available;
  account.availableUnits = unitsOfAmount(available);
  account.held = held;
  account.heldUnits = unitsOfAmount(held);
}

/**
 * The exact-double path of `hold`: done (true) while the account's copies and `units` are exact
 * and the result stays a safe integer; the BigInts are then made from doubles and never read.
 */
function holdExact(account: Account, units: number): boolean {
  const available = account.availableUnits - units;
  const held = account.heldUnits + units;
  // NaN anywhere fails these comparisons: then the BigInt path decides.
  if (!(units >= 0 && available >= 0 && held <= Number.MAX_SAFE_INTEGER)) return false;
  account.available = bigintOfSafeInteger(available);
  account.availableUnits = available;
  account.held = bigintOfSafeInteger(held);
  account.heldUnits = held;
  return true;
}

/** The exact-double path of `release` (see `holdExact`). */
function releaseExact(account: Account, units: number): boolean {
  const held = account.heldUnits - units;
  const available = account.availableUnits + units;
  if (!(
    units >= 0 &&
    held >= 0 &&
    available <= Number.MAX_SAFE_INTEGER &&
    available >= -Number.MAX_SAFE_INTEGER
  )) {
    return false;
  }
  account.held = bigintOfSafeInteger(held);
  account.heldUnits = held;
  account.available = bigintOfSafeInteger(available);
  account.availableUnits = available;
  return true;
}

/**
 * Available → held. `units` is `amount` as an exact double when the caller has it (else NaN):
 * while the account's copies are exact too, the BigInts are made from doubles and never read.
 */
export function hold(
  state: KernelState,
  account: Account,
  amount: bigint,
  units = Number.NaN,
): void {
  if (!holdExact(account, units)) {
    assert(amount >= 0n, "hold must not be negative");
    const availableNext = account.available - amount;
    assert(availableNext >= 0n, "hold exceeds available");
    // Often only the available balance is inexact (a large one): the held one then still
    // moves in doubles.
    const heldUnits = account.heldUnits + units;
    if (units >= 0 && heldUnits <= Number.MAX_SAFE_INTEGER) {
      account.available = availableNext;
      account.availableUnits = unitsOfAmount(availableNext);
      account.held = bigintOfSafeInteger(heldUnits);
      account.heldUnits = heldUnits;
    } else {
      setBalances(account, availableNext, account.held + amount);
    }
  }
  touch(state, account);
}

/**
 * `hold` of an amount known only as an exact double (a safe integer ≥ 0): the BigInt of the
 * amount is made only when the account's copies are not exact, so the usual case allocates
 * nothing but the two new balances.
 */
export function holdUnitsOnly(state: KernelState, account: Account, units: number): void {
  if (holdExact(account, units)) touch(state, account);
  else hold(state, account, bigintOfSafeInteger(units), units);
}

/** `release` of an amount known only as an exact double (see `holdUnitsOnly`). */
export function releaseUnitsOnly(state: KernelState, account: Account, units: number): void {
  if (releaseExact(account, units)) touch(state, account);
  else release(state, account, bigintOfSafeInteger(units), units);
}

/** Held → available; `units` as for `hold`. */
export function release(
  state: KernelState,
  account: Account,
  amount: bigint,
  units = Number.NaN,
): void {
  if (!releaseExact(account, units)) {
    assert(amount >= 0n, "release must not be negative");
    // As in `hold`: the held balance in doubles when it and `units` are exact.
    const heldUnits = account.heldUnits - units;
    if (units >= 0 && heldUnits >= 0) {
      const availableNext = account.available + amount;
      account.available = availableNext;
      account.availableUnits = unitsOfAmount(availableNext);
      account.held = bigintOfSafeInteger(heldUnits);
      account.heldUnits = heldUnits;
    } else {
      const heldNext = account.held - amount;
      assert(heldNext >= 0n, "release exceeds held");
      setBalances(account, account.available + amount, heldNext);
    }
  }
  touch(state, account);
}

/** Lists the account once among the accounts the current command touched. */
export function touch(state: KernelState, account: Account): void {
  if (account.touchedSerial !== state.commandSerial) {
    account.touchedSerial = state.commandSerial;
    const ledger = state.ledger;
    ledger.touched[ledger.touchedCount++] = account;
  }
}

/** No single command moves more than 10^36 smallest units, whatever the asset says. */
export const AMOUNT_SANITY_MAX = 10n ** 36n;

/** Guards an amount a command moves: positive and within the asset's maximum; null when fine. */
export function amountCode(asset: AssetState, amount: bigint): RejectCode | null {
  if (amount <= 0n) return "amount_must_be_positive";
  if (amount > (asset.amountMax ?? AMOUNT_SANITY_MAX)) return "amount_above_maximum";
  return null;
}
