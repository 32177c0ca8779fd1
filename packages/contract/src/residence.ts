import { z } from "zod";
import { TwoFactorCode, UserInfo } from "./auth.ts";
import { ResidenceCountry } from "./countries.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Country of residence and the rest of the security centre (issue 17): the country drives the
 * per-country product switches and disclosures; every change is kept with its reason and an
 * operator can read the history. The anti-phishing code appears in every e-mail; sign-in history
 * lists successful and failed sign-ins.
 */

/** The products that can be switched off per deployment and per country of residence. */
export const SwitchableProduct = z.enum(["perp", "seconds", "stocks", "savings", "loans"]);
export type SwitchableProduct = z.infer<typeof SwitchableProduct>;

/** Free text typed by the user and read by operators: no control characters. */
const Reason = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

export const setCountryEndpoint = defineEndpoint({
  method: "PUT",
  path: "/api/v1/me/country",
  summary: "Set or change the country of residence (a change needs a reason)",
  tag: "me",
  auth: "user",
  body: z.strictObject({ country: ResidenceCountry, reason: Reason.optional() }),
  response: UserInfo,
  errors: ["country_change_reason_required", "country_unchanged"],
  description:
    "The first choice needs no reason; every later change does. Each change is kept in the " +
    "country history operators read. Open positions and subscriptions are not touched: a " +
    "product switched off for the new country can still be closed, reduced or redeemed.",
});

export const ProductAvailability = z.object({
  product: SwitchableProduct,
  available: z.boolean(),
  /**
   * Why not: `deployment` (switched off for everyone here), `country` (not offered in the
   * user's country of residence), `country_required` (offered only once a country is chosen).
   */
  reason: z.enum(["deployment", "country", "country_required"]).nullable(),
});
export type ProductAvailability = z.infer<typeof ProductAvailability>;

export const productAvailabilityEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/products",
  summary: "Which products the user may open, given the deployment and country of residence",
  tag: "me",
  auth: "user",
  response: z.object({
    country: z.string().nullable(),
    products: z.array(ProductAvailability),
  }),
});

export const CountryChange = z.object({
  id: z.string(),
  fromCountry: z.string().nullable(),
  toCountry: z.string(),
  source: z.enum(["registration", "user"]),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type CountryChange = z.infer<typeof CountryChange>;

export const operatorCountryHistoryEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/users/:userId/country-history",
  summary: "A user's changes of country of residence, newest first, with their reasons",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ userId: z.string().regex(/^[1-9]\d{0,18}$/, "must be a user id") }),
  response: z.object({ userId: z.string(), items: z.array(CountryChange) }),
  errors: ["not_found"],
});

/** Letters and digits of any script, 4 to 20, no spaces: easy to recognise in an e-mail. */
export const AntiPhishingCode = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}]{4,20}$/u, "must be 4 to 20 letters or digits");

export const setAntiPhishingEndpoint = defineEndpoint({
  method: "PUT",
  path: "/api/v1/me/anti-phishing",
  summary: "Set or change the anti-phishing code shown in every e-mail (null removes it)",
  tag: "me",
  auth: "user",
  body: z.strictObject({
    code: AntiPhishingCode.nullable(),
    /** Needed when two-factor sign-in is off. */
    tradePassword: z.string().min(1).max(64).optional(),
    /** Needed instead when two-factor sign-in is on. */
    totpCode: TwoFactorCode.optional(),
  }),
  response: UserInfo,
  errors: [
    "trade_password_required",
    "trade_password_invalid",
    "trade_password_not_set",
    "two_factor_required",
    "two_factor_invalid",
    "demo_not_allowed",
    "rate_limited",
  ],
  description:
    "With two-factor sign-in on, an authenticator (or recovery) code confirms the change; " +
    "otherwise the trade password does.",
});

export const SignInRecord = z.object({
  id: z.string(),
  at: z.string(),
  /** password (e-mail or phone), wallet (EIP-4361), register (the first sign-in), demo. */
  method: z.enum(["password", "wallet", "register", "demo"]),
  succeeded: z.boolean(),
  /** Why a failed attempt failed. */
  failure: z.enum(["password", "two_factor"]).nullable(),
  userAgent: z.string().nullable(),
  /** The address with its last part hidden (`203.0.113.*`). */
  ipMasked: z.string().nullable(),
});
export type SignInRecord = z.infer<typeof SignInRecord>;

export const signInHistoryEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/sign-ins",
  summary: "The user's last 50 sign-ins, failed attempts included, newest first",
  tag: "me",
  auth: "user",
  response: z.object({ items: z.array(SignInRecord) }),
});
