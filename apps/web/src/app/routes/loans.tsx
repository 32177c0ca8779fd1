import { LoanPage } from "../../features/loans/components/loan-page.tsx";

/** ToLoan: borrow against collateral. */
export function Component() {
  return <LoanPage />;
}
