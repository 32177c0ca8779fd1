// Loans: configure, fund the pool, apply, decide, repay, add collateral; the daily schedule
// entry (interest, late fees, the grace deadline) and liquidation from the tape (`onTick`).
// Money moves only between the pool (`system:treasury` contract wallet), the borrower's fund
// wallet and the treasury's fund wallet (funding), by balanced postings.

import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { accountOf, availableOf, findOwner, ownerOf, systemOwner } from "../ledger/accounts.ts";
import type { Account } from "../ledger/state.ts";
import { amountCode, AMOUNT_SANITY_MAX, hold, post, release } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { ID_PATTERN } from "../reference/markets.ts";
import type { Tick } from "../reference/types.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { scheduleEntry, type ScheduledEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import {
  collateralFor,
  collateralValue,
  DAY_MS,
  dayInterest,
  dayLateFee,
  earlyRepaymentFee,
  GRACE_DAYS,
  ltvBps,
  price18,
} from "./math.ts";
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

function scaleOf(state: KernelState, assetId: string): number {
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

function poolAccount(state: KernelState, mode: Mode, assetId: string): Account {
  return accountOf(state, systemOwner(state, mode, systemOwners.treasury), "contract", assetId);
}

function collateralAccount(state: KernelState, loan: LoanView): Account {
  const owner = ownerOf(state, loan.mode, loan.ownerId);
  assert(owner !== undefined, "a loan's owner exists");
  return accountOf(state, owner, "fund", loan.collateralAssetId);
}

function changed(state: KernelState, change: LoanChangedEvent["change"], loan: LoanState): void {
  emit(state, { type: "loan_changed", change, loan: loanView(loan) });
}

function reservedKey(mode: Mode, assetId: string): string {
  return mode + "|" + assetId;
}

function addReserved(state: KernelState, mode: Mode, assetId: string, amount: bigint): void {
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

function removeLive(state: KernelState, loan: LoanState): void {
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

export const loansConfigure: Handler<"loans_configure"> = (state, command) => {
  if (!ID_PATTERN.test(command.productId)) return fail("loans_terms_invalid");
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  const loanAsset = state.reference.assets.get(command.loanAssetId);
  const collateralAsset = state.reference.assets.get(command.collateralAssetId);
  if (loanAsset === undefined || collateralAsset === undefined) return fail("asset_not_found");
  const existing = state.loans.products.get(command.productId);
  if (
    loanAsset === collateralAsset ||
    !Number.isInteger(command.ltvInitialBps) ||
    !Number.isInteger(command.ltvMarginCallBps) ||
    !Number.isInteger(command.ltvLiquidationBps) ||
    command.ltvInitialBps < 1 ||
    command.ltvMarginCallBps <= command.ltvInitialBps ||
    command.ltvLiquidationBps <= command.ltvMarginCallBps ||
    command.ltvLiquidationBps > 10_000 ||
    !Number.isInteger(command.termDays) ||
    command.termDays < 1 ||
    command.termDays > TERM_DAYS_MAX ||
    !Number.isInteger(command.dailyRatePpm) ||
    command.dailyRatePpm < 0 ||
    command.dailyRatePpm > DAILY_RATE_PPM_MAX ||
    !Number.isSafeInteger(command.tickAgeMaxMs) ||
    command.tickAgeMaxMs < 1 ||
    command.tickAgeMaxMs > TICK_AGE_MS_MAX ||
    command.amountMin <= 0n ||
    command.amountMax < command.amountMin ||
    command.amountMax > AMOUNT_SANITY_MAX ||
    // A product's assets never change: its loans are counted in them.
    (existing !== undefined &&
      (existing.loanAssetId !== loanAsset.assetId ||
        existing.collateralAssetId !== collateralAsset.assetId))
  ) {
    return fail("loans_terms_invalid");
  }
  const code = amountCode(loanAsset, command.amountMax);
  if (code !== null) return fail(code);
  const product = {
    productId: command.productId,
    loanAssetId: loanAsset.assetId,
    collateralAssetId: collateralAsset.assetId,
    instrumentId: command.instrumentId,
    ltvInitialBps: command.ltvInitialBps,
    ltvMarginCallBps: command.ltvMarginCallBps,
    ltvLiquidationBps: command.ltvLiquidationBps,
    amountMin: command.amountMin,
    amountMax: command.amountMax,
    termDays: command.termDays,
    dailyRatePpm: command.dailyRatePpm,
    reviewRequired: command.reviewRequired,
    tickAgeMaxMs: command.tickAgeMaxMs,
    open: command.open,
  };
  state.loans.products.set(product.productId, product);
  emit(state, {
    type: "loans_configured",
    product: { ...product },
    operatorId: command.operatorId,
  });
  return DONE;
};

export const loansFundPool: Handler<"loans_fund_pool"> = (state, command) => {
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  // Real: from the treasury's deposited money. Demo: from the demo faucet (demo money only).
  const source =
    command.mode === "real"
      ? systemOwner(state, "real", systemOwners.treasury)
      : systemOwner(state, "demo", systemOwners.demoFaucet);
  if (command.mode === "real" && availableOf(source, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  post(state, {
    debit: accountOf(state, source, "fund", asset.assetId),
    credit: poolAccount(state, command.mode, asset.assetId),
    amount: command.amount,
    reason: "loans_pool_funding",
    refs: { operatorId: command.operatorId, reference: command.id },
  });
  emit(state, {
    type: "loans_pool_funded",
    mode: command.mode,
    assetId: asset.assetId,
    amount: command.amount,
    operatorId: command.operatorId,
  });
  return DONE;
};

/** The instrument's last tick if fresh enough, or a rejection code. */
function freshTick(
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

function ltvAt(state: KernelState, loan: LoanView, tick: Tick, debt: bigint): bigint {
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
function lend(
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

function scheduleDay(state: KernelState, loan: LoanState, day: number): void {
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

function ownLoan(
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
function allocate(loan: LoanState, amount: bigint): bigint {
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

function close(
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

/**
 * Liquidates at `tick`: the pool takes the least collateral worth the debt at the tick's price
 * (all of it when it is worth less: the difference is the pool's shortfall), and the rest of the
 * collateral is released to the borrower.
 */
function liquidate(state: KernelState, loan: LoanState, tick: Tick): void {
  const collateralScale = scaleOf(state, loan.collateralAssetId);
  const loanScale = scaleOf(state, loan.loanAssetId);
  const p18 = price18(tick.price);
  const debt = debtOf(loan);
  const needed = collateralFor(debt, p18, collateralScale, loanScale);
  const seized = needed < loan.collateral ? needed : loan.collateral;
  const value = collateralValue(seized, p18, collateralScale, loanScale);
  const covered = value < debt ? value : debt;
  const account = collateralAccount(state, loan);
  if (seized > 0n) {
    post(state, {
      debit: account,
      debitHeld: true,
      credit: poolAccount(state, loan.mode, loan.collateralAssetId),
      amount: seized,
      reason: "loans_liquidation",
      refs: { tickId: tick.tickId, reference: loan.loanId },
    });
  }
  const rest = loan.collateral - seized;
  if (rest > 0n) release(state, account, rest);
  const left = allocate(loan, covered);
  assert(left === 0n, "liquidation covers at most the debt");
  loan.shortfall = debtOf(loan);
  loan.principal = 0n;
  loan.interest = 0n;
  loan.lateFees = 0n;
  loan.collateralSeized = seized;
  loan.closeTickId = tick.tickId;
  loan.closePrice = tick.price;
  close(state, loan, "liquidated");
  changed(state, "liquidated", loan);
}

/**
 * record_tick: every active loan on the instrument is measured at the tick's price. Overdue past
 * the grace, or at the liquidation LTV: liquidated at this tick. At the margin-call LTV: a margin
 * call (once, until the LTV falls back below it).
 */
export function loansOnTick(state: KernelState, tick: Tick): void {
  const byInstrument = state.loans.liveByInstrument.get(tick.instrumentId);
  if (byInstrument === undefined) return;
  const due: LoanState[] = [];
  for (const loan of byInstrument.values()) {
    if (loan.status !== "active" || loan.openTickId === tick.tickId) continue;
    due.push(loan);
  }
  due.sort((a, b) => a.seq - b.seq);
  for (const loan of due) {
    const ltv = ltvAt(state, loan, tick, debtOf(loan));
    if (loan.forcedClose || ltv >= BigInt(loan.ltvLiquidationBps)) {
      liquidate(state, loan, tick);
    } else if (ltv >= BigInt(loan.ltvMarginCallBps) !== loan.marginCall) {
      loan.marginCall = !loan.marginCall;
      changed(state, "margin_call", loan);
    }
  }
}

/** The daily entry: a day's interest (110 % when overdue) and late fee; the grace deadline. */
export function loansRunScheduled(state: KernelState, entry: ScheduledEntry): void {
  assert(entry.kind === DAY_KIND, "unknown loans schedule entry");
  const [loanId, seq, day] = entry.payload as [string, number, number];
  const loan = state.loans.loans.get(loanId);
  if (loan === undefined || loan.seq !== seq || loan.status !== "active") return;
  assert(day === loan.daysAccrued + 1, "loan days run in order");
  const overdue = day > loan.termDays;
  loan.interest += dayInterest(loan.principal, loan.dailyRatePpm, overdue);
  if (overdue) loan.lateFees += dayLateFee(loan.principal);
  loan.daysAccrued = day;
  scheduleDay(state, loan, day + 1);
  if (day >= loan.termDays + GRACE_DAYS && !loan.forcedClose) {
    loan.forcedClose = true;
    changed(state, "forced_close_due", loan);
  } else {
    changed(state, "accrued", loan);
  }
}

/**
 * reset_demo: the owner's demo loans end; the collateral is released and the demo pool writes
 * the principal off (demo money). Returns 0: no orders were cancelled.
 */
export function loansOnDemoReset(state: KernelState, ownerId: string): number {
  const live = [...state.loans.loans.values()].filter(
    (loan) =>
      loan.mode === "demo" &&
      loan.ownerId === ownerId &&
      (loan.status === "pending" || loan.status === "active"),
  );
  for (const loan of live) {
    if (loan.status === "pending") {
      release(state, poolAccount(state, "demo", loan.loanAssetId), loan.principalLent);
      addReserved(state, "demo", loan.loanAssetId, -loan.principalLent);
    }
    release(state, collateralAccount(state, loan), loan.collateral);
    // Written off: the demo pool bears it (demo money).
    loan.shortfall = debtOf(loan);
    loan.principal = 0n;
    loan.interest = 0n;
    loan.lateFees = 0n;
    close(state, loan, "reset");
    changed(state, "reset", loan);
  }
  return 0;
}
