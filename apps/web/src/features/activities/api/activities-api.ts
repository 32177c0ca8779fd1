import type { ActivityView } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the activity page calls (contract: activities.ts). */
export const activitiesEndpoints = endpointTable({
  listActivities: { method: "GET", path: "/api/v1/activities", auth: "user" },
  reserveActivity: { method: "POST", path: "/api/v1/activities/reservations", auth: "user" },
});

export const activityKeys = {
  list: (userId: string, mode: string) => ["activities", userId, mode] as const,
};

/** GET /api/v1/activities: the session mode's activities with my state in each. */
export function fetchActivities() {
  return callEndpoint(activitiesEndpoints.listActivities, {});
}

/** POST /api/v1/activities/reservations: reserve a place (the bonus is set aside at once). */
export function reserveActivity(activityId: string, requestId: string) {
  return callEndpoint(activitiesEndpoints.reserveActivity, { body: { activityId, requestId } });
}

export type { ActivityView };
