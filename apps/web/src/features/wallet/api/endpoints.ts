import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the fund wallet calls (contract: spot.ts, "Funds"). */
export const walletEndpoints = endpointTable({
  spotBalances: { method: "GET", path: "/api/v1/spot/balances", auth: "user" },
  spotStatement: { method: "GET", path: "/api/v1/spot/statement", auth: "user" },
  grantDemoFunds: { method: "POST", path: "/api/v1/spot/demo-funds", auth: "user" },
});
