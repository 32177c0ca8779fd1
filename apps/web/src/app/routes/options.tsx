import { ChartPanel } from "../../features/market-data/components/chart-panel.tsx";
import { ProductCountryNotice } from "../../features/security/components/product-country-notice.tsx";
import { OptionsPage } from "../../features/seconds/components/options-page.tsx";

/** The Options page: seconds contracts over the market-data feature's live chart. */
export function Component() {
  return (
    <>
      <ProductCountryNotice product="seconds" />
      <OptionsPage
        chart={({ instrumentId, priceScale }) => (
          <ChartPanel
            instrumentId={instrumentId}
            symbol={instrumentId}
            priceScale={priceScale}
            initialInterval="1m"
          />
        )}
      />
    </>
  );
}
