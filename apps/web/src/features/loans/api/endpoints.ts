import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints loans call (contract: loans.ts). */
export const loansEndpoints = endpointTable({
  loanProducts: { method: "GET", path: "/api/v1/loans/products", auth: "none" },
  quoteLoan: { method: "POST", path: "/api/v1/loans/quote", auth: "user" },
  applyLoan: { method: "POST", path: "/api/v1/loans", auth: "user" },
  myLoans: { method: "GET", path: "/api/v1/loans", auth: "user" },
  repayLoan: { method: "POST", path: "/api/v1/loans/:loanId/repay", auth: "user" },
  addLoanCollateral: { method: "POST", path: "/api/v1/loans/:loanId/collateral", auth: "user" },
});
