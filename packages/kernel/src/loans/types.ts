// Collateralised loans: commands, views and events.
//
// The lent money comes only from an operator-funded lending pool (`system:treasury`'s contract
// wallet, filled by `loans_fund_pool`); the borrower's collateral is frozen (held) in their fund
// wallet. Loan-to-value is measured only at recorded tape prices, interest and late fees accrue
// only by the kernel's daily schedule entries, and collateral is liquidated only at a recorded
// tick (its id is cited). No command carries a price, an interest amount or an outcome.

import type { CommandBase, Mode, NoValue } from "../types.ts";

/**
 * Defines or changes a loan product (applies to later applications; every loan keeps the terms
 * it was made with). Both modes share products.
 */
export interface LoansConfigureCommand extends CommandBase {
  type: "loans_configure";
  /** 1–64 of A–Z a–z 0–9 _ . - */
  productId: string;
  /** What is lent, e.g. "USDT". */
  loanAssetId: string;
  /** What is frozen as collateral, e.g. "BTC". */
  collateralAssetId: string;
  /** Tape instrument pricing the collateral in the loan asset, e.g. "BTC-USDT". */
  instrumentId: string;
  /** Most loan-to-value when the loan is made, basis points (e.g. 6,500 = 65 %). */
  ltvInitialBps: number;
  /** Margin call at this loan-to-value. */
  ltvMarginCallBps: number;
  /** Collateral liquidated at this loan-to-value (initial < margin call < liquidation ≤ 10,000). */
  ltvLiquidationBps: number;
  /** Principal bounds, smallest units of the loan asset ("Loan amount error" outside them). */
  amountMin: bigint;
  amountMax: bigint;
  /** Term, whole days, 1–365: one lump-sum repayment of principal and interest at maturity. */
  termDays: number;
  /** Daily interest, parts per million of the principal (e.g. 500 = 0.05 % a day). */
  dailyRatePpm: number;
  /** True: an operator approves each application (`loans_decide`); false: lent at once. */
  reviewRequired: boolean;
  /** The tape price used may be at most this old (command time − tick time), ms. */
  tickAgeMaxMs: number;
  /** False stops new applications (existing loans run on). */
  open: boolean;
  operatorId: string | null;
}

/** Moves money into the lending pool (journaled funding): real from `system:treasury`'s fund wallet, demo from the demo faucet. */
export interface LoansFundPoolCommand extends CommandBase {
  type: "loans_fund_pool";
  mode: Mode;
  assetId: string;
  amount: bigint;
  operatorId: string | null;
}

/**
 * Applies for (or, on a product without review, takes) a loan. The loan id is the command id.
 * The collateral is frozen and the principal is reserved in the pool at once; LTV is checked at
 * the instrument's last recorded tick.
 */
export interface LoansApplyCommand extends CommandBase {
  type: "loans_apply";
  ownerId: string;
  mode: Mode;
  productId: string;
  /** Principal, smallest units of the loan asset. */
  amount: bigint;
  /** Collateral, smallest units of the collateral asset. */
  collateral: bigint;
}

/** An operator approves (lends; LTV re-checked at the last tick) or rejects an application. */
export interface LoansDecideCommand extends CommandBase {
  type: "loans_decide";
  loanId: string;
  approve: boolean;
  /** Why (shown to the applicant on rejection); 0–200 characters. */
  reason: string | null;
  operatorId: string | null;
}

/**
 * Repays up to `amount` of the loan asset: late fees first, then interest, then principal. When
 * `amount` covers everything due (with the early-repayment compensation before maturity) the
 * loan closes, exactly the due amount is taken and the collateral is released at once.
 */
export interface LoansRepayCommand extends CommandBase {
  type: "loans_repay";
  ownerId: string;
  mode: Mode;
  loanId: string;
  amount: bigint;
}

/** Freezes more collateral for an active (or pending) loan. */
export interface LoansAddCollateralCommand extends CommandBase {
  type: "loans_add_collateral";
  ownerId: string;
  mode: Mode;
  loanId: string;
  amount: bigint;
}

export interface LoansProductView {
  productId: string;
  loanAssetId: string;
  collateralAssetId: string;
  instrumentId: string;
  ltvInitialBps: number;
  ltvMarginCallBps: number;
  ltvLiquidationBps: number;
  amountMin: bigint;
  amountMax: bigint;
  termDays: number;
  dailyRatePpm: number;
  reviewRequired: boolean;
  tickAgeMaxMs: number;
  open: boolean;
}

export type LoanStatus =
  /** Waiting for an operator; collateral frozen, principal reserved in the pool. */
  | "pending"
  | "rejected"
  | "active"
  | "repaid"
  | "liquidated"
  /** A demo loan closed by resetting the demo account. */
  | "reset";

export interface LoanView {
  loanId: string;
  ownerId: string;
  mode: Mode;
  productId: string;
  loanAssetId: string;
  collateralAssetId: string;
  instrumentId: string;
  ltvInitialBps: number;
  ltvMarginCallBps: number;
  ltvLiquidationBps: number;
  termDays: number;
  dailyRatePpm: number;
  status: LoanStatus;
  /** The principal lent, and what of it is still owed. */
  principalLent: bigint;
  principal: bigint;
  /** Accrued and unpaid interest and late fees (smallest units of the loan asset). */
  interest: bigint;
  lateFees: bigint;
  /** Paid so far: interest (early-repayment compensation included), late fees, principal. */
  interestPaid: bigint;
  lateFeesPaid: bigint;
  principalPaid: bigint;
  /** Frozen collateral (smallest units of the collateral asset). */
  collateral: bigint;
  appliedAtMs: number;
  /** Lent at / due at (null while pending or when rejected). */
  startedAtMs: number | null;
  dueAtMs: number | null;
  /** Daily schedule entries run so far (days of interest accrued). */
  daysAccrued: number;
  /** True from the margin-call LTV until the LTV falls back below it. */
  marginCall: boolean;
  /** Overdue beyond the grace: liquidated at the next tick of the instrument. */
  forcedClose: boolean;
  /** The tick the loan was made at (LTV check), and the tick of its liquidation. */
  openTickId: string | null;
  openPrice: string | null;
  closeTickId: string | null;
  closePrice: string | null;
  /** Liquidation: collateral taken by the pool, debt left uncovered, collateral returned. */
  collateralSeized: bigint;
  shortfall: bigint;
  closedAtMs: number | null;
  /** Rejection reason from the operator. */
  reason: string | null;
}

export interface LoansConfiguredEvent {
  type: "loans_configured";
  product: LoansProductView;
  operatorId: string | null;
}

export interface LoansPoolFundedEvent {
  type: "loans_pool_funded";
  mode: Mode;
  assetId: string;
  amount: bigint;
  operatorId: string | null;
}

/** Any change of a loan: applied, decided, accrued, repaid, collateral added, margin call, closed. */
export interface LoanChangedEvent {
  type: "loan_changed";
  change:
    | "applied"
    | "approved"
    | "rejected"
    | "accrued"
    | "repaid"
    | "collateral_added"
    | "margin_call"
    | "forced_close_due"
    | "liquidated"
    | "reset";
  loan: LoanView;
}

declare module "../types.ts" {
  interface CommandMap {
    loans_configure: LoansConfigureCommand;
    loans_fund_pool: LoansFundPoolCommand;
    loans_apply: LoansApplyCommand;
    loans_decide: LoansDecideCommand;
    loans_repay: LoansRepayCommand;
    loans_add_collateral: LoansAddCollateralCommand;
  }
  interface ResultMap {
    loans_configure: NoValue;
    loans_fund_pool: NoValue;
    loans_apply: NoValue;
    loans_decide: NoValue;
    loans_repay: NoValue;
    loans_add_collateral: NoValue;
  }
  interface EventMap {
    loans_configured: LoansConfiguredEvent;
    loans_pool_funded: LoansPoolFundedEvent;
    loan_changed: LoanChangedEvent;
  }
}
