import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints seconds contracts call (contract: seconds.ts, auth.ts). */
export const secondsEndpoints = endpointTable({
  secondsProducts: { method: "GET", path: "/api/v1/seconds/products", auth: "none" },
  purchaseSecondsContract: { method: "POST", path: "/api/v1/seconds/contracts", auth: "user" },
  secondsContracts: { method: "GET", path: "/api/v1/seconds/contracts", auth: "user" },
  secondsContractDetail: {
    method: "GET",
    path: "/api/v1/seconds/contracts/:contractId",
    auth: "user",
  },
});
