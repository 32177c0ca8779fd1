import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { ClientOrderId, PageLimit } from "./spot.ts";

/**
 * Savings plans (managed funds) and mining-yield products (issue 22). A promise exists only if
 * its money is reserved when it is made: subscribing moves the principal into the savings
 * principal account and the whole cycle's interest from the operator's funded yield account
 * into the reserve, in one kernel command, or it is refused ("sold out"). Daily payouts come
 * from the reserve; at maturity the principal returns. Amounts are decimal strings.
 */

export const SavingsPlanKind = z.enum(["savings", "mining"]);
export type SavingsPlanKind = z.infer<typeof SavingsPlanKind>;

export const SavingsEarlyRedemption = z.enum(["none", "forfeit_unpaid"]);

/** Hardware the operator describes for a mining product (descriptive only). */
export const MiningHardware = z.strictObject({
  manufacturer: z.string().max(64),
  hashrate: z.string().max(64),
  wallPower: z.string().max(64),
  boxSize: z.string().max(64),
  pool: z.string().max(64),
});
export type MiningHardware = z.infer<typeof MiningHardware>;

export const SavingsPlanId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/);

/** A plan with its terms and its standing in the asked mode (spec: getnftconfig, cryptofinance). */
export const SavingsPlanView = z.object({
  planId: z.string(),
  kind: SavingsPlanKind,
  name: z.string(),
  /** Mining products: the operator's hardware description; null for savings plans. */
  hardware: MiningHardware.nullable(),
  asset: z.string(),
  assetDecimals: z.number().int().nonnegative(),
  cycleDays: z.number().int().positive(),
  /** Daily rate in percent, exact (e.g. "0.05" = 0.05 % a day). */
  dailyRatePercent: DecimalString,
  /** The same rate in units of 10⁻⁸ a day (the kernel's integer). */
  dailyRateE8: z.number().int().positive(),
  /** Interest starts this long after subscribing (pending until then), seconds. */
  startDelayS: z.number().int().nonnegative(),
  amountMin: DecimalString,
  amountMax: DecimalString,
  /** Principal is a whole number of this (a mining product's unit price). */
  amountStep: DecimalString,
  capacity: DecimalString,
  earlyRedemption: SavingsEarlyRedemption,
  earlyPenaltyBps: z.number().int().nonnegative(),
  open: z.boolean(),
  mode: AccountMode,
  /** Principal of active subscriptions in this mode. */
  subscribed: DecimalString,
  capacityLeft: DecimalString,
  /** Promised, unpaid interest of this plan's subscriptions, held in the reserve. */
  reserved: DecimalString,
  /** The whole reserve account of this asset and mode (every plan's promises). */
  reserveTotal: DecimalString,
  /** The operator's unreserved yield money: what new promises can still be made from. */
  yieldAvailable: DecimalString,
  /** Not even the minimum subscription can be reserved now (capacity or yield). */
  soldOut: z.boolean(),
});
export type SavingsPlanView = z.infer<typeof SavingsPlanView>;

/** `pending` (before interest starts), `in_progress`, `ended` (matured), `early_redeemed`. */
export const SavingsSubscriptionState = z.enum([
  "pending",
  "in_progress",
  "ended",
  "early_redeemed",
]);
export type SavingsSubscriptionState = z.infer<typeof SavingsSubscriptionState>;

/** One subscription of the signed-in user (spec §3 managed-funds order, §3 NFT record). */
export const SavingsSubscriptionView = z.object({
  subscriptionId: z.string(),
  mode: AccountMode,
  planId: z.string(),
  planName: z.string(),
  kind: SavingsPlanKind,
  asset: z.string(),
  amount: DecimalString,
  /** Mining: units held (amount / the plan's unit price); null when the plan is gone. */
  quantity: z.string().nullable(),
  cycleDays: z.number().int().positive(),
  dailyRatePercent: DecimalString,
  subscribedAtMs: z.number().int(),
  startMs: z.number().int(),
  maturityMs: z.number().int(),
  /** The next payout (null once ended). */
  nextPayoutAtMs: z.number().int().nullable(),
  remainingDays: z.number().int().nonnegative(),
  /** The whole cycle's interest, reserved at subscription. */
  expectedProfit: DecimalString,
  cumulativeProfit: DecimalString,
  /** One day's interest (the last day may differ by rounding). */
  dailyProfit: DecimalString,
  paidDays: z.number().int().nonnegative(),
  state: SavingsSubscriptionState,
  earlyRedemption: SavingsEarlyRedemption,
  earlyPenaltyBps: z.number().int().nonnegative(),
  endedAtMs: z.number().int().nullable(),
  principalReturned: DecimalString.nullable(),
  interestForfeited: DecimalString.nullable(),
  penalty: DecimalString.nullable(),
});
export type SavingsSubscriptionView = z.infer<typeof SavingsSubscriptionView>;

export const savingsPlans = defineEndpoint({
  method: "GET",
  path: "/api/v1/savings/plans",
  summary: "Savings plans and mining products with their reserve and sold-out state",
  tag: "savings",
  auth: "none",
  query: z.strictObject({
    mode: AccountMode.default("real"),
    kind: SavingsPlanKind.optional(),
  }),
  response: z.object({
    /** False when the deployment switched the product off (SAVINGS_ENABLED=false). */
    enabled: z.boolean(),
    items: z.array(SavingsPlanView),
  }),
});

export const SubscribeSavingsBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first subscription. */
  requestId: ClientOrderId,
  planId: SavingsPlanId,
  amount: decimalString(18, { positive: true }),
});
export type SubscribeSavingsBody = z.input<typeof SubscribeSavingsBody>;

export const subscribeSavings = defineEndpoint({
  method: "POST",
  path: "/api/v1/savings/subscriptions",
  summary: "Subscribe to a plan: principal in, the whole promised interest reserved, or refused",
  tag: "savings",
  auth: "user",
  body: SubscribeSavingsBody,
  response: z.object({ subscription: SavingsSubscriptionView, duplicate: z.boolean() }),
  errors: [
    "product_unavailable_in_country",
    "country_required",
    "savings_disabled",
    "savings_plan_not_found",
    "savings_plan_closed",
    "savings_amount_below_minimum",
    "savings_amount_above_maximum",
    "savings_amount_not_on_step",
    "savings_sold_out",
    "too_many_savings_subscriptions",
    "insufficient_balance",
    "amount_too_many_decimals",
    "client_order_id_reused",
    "rate_limited",
  ],
});

export const savingsSubscriptions = defineEndpoint({
  method: "GET",
  path: "/api/v1/savings/subscriptions",
  summary: "The session's subscriptions: active ones first, then ended ones, newest first",
  tag: "savings",
  auth: "user",
  query: z.strictObject({ limit: PageLimit }),
  response: z.object({ items: z.array(SavingsSubscriptionView) }),
});

export const SavingsSubscriptionId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const redeemSavingsEarly = defineEndpoint({
  method: "POST",
  path: "/api/v1/savings/subscriptions/:subscriptionId/redeem",
  summary:
    "End a subscription early by its plan's rule (unpaid interest returns to the yield account)",
  tag: "savings",
  auth: "user",
  params: z.strictObject({ subscriptionId: SavingsSubscriptionId }),
  response: z.object({ subscription: SavingsSubscriptionView }),
  errors: ["savings_subscription_not_found", "savings_early_redemption_not_allowed"],
});

export const DefineSavingsPlanBody = z.strictObject({
  planId: SavingsPlanId,
  kind: SavingsPlanKind,
  name: z.string().min(1).max(64),
  hardware: MiningHardware.nullable().default(null),
  asset: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_.-]+$/),
  cycleDays: z.number().int().min(1).max(3_650),
  /** Percent a day, up to 6 decimals, at most 5. */
  dailyRatePercent: decimalString(6, { positive: true }),
  startDelayS: z.number().int().min(0).max(604_800).default(0),
  amountMin: decimalString(18, { positive: true }),
  amountMax: decimalString(18, { positive: true }),
  amountStep: decimalString(18, { positive: true }),
  capacity: decimalString(18),
  earlyRedemption: SavingsEarlyRedemption,
  earlyPenaltyBps: z.number().int().min(0).max(10_000).default(0),
  open: z.boolean(),
});
export type DefineSavingsPlanBody = z.input<typeof DefineSavingsPlanBody>;

export const defineSavingsPlan = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/savings/plans",
  summary: "Operator: define a plan or change its terms (later subscriptions only)",
  tag: "operator",
  auth: "operator",
  body: DefineSavingsPlanBody.extend({ reason: OperatorReason }),
  response: z.object({ plan: SavingsPlanView }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected"],
});

export const fundSavingsYield = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/savings/yield",
  summary:
    "Operator: fund the yield account (real: money put in, with a reference; demo: demo money)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    /** Idempotency key: the same id funds once. */
    id: ClientOrderId,
    mode: AccountMode,
    asset: z
      .string()
      .min(1)
      .max(32)
      .regex(/^[A-Za-z0-9_.-]+$/),
    amount: decimalString(18, { positive: true }),
    reference: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[\x21-\x7e]+$/)
      .optional(),
    reason: OperatorReason,
  }),
  response: z.object({ mode: AccountMode, asset: z.string(), yieldAvailable: DecimalString }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected", "validation_failed"],
});
