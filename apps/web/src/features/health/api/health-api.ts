import { callEndpoint } from "../../../lib/api-client.ts";
import { healthEndpoints } from "./endpoints.ts";

/** Every query key of the server's health. */
export const healthKeys = {
  all: ["health"] as const,
};

/** GET /api/v1/health: version, database kind and uptime. */
export function fetchHealth() {
  return callEndpoint(healthEndpoints.health);
}
