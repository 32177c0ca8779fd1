// The ledger as a kernel module: its slice, snapshot section and invariants, and the
// `balances_changed` event that closes every command that moved money.

import { assert } from "../assert.ts";
import type { Json, KernelModule } from "../module.ts";
import type { KernelState } from "../state.ts";
import type { Mode, Wallet } from "../types.ts";
import { accountOf, balanceView, compareStrings, openOwner } from "./accounts.ts";
import { setBalances } from "./post.ts";
import { PostingLog } from "./posting-log.ts";
import { createLedgerState, unitsOfAmount, type Account } from "./state.ts";
import type { AccountBalance, Posting, PostingReason } from "./types.ts";
import { emit } from "../events.ts";

/** Reports the balances of every account the command touched, after it (last event). */
export function reportBalances(state: KernelState): void {
  const ledger = state.ledger;
  const count = ledger.touchedCount;
  if (count === 0) return;
  const touched = ledger.touched;
  const balances: AccountBalance[] = new Array<AccountBalance>(count);
  for (let i = 0; i < count; i++) balances[i] = balanceView(touched[i]!);
  emit(state, { type: "balances_changed", balances });
}

/**
 * First half of the ledger's invariants: for every asset (per mode) all balances, external
 * clearing and the demo faucet included, sum to zero; no held balance is negative, and no
 * available one except external clearing and the demo faucet. Resets the expected holds that
 * the products then add up.
 */
export function checkLedgerBalances(state: KernelState): void {
  const sumsReal = new Map<string, bigint>();
  const sumsDemo = new Map<string, bigint>();
  for (const account of state.ledger.accounts.values()) {
    const sums = account.mode === "real" ? sumsReal : sumsDemo;
    sums.set(account.assetId, (sums.get(account.assetId) ?? 0n) + account.available + account.held);
    assert(account.held >= 0n, `held balance negative: ${account.key}`);
    assert(
      Object.is(account.availableUnits, unitsOfAmount(account.available)) &&
        Object.is(account.heldUnits, unitsOfAmount(account.held)),
      `balance copies wrong: ${account.key}`,
    );
    assert(
      account.negativeAllowed || account.available >= 0n,
      `available balance negative: ${account.key}`,
    );
    account.heldExpected = 0n;
  }
  for (const [asset, sum] of sumsReal) assert(sum === 0n, `real ${asset} sums to ${sum}, not 0`);
  for (const [asset, sum] of sumsDemo) assert(sum === 0n, `demo ${asset} sums to ${sum}, not 0`);
}

/** Second half: every account holds exactly what the products expect it to. */
export function checkLedgerHolds(state: KernelState): void {
  for (const account of state.ledger.accounts.values()) {
    assert(account.held === account.heldExpected, `held mismatch: ${account.key}`);
  }
}

/** Every posting some account in `accounts` still keeps, once, in sequence order. */
export function keptPostings(log: PostingLog, accounts: readonly Account[]): Posting[] {
  let count = 0;
  let seqMin = Number.MAX_SAFE_INTEGER;
  let seqMax = 0;
  for (const account of accounts) {
    const list = account.postingSlots;
    if (list.length === 0) continue;
    count += list.length;
    // Each account keeps its postings in sequence order.
    seqMin = Math.min(seqMin, log.seqOf(list[0]!));
    seqMax = Math.max(seqMax, log.seqOf(list[list.length - 1]!));
  }
  const ordered: Posting[] = [];
  if (count === 0) return ordered;
  if (seqMax - seqMin < 4 * count + 1_024) {
    // Dense enough: place by sequence number (a posting both its accounts keep lands once),
    // instead of a Map of every posting and a sort.
    const slots = new Int32Array(seqMax - seqMin + 1).fill(-1);
    for (const account of accounts) {
      for (const slot of account.postingSlots) slots[log.seqOf(slot) - seqMin] = slot;
    }
    for (const slot of slots) if (slot !== -1) ordered.push(log.posting(slot));
    return ordered;
  }
  const kept = new Map<number, number>();
  for (const account of accounts) {
    for (const slot of account.postingSlots) kept.set(log.seqOf(slot), slot);
  }
  return [...kept.entries()].sort((a, b) => a[0] - b[0]).map(([, slot]) => log.posting(slot));
}

export const ledgerModule = {
  name: "ledger",
  createState: createLedgerState,
  snapshot: {
    write(state) {
      const ledger = state.ledger;
      const log = ledger.postingLog;
      const owners = [...ledger.owners.values()]
        .sort((a, b) => compareStrings(a.key, b.key))
        .map((owner): Json => [owner.mode, owner.ownerId, owner.index]);
      // Accounts never used are left out: they are created lazily and carry nothing.
      const accountList = [...ledger.accounts.values()]
        .filter((a) => a.available !== 0n || a.held !== 0n || a.postingSlots.length > 0)
        .sort((a, b) => compareStrings(a.key, b.key));
      const accounts = accountList.map((a): Json => [
        a.ownerId,
        a.mode,
        a.wallet,
        a.assetId,
        a.available.toString(),
        a.held.toString(),
        a.postingSlots.map((slot) => log.seqOf(slot)),
      ]);
      const postings = keptPostings(log, accountList).map((p): Json => [
        p.seq,
        p.debitAccount,
        p.creditAccount,
        p.assetId,
        p.amount.toString(),
        p.debitHeld,
        p.reason,
        p.commandId,
        p.atMs,
        p.orderId,
        p.fillId,
        p.tickId,
        p.operatorId,
        p.reference,
      ]);
      return {
        postingSeqLast: ledger.postingSeqLast,
        ownerIndexNext: ledger.ownerIndexNext,
        owners,
        accounts,
        postings,
      };
    },
    read(state, json) {
      const ledger = state.ledger;
      // The snapshot lists the system owners too, with their indices.
      ledger.owners.clear();
      ledger.ownersReal.clear();
      ledger.ownersDemo.clear();
      ledger.accounts.clear();
      for (const [mode, ownerId, index] of json.owners as [Mode, string, number][]) {
        openOwner(state, ownerId, mode).index = index;
      }
      ledger.ownerIndexNext = json.ownerIndexNext as number;
      ledger.postingSeqLast = json.postingSeqLast as number;
      const log = new PostingLog();
      ledger.postingLog = log;
      const kept = new Map<number, number>();
      for (const p of json.postings as Json[][]) {
        const posting: Posting = {
          seq: p[0] as number,
          debitAccount: p[1] as string,
          creditAccount: p[2] as string,
          assetId: p[3] as string,
          amount: BigInt(p[4] as string),
          debitHeld: p[5] as boolean,
          reason: p[6] as PostingReason,
          commandId: p[7] as string,
          atMs: p[8] as number,
          orderId: p[9] as number | null,
          fillId: p[10] as number | null,
          tickId: p[11] as string | null,
          operatorId: p[12] as string | null,
          reference: p[13] as string | null,
        };
        kept.set(posting.seq, log.add(posting));
      }
      for (const [ownerId, mode, wallet, assetId, available, held, seqs] of json.accounts as [
        string,
        Mode,
        Wallet,
        string,
        string,
        string,
        number[],
      ][]) {
        const owner = ledger.owners.get(mode + "|" + ownerId);
        assert(owner !== undefined, "snapshot account without owner");
        const account = accountOf(state, owner, wallet, assetId);
        setBalances(account, BigInt(available), BigInt(held));
        for (const seq of seqs) {
          const slot = kept.get(seq);
          assert(slot !== undefined, "snapshot account keeps an unknown posting");
          log.keep(slot);
          account.postingSlots.push(slot);
        }
      }
    },
  },
} satisfies KernelModule;
