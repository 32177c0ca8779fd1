import { z } from "zod";
import { TwoFactorCode } from "./auth.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The security centre (spec §2 `assets/anquanzhongxin`, issue 17): two-factor sign-in with an
 * authenticator app (TOTP, RFC 6238) and recovery codes, and the user's active sessions.
 */

export const TwoFactorStatus = z.object({
  /** True once enrolment was confirmed with a code: sign-in then asks for one. */
  enabled: z.boolean(),
  /** Unused recovery codes left. */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** The current login password; wallet users, who have none, leave it out. */
const CurrentPassword = z.string().min(1).max(64).optional();

export const twoFactorStatusEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/two-factor",
  summary: "Whether two-factor sign-in is on, and how many recovery codes are left",
  tag: "me",
  auth: "user",
  response: TwoFactorStatus,
});

export const twoFactorEnrolEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/two-factor/enrol",
  summary: "Start enrolling an authenticator app: a new secret and its QR code",
  tag: "me",
  auth: "user",
  body: z.strictObject({ password: CurrentPassword }),
  response: z.object({
    /** Base32, for typing into the app by hand. */
    secret: z.string(),
    /** The `otpauth://` URI the QR code holds. */
    otpauthUri: z.string(),
    /** The QR code as an SVG document. */
    qrSvg: z.string(),
  }),
  errors: ["password_incorrect", "two_factor_already_enabled", "demo_not_allowed"],
  description:
    "Nothing changes for sign-in until the enrolment is confirmed with a code. Starting again " +
    "replaces an unconfirmed secret.",
});

export const twoFactorConfirmEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/two-factor/confirm",
  summary: "Confirm enrolment with a code from the app; answers the recovery codes once",
  tag: "me",
  auth: "user",
  body: z.strictObject({ code: z.string().regex(/^\d{6}$/) }),
  response: z.object({ recoveryCodes: z.array(z.string()) }),
  errors: ["two_factor_invalid", "two_factor_not_enrolling", "rate_limited"],
});

export const twoFactorDisableEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/two-factor/disable",
  summary: "Turn two-factor sign-in off with the password and a code (or a recovery code)",
  tag: "me",
  auth: "user",
  body: z.strictObject({ password: CurrentPassword, code: TwoFactorCode }),
  response: TwoFactorStatus,
  errors: ["password_incorrect", "two_factor_invalid", "two_factor_not_enabled", "rate_limited"],
});

export const SessionView = z.object({
  /** A public handle of the session (not its token). */
  sessionId: z.string(),
  /** True for the session making this request. */
  current: z.boolean(),
  mode: z.enum(["real", "demo"]),
  /** The browser's own description (User-Agent), trimmed; null when none was sent. */
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type SessionView = z.infer<typeof SessionView>;

export const listSessionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/sessions",
  summary: "The user's active sessions (device, IP, last use)",
  tag: "me",
  auth: "user",
  response: z.object({ sessions: z.array(SessionView) }),
});

export const SessionId = z.string().regex(/^[0-9a-f]{24}$/, "must be a session id");

export const revokeSessionEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/me/sessions/:sessionId",
  summary: "Sign out one of the user's sessions",
  tag: "me",
  auth: "user",
  params: z.strictObject({ sessionId: SessionId }),
  response: z.object({}),
  errors: ["session_not_found"],
});

export const revokeOtherSessionsEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/sessions/revoke-others",
  summary: "Sign out every session of the user except this one",
  tag: "me",
  auth: "user",
  body: z.strictObject({}),
  response: z.object({ revoked: z.number().int() }),
});
