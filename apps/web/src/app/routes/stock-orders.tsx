import { StockOrdersPage } from "../../features/stocks/components/stock-orders-page.tsx";

/** Stock orders, history and fills (spec futures/StockOrders). */
export function Component() {
  return <StockOrdersPage />;
}
