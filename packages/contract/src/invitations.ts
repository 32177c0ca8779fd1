import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Invitations (spec: index/friend, `/api/common/promoteinfo`): my user id, invite code, the
 * link that opens registration with it (and its QR code), how many registered with it and who,
 * masked. Rebates are not built (see docs/decisions.md), so nothing about them is answered.
 */

/** Path of the invitations endpoint. */
export const invitationsMePath = "/api/v1/invitations/me";

/** Most invitation records one answer holds. */
export const invitationRecordsMax = 100;

export const InvitationRecord = z.object({
  /** The invited account, masked (`a***e@example.com`, `+44****89`, `0x12ab…cdef`). */
  account: z.string(),
  /** When the invited user registered (ISO 8601). */
  joinedAt: z.string(),
});
export type InvitationRecord = z.infer<typeof InvitationRecord>;

export const InvitationsMe = z.object({
  userId: z.string(),
  inviteCode: z.string(),
  /** The public origin (or the request's) + `/#/register?invite=CODE`. */
  link: z.string(),
  /** The link as a QR code, an SVG document rendered by the server. */
  qrSvg: z.string(),
  invitedCount: z.number().int().nonnegative(),
  records: z.array(InvitationRecord),
});
export type InvitationsMe = z.infer<typeof InvitationsMe>;

export const myInvitationsInfo = defineEndpoint({
  method: "GET",
  path: invitationsMePath,
  summary: "My id, invite code, invite link with its QR code, number invited and records",
  description:
    "Invited accounts are masked. Rebates are not built, so none are listed, totalled or promised.",
  tag: "invitations",
  auth: "user",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(invitationRecordsMax).default(20),
  }),
  response: InvitationsMe,
});
