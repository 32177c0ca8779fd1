import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the VIP tab calls (contract: vip.ts). */
export const vipEndpoints = endpointTable({
  myVipLevel: { method: "GET", path: "/api/v1/vip/me", auth: "user" },
});

export const vipKeys = {
  me: (userId: string, mode: string) => ["vip", "me", userId, mode] as const,
};

/** GET /api/v1/vip/me: my level, 30-day volume, progress and every level's benefits. */
export function fetchMyVip() {
  return callEndpoint(vipEndpoints.myVipLevel, {});
}
