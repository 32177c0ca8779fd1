import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints perpetual contracts call (contract: perp.ts). */
export const perpEndpoints = endpointTable({
  perpMarkets: { method: "GET", path: "/api/v1/perp/markets", auth: "none" },
  perpBook: { method: "GET", path: "/api/v1/perp/markets/:marketId/book", auth: "none" },
  perpPositions: { method: "GET", path: "/api/v1/perp/positions", auth: "user" },
  placePerpOrder: { method: "POST", path: "/api/v1/perp/orders", auth: "user" },
  cancelPerpOrder: { method: "DELETE", path: "/api/v1/perp/orders/:orderId", auth: "user" },
  amendPerpOrder: { method: "POST", path: "/api/v1/perp/orders/:orderId/amend", auth: "user" },
  perpOpenOrders: { method: "GET", path: "/api/v1/perp/orders/open", auth: "user" },
  placePerpConditionalOrder: {
    method: "POST",
    path: "/api/v1/perp/conditional-orders",
    auth: "user",
  },
  placePerpOcoOrder: {
    method: "POST",
    path: "/api/v1/perp/conditional-orders/oco",
    auth: "user",
  },
  cancelPerpConditionalOrder: {
    method: "DELETE",
    path: "/api/v1/perp/conditional-orders/:orderId",
    auth: "user",
  },
  perpConditionalOrders: { method: "GET", path: "/api/v1/perp/conditional-orders", auth: "user" },
  perpOrderHistory: { method: "GET", path: "/api/v1/perp/orders/history", auth: "user" },
  perpFills: { method: "GET", path: "/api/v1/perp/fills", auth: "user" },
  perpForcedEvents: { method: "GET", path: "/api/v1/perp/liquidations", auth: "user" },
  perpFundingHistory: { method: "GET", path: "/api/v1/perp/funding", auth: "user" },
  setPerpLeverage: {
    method: "PUT",
    path: "/api/v1/perp/markets/:marketId/leverage",
    auth: "user",
  },
  setPerpMarginMode: {
    method: "PUT",
    path: "/api/v1/perp/markets/:marketId/margin-mode",
    auth: "user",
  },
  changePerpMargin: {
    method: "POST",
    path: "/api/v1/perp/positions/:marketId/margin",
    auth: "user",
  },
  setPerpTpSl: { method: "PUT", path: "/api/v1/perp/positions/:marketId/tp-sl", auth: "user" },
  closePerpPosition: {
    method: "POST",
    path: "/api/v1/perp/positions/:marketId/close",
    auth: "user",
  },
  reversePerpPosition: {
    method: "POST",
    path: "/api/v1/perp/positions/:marketId/reverse",
    auth: "user",
  },
  closeAllPerpPositions: {
    method: "POST",
    path: "/api/v1/perp/positions/close-all",
    auth: "user",
  },
});
