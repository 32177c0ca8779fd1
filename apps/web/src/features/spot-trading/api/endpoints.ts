import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints spot trading calls (contract: spot.ts, auth.ts, tape.ts). */
export const spotTradingEndpoints = endpointTable({
  spotMarkets: { method: "GET", path: "/api/v1/spot/markets", auth: "none" },
  placeSpotOrder: { method: "POST", path: "/api/v1/spot/orders", auth: "user" },
  cancelSpotOrder: { method: "DELETE", path: "/api/v1/spot/orders/:orderId", auth: "user" },
  cancelAllSpotOrders: { method: "POST", path: "/api/v1/spot/orders/cancel-all", auth: "user" },
  openSpotOrders: { method: "GET", path: "/api/v1/spot/orders/open", auth: "user" },
  spotOrderHistory: { method: "GET", path: "/api/v1/spot/orders/history", auth: "user" },
  spotOrderDetail: { method: "GET", path: "/api/v1/spot/orders/:orderId", auth: "user" },
  amendSpotOrder: { method: "POST", path: "/api/v1/spot/orders/:orderId/amend", auth: "user" },
  placeSpotConditionalOrder: {
    method: "POST",
    path: "/api/v1/spot/conditional-orders",
    auth: "user",
  },
  spotConditionalOrders: { method: "GET", path: "/api/v1/spot/conditional-orders", auth: "user" },
  cancelSpotConditionalOrder: {
    method: "DELETE",
    path: "/api/v1/spot/conditional-orders/:orderId",
    auth: "user",
  },
  /** Not called: fills link to the public tape's page of their journal sequence. */
  tapeEndpoint: { method: "GET", path: "/api/v1/tape", auth: "none" },
});
