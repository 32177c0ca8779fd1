import { ChartPanel } from "../../features/market-data/components/chart-panel.tsx";
import { StockDetailPage } from "../../features/stocks/components/stock-detail-page.tsx";

/** One stock (spec option/stocksDetail) over the market-data feature's live chart. */
export function Component() {
  return (
    <StockDetailPage
      chart={({ instrumentId, priceScale }) => (
        <ChartPanel
          instrumentId={instrumentId}
          symbol={instrumentId}
          priceScale={priceScale}
          initialInterval="1h"
        />
      )}
    />
  );
}
