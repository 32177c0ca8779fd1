import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the stock screens call (contract: stocks.ts). */
export const stocksEndpoints = endpointTable({
  stockPageData: { method: "GET", path: "/api/v1/stocks", auth: "none" },
  stockDetail: { method: "GET", path: "/api/v1/stocks/:instrumentId", auth: "none" },
  estimateStockOrder: { method: "POST", path: "/api/v1/stocks/estimate", auth: "user" },
  placeStockOrder: { method: "POST", path: "/api/v1/stocks/orders", auth: "user" },
  stockOrders: { method: "GET", path: "/api/v1/stocks/orders", auth: "user" },
  stockOrderDetail: { method: "GET", path: "/api/v1/stocks/orders/:orderId", auth: "user" },
  cancelStockOrder: { method: "POST", path: "/api/v1/stocks/orders/:orderId/cancel", auth: "user" },
  stockFills: { method: "GET", path: "/api/v1/stocks/fills", auth: "user" },
  stockHoldings: { method: "GET", path: "/api/v1/stocks/holdings", auth: "user" },
  setStockTpSl: { method: "PUT", path: "/api/v1/stocks/holdings/:instrumentId/tpsl", auth: "user" },
  grantStockDemoFunds: { method: "POST", path: "/api/v1/stocks/demo-funds", auth: "user" },
  listNews: { method: "GET", path: "/api/v1/news", auth: "none" },
});
