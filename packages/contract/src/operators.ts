import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { OperatorReason } from "./operator-reason.ts";

/** One entry of the operator audit log (issue 17). */
export const AuditEntry = z.object({
  id: z.string(),
  /** The named operator; null for the bootstrap token. */
  operatorId: z.string().nullable(),
  action: z.string(),
  reason: z.string(),
  /** The affected user, when the action touched one. */
  userId: z.string().nullable(),
  detail: z.string(),
  at: z.string(),
});

export const operatorAuditLog = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/audit",
  summary: "The operator audit log, newest first (compliance and admin)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    userId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    operatorId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
  }),
  response: z.object({ entries: z.array(AuditEntry) }),
});

// ---------------------------------------------------------------------------------------------
// Named operators: bootstrap, enrolment, sign-in, accounts (issue 17). The server implements
// these in apps/server/src/modules/auth/operator-accounts.routes.ts; the back office (#/admin)
// calls them.

export const OperatorRole = z.enum(["support", "compliance", "finance", "admin"]);

/** A named operator. Ids are decimal strings. */
export const OperatorInfo = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: OperatorRole,
});

/** An operator's password: at least 12 characters. */
export const OperatorPassword = z.string().min(12).max(128);
export { OperatorReason } from "./operator-reason.ts";
const OperatorCode = z.string().regex(/^\d{6}$/);

/** Returned once at creation: the TOTP secret and its otpauth:// URI (for the QR code). */
export const OperatorEnrolment = z.object({
  operator: OperatorInfo,
  totpSecret: z.string(),
  otpauthUri: z.string(),
});

export const operatorBootstrap = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/bootstrap",
  summary: "Create the first admin with the bootstrap token (refused once any operator exists)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    email: z.email().max(254),
    displayName: z.string().trim().min(1).max(80),
    password: OperatorPassword,
  }),
  response: OperatorEnrolment,
  errors: ["forbidden"],
});

export const operatorConfirmTotp = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/totp/confirm",
  summary: "Confirm an operator's authenticator with their password and a first code",
  tag: "operator",
  auth: "none",
  body: z.strictObject({
    email: z.email().max(254),
    password: OperatorPassword,
    code: OperatorCode,
  }),
  response: z.object({ operator: OperatorInfo }),
  errors: [
    "invalid_credentials",
    "two_factor_invalid",
    "two_factor_already_enabled",
    "rate_limited",
  ],
});

export const operatorSignIn = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/sign-in",
  summary: "Operator sign-in: password and authenticator code (both mandatory)",
  tag: "operator",
  auth: "none",
  body: z.strictObject({
    email: z.email().max(254),
    password: OperatorPassword,
    code: OperatorCode,
  }),
  response: z.object({ token: z.string(), expiresAt: z.string(), operator: OperatorInfo }),
  errors: ["invalid_credentials", "two_factor_invalid", "two_factor_not_enabled", "rate_limited"],
});

export const operatorSignOut = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/sign-out",
  summary: "End this operator session",
  tag: "operator",
  auth: "operator",
  response: z.object({ signedOut: z.literal(true) }),
});

export const operatorMe = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/me",
  summary: "The signed-in operator",
  tag: "operator",
  auth: "operator",
  response: z.object({ operator: OperatorInfo }),
});

/** A named operator as an admin sees them in the accounts list. */
export const OperatorAccountView = OperatorInfo.extend({
  disabled: z.boolean(),
  createdAt: z.string(),
});

export const operatorListAccounts = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/accounts",
  summary: "Every named operator (admin)",
  tag: "operator",
  auth: "operator",
  response: z.object({ operators: z.array(OperatorAccountView) }),
});

export const operatorDisableAccount = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/accounts/:operatorId/disable",
  summary:
    "An admin disables another operator: every session of theirs ends at once, support-desk " +
    "streams included; the account is kept (the audit log names it) and cannot sign in again",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ operatorId: z.string().regex(/^\d{1,18}$/) }),
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ operator: OperatorAccountView, sessionsEnded: z.number().int() }),
  errors: ["forbidden", "operator_not_found", "operator_disable_self"],
});

export const operatorEnableAccount = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/accounts/:operatorId/enable",
  summary:
    "An admin lets a disabled operator back in, under the same id and e-mail: with a new " +
    "password from the admin and a new authenticator secret (shown once) that they confirm " +
    "before their first sign-in; the old password and codes no longer work",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ operatorId: z.string().regex(/^\d{1,18}$/) }),
  body: z.strictObject({ password: OperatorPassword, reason: OperatorReason }),
  response: OperatorEnrolment,
  errors: ["forbidden", "operator_not_found", "operator_not_disabled"],
});

export const operatorCreateAccount = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/accounts",
  summary: "An admin creates an operator (the reason goes to the audit log)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    email: z.email().max(254),
    displayName: z.string().trim().min(1).max(80),
    password: OperatorPassword,
    role: OperatorRole,
    reason: OperatorReason,
  }),
  response: OperatorEnrolment,
});

// Users, as the back office sees them.

export const OperatorUserSummary = z.object({
  id: z.string(),
  username: z.string(),
  kind: z.enum(["email", "phone", "wallet", "demo"]),
  nickname: z.string().nullable(),
  country: z.string().nullable(),
  identityState: z.string(),
  frozen: z.boolean(),
  createdAt: z.string(),
});

export const operatorSearchUsers = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/users",
  summary: "Search users by id, e-mail, phone, wallet address or nickname (support and up)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    q: z.string().trim().max(100).default(""),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ users: z.array(OperatorUserSummary) }),
});

const UserIdParams = z.strictObject({ userId: z.string().regex(/^\d{1,18}$/) });

export const operatorUserDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/users/:userId",
  summary:
    "One user: profile, balances by account, recent statement lines, sessions, audit entries",
  tag: "operator",
  auth: "operator",
  params: UserIdParams,
  response: z.object({
    user: OperatorUserSummary,
    balances: z.array(
      z.object({
        account: z.string(),
        asset: z.string(),
        available: z.string(),
        held: z.string(),
      }),
    ),
    statement: z.array(
      z.object({
        seq: z.string(),
        at: z.string(),
        reason: z.string(),
        asset: z.string(),
        amount: z.string(),
        operatorId: z.string().nullable(),
      }),
    ),
    sessions: z.array(
      z.object({ device: z.string(), lastUsedAt: z.string(), createdAt: z.string() }),
    ),
    audit: z.array(AuditEntry),
  }),
  errors: ["not_found"],
});

export const operatorFreezeUser = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/users/:userId/freeze",
  summary: "Freeze a user (sign-in, orders, transfers and withdrawals refused; sessions ended)",
  tag: "operator",
  auth: "operator",
  params: UserIdParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ user: OperatorUserSummary }),
  errors: ["not_found"],
});

export const operatorUnfreezeUser = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/users/:userId/unfreeze",
  summary: "Unfreeze a user",
  tag: "operator",
  auth: "operator",
  params: UserIdParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ user: OperatorUserSummary }),
  errors: ["not_found"],
});

/** The labelled system accounts (market maker, house, treasury, yield, lending, insurance, fees). */
export const operatorSystemAccounts = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/system-accounts",
  summary: "Balances of the labelled system accounts, per mode and asset (finance and admin)",
  tag: "operator",
  auth: "operator",
  response: z.object({
    accounts: z.array(
      z.object({
        label: z.string(),
        mode: z.enum(["real", "demo"]),
        asset: z.string(),
        available: z.string(),
        held: z.string(),
      }),
    ),
  }),
});

// Manual adjustments above the two-person limit (issue 17): an operator deposit to a user above
// `MANUAL_ADJUSTMENT_TWO_PERSON_ABOVE` waits here until a second, different operator approves.

export const AdjustmentStatus = z.enum(["pending", "credited", "rejected"]);

/** A manual adjustment request and who asked for and decided it. */
export const AdjustmentView = z.object({
  adjustmentId: z.string(),
  /** The operator deposit's idempotency key. */
  requestKey: z.string(),
  userId: z.string(),
  asset: z.string(),
  amount: z.string(),
  reference: z.string(),
  reason: z.string(),
  status: AdjustmentStatus,
  requestedBy: z.string(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedReason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** Kernel posting sequence of the credit, once credited. */
  postingSeq: z.number().int().nullable(),
});

export const operatorListAdjustments = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/adjustments",
  summary: "Manual adjustments in one state (pending by default), oldest first",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    status: AdjustmentStatus.default("pending"),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: z.object({ items: z.array(AdjustmentView) }),
});

const AdjustmentParams = z.strictObject({ adjustmentId: z.string().regex(/^[1-9]\d{0,17}$/) });

export const operatorApproveAdjustment = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/adjustments/:adjustmentId/approve",
  summary:
    "Second approval of a manual adjustment: a different operator than the requester; only " +
    "then is the journaled credit issued, naming both operators",
  tag: "operator",
  auth: "operator",
  params: AdjustmentParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ adjustment: AdjustmentView }),
  errors: ["adjustment_not_found", "adjustment_state_invalid", "approval_same_operator"],
});

export const operatorRejectAdjustment = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/adjustments/:adjustmentId/reject",
  summary: "Refuse a pending manual adjustment (nothing is credited)",
  tag: "operator",
  auth: "operator",
  params: AdjustmentParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ adjustment: AdjustmentView }),
  errors: ["adjustment_not_found", "adjustment_state_invalid"],
});

// The user's side: operator actions that touched them.

/** One operator action on the user's own account, as the user sees it. */
export const AccountHistoryEntry = z.object({
  id: z.string(),
  /** `METHOD path` of the operator endpoint, e.g. `POST /api/v1/operator/deposits`. */
  action: z.string(),
  reason: z.string(),
  /** The named operator; null for the bootstrap token. */
  operatorId: z.string().nullable(),
  at: z.string(),
});

export const accountHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/account-history",
  summary: "Operator actions on the signed-in user's account: what, why, who, when",
  tag: "me",
  auth: "user",
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  response: z.object({ entries: z.array(AccountHistoryEntry) }),
});
