import { ProductCountryNotice } from "../../features/security/components/product-country-notice.tsx";
import { SavingsPage } from "../../features/savings/components/savings-page.tsx";

/** Savings plans and mining products, with the per-country notice above them. */
export function Component() {
  return (
    <>
      <ProductCountryNotice product="savings" />
      <SavingsPage />
    </>
  );
}
