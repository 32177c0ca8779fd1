// Loans on the tape and the clock: liquidation at a recorded tick (citing it), the daily
// schedule entry (interest, late fees, the grace deadline) and the demo reset.

import { assert } from "../assert.ts";
import { post, release } from "../ledger/post.ts";
import type { Tick } from "../reference/types.ts";
import { type ScheduledEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import {
  addReserved,
  allocate,
  changed,
  close,
  collateralAccount,
  DAY_KIND,
  debtOf,
  ltvAt,
  poolAccount,
  scaleOf,
  scheduleDay,
} from "./loans.ts";
import {
  collateralFor,
  collateralValue,
  dayInterest,
  dayLateFee,
  GRACE_DAYS,
  price18,
} from "./math.ts";
import type { LoanState } from "./state.ts";

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
