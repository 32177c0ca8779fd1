import { z } from "zod";
import { ResidenceCountry } from "./countries.ts";
import { defineEndpoint, issueKey } from "./endpoint.ts";

/** A login password or trade password: 8–64 characters with a letter and a digit. */
export const Password = z
  .string()
  .min(8)
  .max(64)
  .refine((p) => /\p{L}/u.test(p) && /\d/.test(p), issueKey("weak_password"));

export const Email = z.email().max(254);
/** A phone number in international form: optional +, 7–15 digits, no leading zero. */
export const Phone = z.string().regex(/^\+?[1-9]\d{6,14}$/);
/** An account is an e-mail address or a phone number. */
export const Account = z.union([Email, Phone]);
/** A proof-of-work captcha as issued: `<salt>.<signature>` (see `getCaptcha`). */
export const CaptchaId = z.string().regex(/^[0-9a-f]{24}\.\d{10}\.[0-9a-f]{64}$/);
/** The number the client found, in decimal. */
export const CaptchaAnswer = z.string().regex(/^\d{1,10}$/);
export const EmailCode = z.string().regex(/^\d{6}$/);
export const InviteCode = z.string().regex(/^[A-Z0-9]{6,12}$/);
export const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
/** The EVM chains wallet sign-in accepts: Ethereum (1), BNB Smart Chain (56), Cronos (25). */
/** A 6-digit authenticator code, or a recovery code (`abcde-12345`, dash and case free). */
export const TwoFactorCode = z
  .string()
  .trim()
  .regex(/^(\d{6}|[A-Za-z2-7]{5}-?[A-Za-z2-7]{5})$/);

export const walletChainIds = [1, 56, 25] as const;

/** What the app shows of the signed-in user. Ids are decimal strings. */
export const UserInfo = z.object({
  id: z.string(),
  /** E-mail, phone, wallet address (wallet users) or `demo-<id>`. */
  username: z.string(),
  kind: z.enum(["email", "phone", "wallet", "demo"]),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  walletAddress: z.string().nullable(),
  nickname: z.string(),
  avatar: z.number().int(),
  /** The mode of this session: true when trading with demo (simulated) money. */
  isVirtual: z.boolean(),
  mode: z.enum(["real", "demo"]),
  /** Demo users have only demo money and cannot switch to real mode, deposit or withdraw. */
  demoOnly: z.boolean(),
  emailVerified: z.boolean(),
  verification: z.enum(["unverified", "under_review", "passed", "not_approved"]),
  tradePasswordSet: z.boolean(),
  inviteCode: z.string(),
  createdAt: z.string(),
  /** Country of residence (ISO 3166-1 alpha-2); null until chosen. Drives product switches. */
  country: z.string().nullable(),
  /** The code shown at the top of every e-mail Candor sends this user; null when not set. */
  antiPhishingCode: z.string().nullable(),
  /** An uploaded avatar (GET /api/v1/uploads/:uploadId); null shows the preset `avatar`. */
  avatarUploadId: z.string().nullable(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** A new session: the bearer token (also set as an httpOnly cookie) and the user. */
export const SessionData = z.object({
  token: z.string(),
  /** When the token stops working, ISO 8601 (7 days after sign-in). */
  expiresAt: z.string(),
  user: UserInfo,
});
export type SessionData = z.infer<typeof SessionData>;

const captchaFields = { captchaId: CaptchaId.optional(), captchaAnswer: CaptchaAnswer.optional() };
const Empty = z.object({});

export const getCaptcha = defineEndpoint({
  method: "GET",
  path: "/api/v1/auth/captcha",
  summary:
    "A new proof-of-work captcha (ALTCHA-style), single use, valid 5 minutes: find the number " +
    "n in 0…maxNumber with SHA-256(salt + n) = challenge (hex), then send captchaId and " +
    "captchaAnswer = n",
  tag: "auth",
  auth: "none",
  response: z.object({
    captchaId: z.string(),
    algorithm: z.literal("SHA-256"),
    challenge: z.string().regex(/^[0-9a-f]{64}$/),
    salt: z.string(),
    maxNumber: z.number().int().positive(),
    expiresAt: z.string(),
  }),
});

export const getAgreement = defineEndpoint({
  method: "GET",
  path: "/api/v1/auth/agreement",
  summary: "The user agreement to confirm at registration, in the request's language",
  tag: "auth",
  auth: "none",
  response: z.object({ version: z.string(), title: z.string(), text: z.string() }),
});

export const sendEmailCode = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/email-codes",
  summary: "E-mail a 6-digit code for registration or a password reset (valid 10 minutes)",
  description:
    "Always answers success for a well-formed request, so it never reveals whether an account " +
    "exists. Needs a captcha unless the server runs with CAPTCHA=off.",
  tag: "auth",
  auth: "none",
  body: z.strictObject({
    email: Email,
    purpose: z.enum(["register", "reset_password"]),
    ...captchaFields,
  }),
  response: z.object({ expiresAt: z.string() }),
  errors: ["captcha_required", "captcha_invalid", "rate_limited", "mail_unavailable"],
});

export const sendPhoneCode = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/phone-codes",
  summary: "Text a 6-digit registration code to a phone number (valid 10 minutes)",
  description:
    "Always answers success for a well-formed request, so it never reveals whether the number " +
    "has an account: a registered number gets a message saying so instead of a code. Sent " +
    "through the configured SMS sender; without one the message lands in the operator's " +
    "outbox. Needs a captcha unless the server runs with CAPTCHA=off.",
  tag: "auth",
  auth: "none",
  body: z.strictObject({
    phone: Phone,
    purpose: z.enum(["register"]),
    ...captchaFields,
  }),
  response: z.object({ expiresAt: z.string() }),
  errors: ["captcha_required", "captcha_invalid", "rate_limited", "mail_unavailable"],
});

export const register = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/register",
  summary: "Register with e-mail or phone (and its code), password, agreement and captcha",
  description:
    "The trade password starts equal to the login password. A phone number is confirmed by the " +
    "code from POST /api/v1/auth/phone-codes (phoneCode), an e-mail address by the code from " +
    "POST /api/v1/auth/email-codes (emailCode). A taken e-mail or number answers like a wrong " +
    "code, so registration never tells whether an account exists.",
  tag: "auth",
  auth: "none",
  body: z
    .strictObject({
      account: Account,
      password: Password,
      passwordConfirm: z.string().max(64),
      emailCode: EmailCode.optional(),
      phoneCode: EmailCode.optional(),
      inviteCode: InviteCode.optional(),
      /** Country of residence (the web asks for it); changeable later with a reason. */
      country: ResidenceCountry.optional(),
      agreement: z.boolean(),
      ...captchaFields,
    })
    .refine((b) => b.password === b.passwordConfirm, {
      ...issueKey("passwords_differ"),
      path: ["passwordConfirm"],
    }),
  response: SessionData,
  errors: [
    "agreement_required",
    "captcha_required",
    "captcha_invalid",
    "email_code_invalid",
    "phone_code_invalid",
    "invite_code_invalid",
    "rate_limited",
  ],
});

export const login = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/login",
  summary: "Sign in with account and password; a captcha after 5 failures in 15 minutes",
  tag: "auth",
  auth: "none",
  body: z.strictObject({
    account: Account,
    password: z.string().min(1).max(64),
    ...captchaFields,
    totpCode: TwoFactorCode.optional(),
  }),
  response: SessionData,
  errors: [
    "invalid_credentials",
    "captcha_required",
    "captcha_invalid",
    "rate_limited",
    "two_factor_required",
    "two_factor_invalid",
  ],
  description:
    "When the user has two-factor sign-in on, a right password without `totpCode` answers " +
    "`two_factor_required`; send the same request again with the 6-digit code of the " +
    "authenticator app or one of the recovery codes.",
});

export const demoLogin = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/demo",
  summary: "Sign in as a simulated (demo) user: new, or resumed with its resume key",
  description:
    "A demo user has demo money only: it cannot switch to real mode, deposit or withdraw. " +
    "Keep `resumeKey` to come back to the same demo user.",
  tag: "auth",
  auth: "none",
  body: z.strictObject({
    resumeKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{32,64}$/)
      .optional(),
  }),
  response: SessionData.extend({ resumeKey: z.string() }),
  errors: ["invalid_credentials", "rate_limited"],
});

export const walletNonce = defineEndpoint({
  method: "GET",
  path: "/api/v1/auth/wallet/nonce",
  summary: "Start wallet sign-in (EIP-4361): a single-use nonce and the message to sign",
  description:
    "The nonce is bound to this address and chain and expires in 5 minutes. Signing the " +
    "message is the only thing asked of the wallet: no approvals, no transactions.",
  tag: "auth",
  auth: "none",
  query: z.strictObject({
    address: EvmAddress,
    chainId: z.coerce
      .number()
      .int()
      .refine((c) => (walletChainIds as readonly number[]).includes(c)),
  }),
  response: z.object({
    nonce: z.string(),
    message: z.string(),
    domain: z.string(),
    uri: z.string(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
  errors: ["rate_limited"],
});

export const walletLogin = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/wallet/login",
  summary: "Finish wallet sign-in with the signed EIP-4361 message (creates the user if new)",
  tag: "auth",
  auth: "none",
  body: z.strictObject({
    address: EvmAddress,
    message: z.string().min(1).max(2000),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
    walletType: z.literal(2),
    totpCode: TwoFactorCode.optional(),
    /** Recorded only when this sign-in creates the user (an existing user keeps its inviter). */
    inviteCode: InviteCode.optional(),
  }),
  response: SessionData,
  errors: [
    "invite_code_invalid",
    "wallet_signature_invalid",
    "wallet_nonce_invalid",
    "rate_limited",
    "two_factor_required",
    "two_factor_invalid",
  ],
});

export const resetPassword = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/password-reset",
  summary: "Set a new login password with an e-mailed code; signs out every session",
  tag: "auth",
  auth: "none",
  body: z
    .strictObject({
      email: Email,
      emailCode: EmailCode,
      password: Password,
      passwordConfirm: z.string().max(64),
    })
    .refine((b) => b.password === b.passwordConfirm, {
      ...issueKey("passwords_differ"),
      path: ["passwordConfirm"],
    }),
  response: Empty,
  errors: ["email_code_invalid", "rate_limited"],
});

export const logout = defineEndpoint({
  method: "POST",
  path: "/api/v1/auth/logout",
  summary: "Sign out this session, or every session of the user with `everywhere`",
  tag: "auth",
  auth: "user",
  body: z.strictObject({ everywhere: z.boolean().default(false) }),
  response: Empty,
});

export const getMe = defineEndpoint({
  method: "GET",
  path: "/api/v1/me",
  summary: "The signed-in user",
  tag: "me",
  auth: "user",
  response: UserInfo,
});

export const updateMe = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/me",
  summary: "Change nickname or avatar (a preset, or an uploaded image of purpose `avatar`)",
  tag: "me",
  auth: "user",
  body: z.strictObject({
    nickname: z.string().trim().min(1).max(32).optional(),
    avatar: z.number().int().min(0).max(99).optional(),
    /** An upload of purpose `avatar` owned by the user; null goes back to the preset. */
    avatarUploadId: z
      .string()
      .regex(/^[0-9a-f]{32}$/, "must be an upload id")
      .nullable()
      .optional(),
  }),
  response: UserInfo,
  errors: ["upload_not_found"],
});

export const changePassword = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/password",
  summary: "Change the login password; every other session is signed out, a new token returned",
  tag: "me",
  auth: "user",
  body: z
    .strictObject({
      currentPassword: z.string().min(1).max(64),
      password: Password,
      passwordConfirm: z.string().max(64),
    })
    .refine((b) => b.password === b.passwordConfirm, {
      ...issueKey("passwords_differ"),
      path: ["passwordConfirm"],
    }),
  response: SessionData,
  errors: ["password_incorrect", "forbidden"],
});

export const tradePasswordStatus = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/trade-password",
  summary: "Whether a trade password is set",
  tag: "me",
  auth: "user",
  response: z.object({ exists: z.boolean() }),
});

export const setTradePassword = defineEndpoint({
  method: "PUT",
  path: "/api/v1/me/trade-password",
  summary: "Set the trade password, or change it (needs the current one)",
  tag: "me",
  auth: "user",
  body: z
    .strictObject({
      tradePassword: Password,
      tradePasswordConfirm: z.string().max(64),
      currentTradePassword: z.string().min(1).max(64).optional(),
    })
    .refine((b) => b.tradePassword === b.tradePasswordConfirm, {
      ...issueKey("passwords_differ"),
      path: ["tradePasswordConfirm"],
    }),
  response: z.object({ exists: z.literal(true) }),
  errors: ["trade_password_invalid", "rate_limited"],
});

export const verifyTradePasswordEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/trade-password/verify",
  summary: "Check the trade password (10 tries per 15 minutes)",
  tag: "me",
  auth: "user",
  body: z.strictObject({ tradePassword: z.string().min(1).max(64) }),
  response: z.object({ valid: z.literal(true) }),
  errors: ["trade_password_not_set", "trade_password_invalid", "rate_limited"],
});

export const switchMode = defineEndpoint({
  method: "PUT",
  path: "/api/v1/me/mode",
  summary: "Switch this session between real and demo (simulated) money",
  tag: "me",
  auth: "user",
  body: z.strictObject({ mode: z.enum(["real", "demo"]) }),
  response: UserInfo,
  errors: ["demo_not_allowed"],
});

export const OutboxEmail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  delivery: z.enum(["outbox", "smtp", "sms"]),
  createdAt: z.string(),
});

export const operatorOutbox = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/outbox",
  summary: "The latest e-mails and text messages the server sent or queued (operator token)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** An e-mail address, or a phone number for text messages (subject "SMS"). */
    to: z.union([Email, Phone]).optional(),
  }),
  response: z.object({ emails: z.array(OutboxEmail) }),
});
