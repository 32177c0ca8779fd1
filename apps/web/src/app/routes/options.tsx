import { ChartPanel } from "../../features/market-data/components/chart-panel.tsx";
import { OptionsPage } from "../../features/seconds/components/options-page.tsx";

/** The Options page: seconds contracts over the market-data feature's live chart. */
export function Component() {
  return (
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
  );
}
