import { StocksPage } from "../../features/stocks/components/stocks-page.tsx";

/** The stock list (spec index/Stock). */
export function Component() {
  return <StocksPage />;
}
