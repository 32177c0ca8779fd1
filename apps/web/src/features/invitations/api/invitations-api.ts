import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints invitations call (contract: invitations.ts). */
export const invitationsEndpoints = endpointTable({
  myInvitationsInfo: { method: "GET", path: "/api/v1/invitations/me", auth: "user" },
});

export const invitationKeys = {
  me: (userId: string) => ["invitations", "me", userId] as const,
};

/** GET /api/v1/invitations/me: my code, link, QR code and the newest records. */
export function fetchMyInvitations(limit = 50) {
  return callEndpoint(invitationsEndpoints.myInvitationsInfo, { query: { limit } });
}
