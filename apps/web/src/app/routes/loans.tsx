import { ProductCountryNotice } from "../../features/security/components/product-country-notice.tsx";
import { LoanPage } from "../../features/loans/components/loan-page.tsx";

/** ToLoan: borrow against collateral. */
export function Component() {
  return (
    <>
      <ProductCountryNotice product="loans" />
      <LoanPage />
    </>
  );
}
