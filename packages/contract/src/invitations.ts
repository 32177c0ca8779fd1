import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { AccountMode } from "./market.ts";
import { OperatorReason } from "./operators.ts";

/**
 * Invitations (spec: index/friend, `/api/common/promoteinfo`): my user id, invite code, the
 * link that opens registration with it (and its QR code), how many registered with it and who,
 * masked, and the rebates paid to me: a share of the fees my invitees actually paid, moved out of
 * the fee account when each fee was collected (spot, perpetual and stock trading fees), in the
 * session's mode.
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

/** The products whose trading fees rebate to the inviter. */
export const RebateProduct = z.enum(["spot", "perp", "stocks"]);
export type RebateProduct = z.infer<typeof RebateProduct>;

/** Rebates paid in one asset: all time, today and this month (UTC), as decimal strings. */
export const RebateTotal = z.object({
  asset: z.string(),
  total: z.string(),
  today: z.string(),
  month: z.string(),
});
export type RebateTotal = z.infer<typeof RebateTotal>;

/** One rebate paid: which invitee's fee, on which product, how much of it. */
export const RebateRecord = z.object({
  /** The invited account that paid the fee, masked. */
  account: z.string(),
  product: RebateProduct,
  asset: z.string(),
  /** The fee the invitee paid and the rebate out of it (decimal strings, rebate ≤ fee). */
  fee: z.string(),
  rebate: z.string(),
  /** When it was paid (ISO 8601). */
  paidAt: z.string(),
});
export type RebateRecord = z.infer<typeof RebateRecord>;

/** The rebate shares in force, per product, in basis points of the fee (0 = no rebate). */
export const RebateShares = z.object({ spot: z.number(), perp: z.number(), stocks: z.number() });

export const InvitationsMe = z.object({
  userId: z.string(),
  inviteCode: z.string(),
  /** The public origin (or the request's) + `/#/register?invite=CODE`. */
  link: z.string(),
  /** The link as a QR code, an SVG document rendered by the server. */
  qrSvg: z.string(),
  invitedCount: z.number().int().nonnegative(),
  records: z.array(InvitationRecord),
  /** Per asset paid in; empty until the first rebate. */
  rebateTotals: z.array(RebateTotal),
  /** The newest rebates, newest first (at most `limit`). */
  rebateRecords: z.array(RebateRecord),
  rebateShares: RebateShares,
});
export type InvitationsMe = z.infer<typeof InvitationsMe>;

export const myInvitationsInfo = defineEndpoint({
  method: "GET",
  path: invitationsMePath,
  summary: "My id, invite code, invite link with its QR code, number invited and records",
  description:
    "Invited accounts are masked. Rebates are shares of fees the invitees actually paid, in the session's mode; nothing is promised beyond what was paid.",
  tag: "invitations",
  auth: "user",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(invitationRecordsMax).default(20),
  }),
  response: InvitationsMe,
});

/** Path of the operator's rebate configuration. */
export const referralRebatesPath = "/api/v1/operator/referral/rebates";

export const configureReferralRebates = defineEndpoint({
  method: "PUT",
  path: referralRebatesPath,
  summary: "Operator: set the share of one product's fees rebated to inviters, per mode",
  description:
    "The share is paid out of each fee when it is collected, from the fee account, so a rebate never exceeds its fee. 0 stops rebates.",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    mode: AccountMode,
    product: RebateProduct,
    /** Basis points of the fee, 0–10,000. */
    rebateBps: z.number().int().min(0).max(10_000),
    reason: OperatorReason,
  }),
  response: z.object({ mode: AccountMode, rebateShares: RebateShares }),
  errors: ["command_rejected", "validation_failed", "service_unavailable"],
});
