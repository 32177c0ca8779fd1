import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the agent pages call (contract: agents.ts). */
export const agentsEndpoints = endpointTable({
  myAgentInfo: { method: "GET", path: "/api/v1/agents/me", auth: "user" },
  myAgentTeam: { method: "GET", path: "/api/v1/agents/me/team", auth: "user" },
  myAgentHistory: { method: "GET", path: "/api/v1/agents/me/history", auth: "user" },
});

export const agentKeys = {
  me: (userId: string, mode: string) => ["agents", "me", userId, mode] as const,
  team: (userId: string, mode: string) => ["agents", "team", userId, mode] as const,
  history: (userId: string, mode: string) => ["agents", "history", userId, mode] as const,
};

/** GET /api/v1/agents/me: my level, progress, conditions, ratios and team statistics. */
export function fetchMyAgent() {
  return callEndpoint(agentsEndpoints.myAgentInfo, {});
}

/** GET /api/v1/agents/me/team: the users I invited (masked), valid today or not. */
export function fetchMyTeam(limit = 100) {
  return callEndpoint(agentsEndpoints.myAgentTeam, { query: { limit } });
}

/** GET /api/v1/agents/me/history: my level changes, newest first. */
export function fetchMyAgentHistory() {
  return callEndpoint(agentsEndpoints.myAgentHistory, {});
}
