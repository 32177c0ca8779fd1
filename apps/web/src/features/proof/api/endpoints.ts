import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the proof of liabilities calls (contract: proof.ts). */
export const proofEndpoints = endpointTable({
  latestLiabilitiesEndpoint: { method: "GET", path: "/api/v1/proof/liabilities", auth: "none" },
  liabilitiesHistoryEndpoint: {
    method: "GET",
    path: "/api/v1/proof/liabilities/history",
    auth: "none",
  },
  myLiabilityProofEndpoint: { method: "GET", path: "/api/v1/proof/liabilities/me", auth: "user" },
  transparencyEndpoint: { method: "GET", path: "/api/v1/transparency", auth: "none" },
  secondsProducts: { method: "GET", path: "/api/v1/seconds/products", auth: "none" },
  exportStatement: { method: "GET", path: "/api/v1/wallet/statement/export", auth: "user" },
});
