import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString, InstrumentId } from "./market.ts";
import { ClientOrderId } from "./spot.ts";
import { AssetId } from "./wallet.ts";

/**
 * Collateralised loans (issue 22, spec ToLoan / ToLoanList, /api/loan/*, userdebt*,
 * userborrowpage). The lent money comes from an operator-funded lending pool; the collateral is
 * frozen in the borrower's fund wallet; loan-to-value is measured at recorded tape ticks;
 * interest and late fees accrue by the kernel's daily schedule; liquidation happens only at a
 * recorded tick, whose id is in the loan. Amounts are decimal strings.
 */

export const LoanProductId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/);
export const LoanId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const LoanStatus = z.enum([
  "pending",
  "rejected",
  "active",
  "repaid",
  "liquidated",
  "reset",
]);
export type LoanStatus = z.infer<typeof LoanStatus>;

/** The terms stated before borrowing; all enforced by the kernel. */
export const LoanTermsView = z.object({
  termDays: z.number().int().positive(),
  /** Daily interest, parts per million of the principal (1,000 = 0.1 % a day). */
  dailyRatePpm: z.number().int().nonnegative(),
  /** Overdue interest as a share of the agreed rate, basis points (11,000 = 110 %). */
  overdueRateBps: z.number().int(),
  /** Late fee per overdue day, basis points of the unpaid principal (100 = 1 %). */
  lateFeeBpsPerDay: z.number().int(),
  /** Days overdue after which the collateral is liquidated at the next recorded tick. */
  graceDays: z.number().int(),
  /** Early full repayment costs this share of the remaining days' interest, basis points. */
  earlyRepaymentBps: z.number().int(),
  ltvInitialBps: z.number().int(),
  ltvMarginCallBps: z.number().int(),
  ltvLiquidationBps: z.number().int(),
});
export type LoanTermsView = z.infer<typeof LoanTermsView>;

export const LoanProductView = z.object({
  productId: z.string(),
  loanAsset: z.string(),
  loanAssetDecimals: z.number().int().nonnegative(),
  collateralAsset: z.string(),
  collateralAssetDecimals: z.number().int().nonnegative(),
  instrumentId: z.string(),
  amountMin: DecimalString,
  amountMax: DecimalString,
  terms: LoanTermsView,
  /** An operator reviews each application before lending. */
  reviewRequired: z.boolean(),
  open: z.boolean(),
  /** What the pool of this mode can lend now (total limit). */
  poolAvailable: DecimalString,
  lastPrice: DecimalString.nullable(),
  lastTickId: z.string().nullable(),
});
export type LoanProductView = z.infer<typeof LoanProductView>;

export const LoanView = z.object({
  loanId: z.string(),
  mode: AccountMode,
  productId: z.string(),
  loanAsset: z.string(),
  collateralAsset: z.string(),
  instrumentId: z.string(),
  terms: LoanTermsView,
  status: LoanStatus,
  principalLent: DecimalString,
  /** Still owed: principal, accrued interest, late fees; their sum. */
  principal: DecimalString,
  interest: DecimalString,
  lateFees: DecimalString,
  debt: DecimalString,
  /** What a full repayment takes now, and the early-repayment compensation inside it. */
  repayNow: DecimalString,
  earlyFee: DecimalString,
  interestPaid: DecimalString,
  lateFeesPaid: DecimalString,
  principalPaid: DecimalString,
  collateral: DecimalString,
  /** Loan-to-value at the last tick, basis points; null without a tick or when closed. */
  ltvBps: z.number().int().nullable(),
  marginCallPrice: DecimalString.nullable(),
  liquidationPrice: DecimalString.nullable(),
  marginCall: z.boolean(),
  forcedClose: z.boolean(),
  appliedAtMs: z.number().int(),
  startedAtMs: z.number().int().nullable(),
  dueAtMs: z.number().int().nullable(),
  daysAccrued: z.number().int(),
  openTickId: z.string().nullable(),
  openPrice: DecimalString.nullable(),
  closeTickId: z.string().nullable(),
  closePrice: DecimalString.nullable(),
  collateralSeized: DecimalString,
  shortfall: DecimalString,
  closedAtMs: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export type LoanView = z.infer<typeof LoanView>;

export const loanProducts = defineEndpoint({
  method: "GET",
  path: "/api/v1/loans/products",
  summary: "Loan products with their terms and what the lending pool can lend now",
  tag: "loans",
  auth: "none",
  query: z.strictObject({ mode: AccountMode.default("real") }),
  response: z.object({ items: z.array(LoanProductView) }),
});

export const LoanQuoteBody = z.strictObject({
  productId: LoanProductId,
  amount: decimalString(18, { positive: true }),
  collateral: decimalString(18, { positive: true }),
});

export const LoanQuoteView = z.object({
  /** Null when the loan would be made; else the error code it would be refused with. */
  refusal: z.string().nullable(),
  ltvBps: z.number().int().nullable(),
  /** Interest for the whole term, and principal + interest due at maturity. */
  interestForTerm: DecimalString,
  dueAtMaturity: DecimalString,
  marginCallPrice: DecimalString.nullable(),
  liquidationPrice: DecimalString.nullable(),
  /** Collateral the initial LTV requires for this amount at the last tick. */
  collateralRequired: DecimalString.nullable(),
  price: DecimalString.nullable(),
  tickId: z.string().nullable(),
});
export type LoanQuoteView = z.infer<typeof LoanQuoteView>;

export const quoteLoan = defineEndpoint({
  method: "POST",
  path: "/api/v1/loans/quote",
  summary: "The LTV, liquidation price and costs of a loan at the last tape price (no commitment)",
  tag: "loans",
  auth: "user",
  body: LoanQuoteBody,
  response: z.object({ quote: LoanQuoteView }),
  errors: ["loan_product_not_found", "amount_too_many_decimals"],
});

export const ApplyLoanBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first loan. */
  requestId: ClientOrderId,
  productId: LoanProductId,
  amount: decimalString(18, { positive: true }),
  collateral: decimalString(18, { positive: true }),
  /** The loan agreement tick box: must be true. */
  agreement: z.literal(true),
});
export type ApplyLoanBody = z.input<typeof ApplyLoanBody>;

export const applyLoan = defineEndpoint({
  method: "POST",
  path: "/api/v1/loans",
  summary: "Borrow (or apply, when the product is reviewed) against collateral (idempotent)",
  tag: "loans",
  auth: "user",
  body: ApplyLoanBody,
  response: z.object({ loan: LoanView, duplicate: z.boolean() }),
  errors: [
    "product_unavailable_in_country",
    "country_required",
    "loan_product_not_found",
    "loan_product_closed",
    "loan_amount_invalid",
    "loan_ltv_too_high",
    "loan_pool_insufficient",
    "insufficient_balance",
    "no_reference_price",
    "reference_price_stale",
    "amount_too_many_decimals",
    "too_many_open_contracts",
    "client_order_id_reused",
  ],
});

export const myLoans = defineEndpoint({
  method: "GET",
  path: "/api/v1/loans",
  summary: "The session's loans and applications, newest first",
  tag: "loans",
  auth: "user",
  query: z.strictObject({ status: LoanStatus.optional() }),
  response: z.object({ items: z.array(LoanView) }),
});

export const loanDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/loans/:loanId",
  summary: "One loan with its figures at the last tick and its tick ids",
  tag: "loans",
  auth: "user",
  params: z.strictObject({ loanId: LoanId }),
  response: z.object({ loan: LoanView }),
  errors: ["loan_not_found"],
});

export const LoanAmountBody = z.strictObject({
  requestId: ClientOrderId,
  amount: decimalString(18, { positive: true }),
});

export const repayLoan = defineEndpoint({
  method: "POST",
  path: "/api/v1/loans/:loanId/repay",
  summary:
    "Repay part or all (fees, interest, then principal); full repayment frees the collateral",
  tag: "loans",
  auth: "user",
  params: z.strictObject({ loanId: LoanId }),
  body: LoanAmountBody,
  response: z.object({ loan: LoanView }),
  errors: [
    "loan_not_found",
    "loan_state_invalid",
    "insufficient_balance",
    "amount_too_many_decimals",
  ],
});

export const addLoanCollateral = defineEndpoint({
  method: "POST",
  path: "/api/v1/loans/:loanId/collateral",
  summary: "Freeze more collateral for a loan",
  tag: "loans",
  auth: "user",
  params: z.strictObject({ loanId: LoanId }),
  body: LoanAmountBody,
  response: z.object({ loan: LoanView }),
  errors: [
    "loan_not_found",
    "loan_state_invalid",
    "insufficient_balance",
    "amount_too_many_decimals",
  ],
});

export const configureLoanProduct = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/loans/products",
  summary: "Operator: define a loan product's terms (later loans only)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    productId: LoanProductId,
    loanAsset: AssetId,
    collateralAsset: AssetId,
    instrumentId: InstrumentId,
    ltvInitialBps: z.number().int().min(1).max(10_000),
    ltvMarginCallBps: z.number().int().min(1).max(10_000),
    ltvLiquidationBps: z.number().int().min(1).max(10_000),
    amountMin: decimalString(18, { positive: true }),
    amountMax: decimalString(18, { positive: true }),
    termDays: z.number().int().min(1).max(365),
    dailyRatePpm: z.number().int().min(0).max(10_000),
    reviewRequired: z.boolean(),
    open: z.boolean(),
    reason: OperatorReason,
  }),
  response: z.object({ product: LoanProductView }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected"],
});

export const fundLoanPool = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/loans/pool",
  summary:
    "Operator: fund the lending pool (real: a journaled deposit of money put in; demo: demo money)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    id: ClientOrderId,
    mode: AccountMode,
    assetId: AssetId,
    amount: decimalString(18, { positive: true }),
    reference: z.string().min(1).max(200),
    reason: OperatorReason,
  }),
  response: z.object({ poolAvailable: DecimalString }),
  errors: ["asset_not_found", "amount_too_many_decimals"],
});

export const pendingLoans = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/loans/pending",
  summary: "Operator: applications waiting for a decision, oldest first",
  tag: "operator",
  auth: "operator",
  response: z.object({ items: z.array(LoanView.extend({ ownerId: z.string() })) }),
});

export const decideLoan = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/loans/:loanId/decision",
  summary: "Operator: approve (LTV re-checked by the kernel at the last tick) or reject",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ loanId: LoanId }),
  /** The reason goes to the audit log and, on a rejection, to the borrower (kernel: ≤ 200). */
  body: z.strictObject({ approve: z.boolean(), reason: OperatorReason.max(200) }),
  response: z.object({ loan: LoanView }),
  errors: ["loan_not_found", "loan_state_invalid", "loan_ltv_too_high", "reference_price_stale"],
});
