import { ProductCountryNotice } from "../../features/security/components/product-country-notice.tsx";
import { StocksPage } from "../../features/stocks/components/stocks-page.tsx";

/** The stock list (spec index/Stock). */
export function Component() {
  return (
    <>
      <ProductCountryNotice product="stocks" />
      <StocksPage />
    </>
  );
}
