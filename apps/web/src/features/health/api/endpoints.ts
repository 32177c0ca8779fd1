import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The server's health (not in the contract yet: see `HealthEndpoint`). */
export const healthEndpoints = endpointTable({
  health: { method: "GET", path: "/api/v1/health", auth: "none" },
});
