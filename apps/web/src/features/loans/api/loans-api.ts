import type { ApplyLoanBody, LoanProductView, LoanQuoteView, LoanView } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { loansEndpoints } from "./endpoints.ts";

/*
 * Collateralised loans of issue 22 (contract: packages/contract/src/loans.ts): products and
 * quotes, borrowing, the user's loans and repayment.
 */

export const loansKeys = {
  all: ["loans"] as const,
  products: (mode: "real" | "demo") => [...loansKeys.all, "products", mode] as const,
  quote: (input: object) => [...loansKeys.all, "quote", input] as const,
  mine: () => [...loansKeys.all, "mine"] as const,
};

export function fetchLoanProducts(mode: "real" | "demo") {
  return callEndpoint(loansEndpoints.loanProducts, { query: { mode } });
}

export function fetchLoanQuote(body: { productId: string; amount: string; collateral: string }) {
  return callEndpoint(loansEndpoints.quoteLoan, { body });
}

export function applyLoan(body: ApplyLoanBody) {
  return callEndpoint(loansEndpoints.applyLoan, { body });
}

export function fetchMyLoans() {
  return callEndpoint(loansEndpoints.myLoans, { query: {} });
}

export function repayLoan(loanId: string, amount: string) {
  return callEndpoint(loansEndpoints.repayLoan, {
    params: { loanId },
    body: { requestId: newIdempotencyKey(), amount },
  });
}

export function addLoanCollateral(loanId: string, amount: string) {
  return callEndpoint(loansEndpoints.addLoanCollateral, {
    params: { loanId },
    body: { requestId: newIdempotencyKey(), amount },
  });
}

export type { LoanProductView, LoanQuoteView, LoanView };
