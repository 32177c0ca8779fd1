import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the tape viewer calls (contract: tape.ts). */
export const tapeEndpoints = endpointTable({
  tapeTickEndpoint: { method: "GET", path: "/api/v1/tape/tick", auth: "none" },
  tapeEndpoint: { method: "GET", path: "/api/v1/tape", auth: "none" },
});
