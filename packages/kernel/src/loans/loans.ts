// Loans: apply, decide, repay, add collateral (terms and pool funding: terms.ts; the daily
// schedule entry and liquidation from the tape: ticks.ts).
// Money moves only between the pool (`system:treasury` contract wallet), the borrower's fund
// wallet and the treasury's fund wallet (funding), by balanced postings.

import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { accountOf, availableOf, findOwner, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { AMOUNT_SANITY_MAX, amountCode, hold, post, release } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import type { Tick } from "../reference/types.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import { collateralValue, DAY_MS, earlyRepaymentFee, ltvBps, price18 } from "./math.ts";
import type { LoanState } from "./state.ts";
import type { LoanChangedEvent, LoanView } from "./types.ts";

export const TERM_DAYS_MAX = 365;
export const DAILY_RATE_PPM_MAX = 10_000;
export const TICK_AGE_MS_MAX = 600_000;
export const REASON_LENGTH_MAX = 200;
/** Most live (pending or active) loans per owner and mode. */
export const LIVE_LOANS_PER_OWNER_MAX = 20;
/** The schedule entry kind: one day of a loan. */
export const DAY_KIND = "loan_day";

export function loanView(loan: LoanState): LoanView {
  const { seq: _seq, ...view } = loan;
  return { ...view };
}

export function scaleOf(state: KernelState, assetId: string): number {
  const asset = state.reference.assets.get(assetId);
  assert(asset !== undefined, "a loan's asset is defined");
  return asset.scale;
}

/** What the borrower owes now, before any early-repayment compensation. */
export function debtOf(loan: LoanView): bigint {
  return loan.principal + loan.interest + loan.lateFees;
}

/** Everything a full repayment takes now (before maturity: with the early-repayment fee). */
export function fullRepaymentOf(loan: LoanView): { due: bigint; earlyFee: bigint } {
  const earlyFee =
    loan.status === "active"
      ? earlyRepaymentFee(loan.principal, loan.dailyRatePpm, loan.termDays, loan.daysAccrued)
      : 0n;
  return { due: debtOf(loan) + earlyFee, earlyFee };
}

export function poolAccount(state: KernelState, mode: Mode, assetId: string): Account {
  return accountOf(state, systemOwner(state, mode, systemOwners.treasury), "contract", assetId);
}

export function collateralAccount(state: KernelState, loan: LoanView): Account {
  const owner = ownerOf(state, loan.mode, loan.ownerId);
  assert(owner !== undefined, "a loan's owner exists");
  return accountOf(state, owner, "fund", loan.collateralAssetId);
}

export function changed(
  state: KernelState,
  change: LoanChangedEvent["change"],
  loan: LoanState,
): void {
  emit(state, { type: "loan_changed", change, loan: loanView(loan) });
}

export function reservedKey(mode: Mode, assetId: string): string {
  return mode + "|" + assetId;
}

export function addReserved(state: KernelState, mode: Mode, assetId: string, amount: bigint): void {
  const key = reservedKey(mode, assetId);
  const next = (state.loans.reserved.get(key) ?? 0n) + amount;
  assert(next >= 0n, "a pool reservation went negative");
  if (next === 0n) state.loans.reserved.delete(key);
  else state.loans.reserved.set(key, next);
}

/** Lists a pending or active loan by instrument (apply, and snapshot restore). */
export function addLive(state: KernelState, loan: LoanState): void {
  let byInstrument = state.loans.liveByInstrument.get(loan.instrumentId);
  if (byInstrument === undefined) {
    byInstrument = new Map();
    state.loans.liveByInstrument.set(loan.instrumentId, byInstrument);
  }
  byInstrument.set(loan.loanId, loan);
}

export function removeLive(state: KernelState, loan: LoanState): void {
  const byInstrument = state.loans.liveByInstrument.get(loan.instrumentId);
  assert(byInstrument?.delete(loan.loanId) === true, "a live loan is indexed");
  if (byInstrument.size === 0) state.loans.liveByInstrument.delete(loan.instrumentId);
}

export function liveCountOf(state: KernelState, ownerId: string, mode: Mode): number {
  let count = 0;
  for (const byInstrument of state.loans.liveByInstrument.values()) {
    for (const loan of byInstrument.values()) {
      if (loan.ownerId === ownerId && loan.mode === mode) count++;
    }
  }
  return count;
}

export function freshTick(
  state: KernelState,
  instrumentId: string,
  tickAgeMaxMs: number,
  atMs: number,
): Tick | "no_reference_price" | "reference_price_stale" {
  const tick = state.reference.ticks.get(instrumentId);
  if (tick === undefined) return "no_reference_price";
  if (atMs - tick.tickAtMs > tickAgeMaxMs) return "reference_price_stale";
  return tick;
}

export function ltvAt(state: KernelState, loan: LoanView, tick: Tick, debt: bigint): bigint {
  const value = collateralValue(
    loan.collateral,
    price18(tick.price),
    scaleOf(state, loan.collateralAssetId),
    scaleOf(state, loan.loanAssetId),
  );
  return ltvBps(debt, value);
}

export const loansApply: Handler<"loans_apply"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const product = state.loans.products.get(command.productId);
  if (product === undefined) return fail("loans_product_not_found");
  if (!product.open) return fail("loans_product_closed");
  if (state.loans.loans.has(command.id)) return fail("loan_exists");
  const loanAsset = state.reference.assets.get(product.loanAssetId)!;
  const collateralAsset = state.reference.assets.get(product.collateralAssetId)!;
  if (
    command.amount <= 0n ||
    command.amount < product.amountMin ||
    command.amount > product.amountMax
  ) {
    return fail("loan_amount_invalid");
  }
  const code = amountCode(collateralAsset, command.collateral);
  if (code !== null) return fail(code);
  if (liveCountOf(state, owner.ownerId, owner.mode) >= LIVE_LOANS_PER_OWNER_MAX) {
    return fail("too_many_open_contracts");
  }
  const tick = freshTick(state, product.instrumentId, product.tickAgeMaxMs, command.atMs);
  if (typeof tick === "string") return fail(tick);
  const value = collateralValue(
    command.collateral,
    price18(tick.price),
    collateralAsset.scale,
    loanAsset.scale,
  );
  if (ltvBps(command.amount, value) > BigInt(product.ltvInitialBps))
    return fail("loans_ltv_too_high");
  if (availableOf(owner, "fund", collateralAsset.assetId) < command.collateral) {
    return fail("insufficient_balance");
  }
  const pool = poolAccount(state, owner.mode, loanAsset.assetId);
  if (pool.available < command.amount) return fail("loans_pool_insufficient");

  hold(state, accountOf(state, owner, "fund", collateralAsset.assetId), command.collateral);
  const loan: LoanState = {
    loanId: command.id,
    ownerId: owner.ownerId,
    mode: owner.mode,
    productId: product.productId,
    loanAssetId: loanAsset.assetId,
    collateralAssetId: collateralAsset.assetId,
    instrumentId: product.instrumentId,
    ltvInitialBps: product.ltvInitialBps,
    ltvMarginCallBps: product.ltvMarginCallBps,
    ltvLiquidationBps: product.ltvLiquidationBps,
    termDays: product.termDays,
    dailyRatePpm: product.dailyRatePpm,
    status: "pending",
    principalLent: command.amount,
    principal: 0n,
    interest: 0n,
    lateFees: 0n,
    interestPaid: 0n,
    lateFeesPaid: 0n,
    principalPaid: 0n,
    collateral: command.collateral,
    appliedAtMs: command.atMs,
    startedAtMs: null,
    dueAtMs: null,
    daysAccrued: 0,
    marginCall: false,
    forcedClose: false,
    openTickId: null,
    openPrice: null,
    closeTickId: null,
    closePrice: null,
    collateralSeized: 0n,
    shortfall: 0n,
    closedAtMs: null,
    reason: null,
    seq: state.loans.seqNext++,
  };
  state.loans.loans.set(loan.loanId, loan);
  addLive(state, loan);
  if (product.reviewRequired) {
    hold(state, pool, command.amount);
    addReserved(state, owner.mode, loanAsset.assetId, command.amount);
    changed(state, "applied", loan);
  } else {
    lend(state, loan, tick, false, null);
  }
  return DONE;
};

/** Moves the principal from the pool to the borrower and starts the loan's days. */
export function lend(
  state: KernelState,
  loan: LoanState,
  tick: Tick,
  fromHeld: boolean,
  operatorId: string | null,
): void {
  const borrower = ownerOf(state, loan.mode, loan.ownerId)!;
  post(state, {
    debit: poolAccount(state, loan.mode, loan.loanAssetId),
    debitHeld: fromHeld,
    credit: accountOf(state, borrower, "fund", loan.loanAssetId),
    amount: loan.principalLent,
    reason: "loans_principal",
    refs: { tickId: tick.tickId, operatorId, reference: loan.loanId },
  });
  const now = state.nowMs;
  loan.status = "active";
  loan.principal = loan.principalLent;
  loan.startedAtMs = now;
  loan.dueAtMs = now + loan.termDays * DAY_MS;
  loan.openTickId = tick.tickId;
  loan.openPrice = tick.price;
  scheduleDay(state, loan, 1);
  changed(state, "approved", loan);
}

export function scheduleDay(state: KernelState, loan: LoanState, day: number): void {
  scheduleEntry(state, {
    dueMs: loan.startedAtMs! + day * DAY_MS,
    module: "loans",
    kind: DAY_KIND,
    payload: [loan.loanId, loan.seq, day],
  });
}

export const loansDecide: Handler<"loans_decide"> = (state, command) => {
  const loan = state.loans.loans.get(command.loanId);
  if (loan === undefined) return fail("loan_not_found");
  if (loan.status !== "pending") return fail("loan_not_pending");
  if (command.reason !== null && command.reason.length > REASON_LENGTH_MAX) {
    return fail("loans_terms_invalid");
  }
  const product = state.loans.products.get(loan.productId)!;
  if (command.approve) {
    // The terms are the kernel's: the LTV is checked again at the last tick.
    const tick = freshTick(state, loan.instrumentId, product.tickAgeMaxMs, command.atMs);
    if (typeof tick === "string") return fail(tick);
    if (ltvAt(state, loan, tick, loan.principalLent) > BigInt(loan.ltvInitialBps)) {
      return fail("loans_ltv_too_high");
    }
    addReserved(state, loan.mode, loan.loanAssetId, -loan.principalLent);
    loan.reason = command.reason;
    lend(state, loan, tick, true, command.operatorId);
    return DONE;
  }
  release(state, poolAccount(state, loan.mode, loan.loanAssetId), loan.principalLent);
  addReserved(state, loan.mode, loan.loanAssetId, -loan.principalLent);
  release(state, collateralAccount(state, loan), loan.collateral);
  removeLive(state, loan);
  loan.status = "rejected";
  loan.reason = command.reason;
  loan.closedAtMs = state.nowMs;
  changed(state, "rejected", loan);
  return DONE;
};

export function ownLoan(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  loanId: string,
): LoanState | "loan_not_found" {
  const loan = state.loans.loans.get(loanId);
  if (loan === undefined || loan.ownerId !== ownerId || loan.mode !== mode) {
    return "loan_not_found";
  }
  return loan;
}

export const loansRepay: Handler<"loans_repay"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  const loan = ownLoan(state, owner.ownerId, owner.mode, command.loanId);
  if (typeof loan === "string") return fail(loan);
  if (loan.status !== "active") return fail("loan_not_active");
  const asset = state.reference.assets.get(loan.loanAssetId)!;
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  const { due, earlyFee } = fullRepaymentOf(loan);
  const full = command.amount >= due;
  const paying = full ? due : command.amount;
  if (availableOf(owner, "fund", asset.assetId) < paying) return fail("insufficient_balance");
  post(state, {
    debit: accountOf(state, owner, "fund", asset.assetId),
    credit: poolAccount(state, loan.mode, asset.assetId),
    amount: paying,
    reason: "loans_repayment",
    refs: { reference: loan.loanId },
  });
  let left = paying;
  if (full) {
    loan.interestPaid += earlyFee;
    left -= earlyFee;
  }
  left = allocate(loan, left);
  assert(left === 0n || !full, "a full repayment covers the debt exactly");
  if (left > 0n) {
    // More than the debt but less than the debt plus the early fee: the rest is compensation.
    loan.interestPaid += left;
  }
  if (full) {
    assert(debtOf(loan) === 0n, "a full repayment leaves no debt");
    close(state, loan, "repaid");
    release(state, collateralAccount(state, loan), loan.collateral);
  }
  changed(state, "repaid", loan);
  return DONE;
};

/** Pays late fees, then interest, then principal out of `amount`; returns what is left. */
export function allocate(loan: LoanState, amount: bigint): bigint {
  let left = amount;
  const fees = left < loan.lateFees ? left : loan.lateFees;
  loan.lateFees -= fees;
  loan.lateFeesPaid += fees;
  left -= fees;
  const interest = left < loan.interest ? left : loan.interest;
  loan.interest -= interest;
  loan.interestPaid += interest;
  left -= interest;
  const principal = left < loan.principal ? left : loan.principal;
  loan.principal -= principal;
  loan.principalPaid += principal;
  return left - principal;
}

export function close(
  state: KernelState,
  loan: LoanState,
  status: "repaid" | "liquidated" | "reset",
): void {
  removeLive(state, loan);
  loan.status = status;
  loan.closedAtMs = state.nowMs;
  loan.marginCall = false;
}

export const loansAddCollateral: Handler<"loans_add_collateral"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  const loan = ownLoan(state, owner.ownerId, owner.mode, command.loanId);
  if (typeof loan === "string") return fail(loan);
  if (loan.status !== "active" && loan.status !== "pending") return fail("loan_not_active");
  const asset = state.reference.assets.get(loan.collateralAssetId)!;
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (loan.collateral + command.amount > AMOUNT_SANITY_MAX) return fail("amount_above_maximum");
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  hold(state, accountOf(state, owner, "fund", asset.assetId), command.amount);
  loan.collateral += command.amount;
  // The margin call is cleared by the next tick of the instrument, at its price.
  changed(state, "collateral_added", loan);
  return DONE;
};
