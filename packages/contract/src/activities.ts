import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { OperatorReason } from "./operators.ts";
import { ClientOrderId } from "./spot.ts";

/**
 * Deposit-bonus activities (spec: index/activity, `/api/activity/useractivity`,
 * `/api/activity/joinactivity`, §4 activity states, §8 activity texts). The operator defines an
 * activity (deposit at least `minDeposit`, get `bonus`; `capacity` places; a booking window) and
 * funds the mode's promotion account. Reserving a place sets the bonus aside from that account
 * at once (refused when it is short); a qualifying deposit within `depositDays` days pays it,
 * otherwise the reservation lapses and the bonus returns. Demo activities pay demo money only.
 */

export const ActivityState = z.enum(["upcoming", "bookable", "reserved", "ended"]);
export type ActivityState = z.infer<typeof ActivityState>;

export const ActivityView = z.object({
  activityId: z.string(),
  mode: AccountMode,
  asset: z.string(),
  /** The smallest deposit that qualifies (decimal string). */
  minDeposit: DecimalString,
  /** The bonus a qualifying deposit gets (decimal string). */
  bonus: DecimalString,
  capacity: z.number().int(),
  /** Places still free. */
  remaining: z.number().int(),
  /** The booking window (ISO 8601). */
  startsAt: z.string(),
  endsAt: z.string(),
  /** Days a reservation waits for its qualifying deposit. */
  depositDays: z.number().int(),
  /** For the signed-in user: upcoming → bookable → reserved → ended. */
  state: ActivityState,
  /** The user's latest reservation of this activity, if any. */
  reservation: z
    .object({
      reservationId: z.string(),
      status: z.enum(["reserved", "paid", "lapsed"]),
      /** The qualifying deposit must arrive before this time (ISO 8601). */
      dueAt: z.string(),
    })
    .nullable(),
});
export type ActivityView = z.infer<typeof ActivityView>;

export const listActivities = defineEndpoint({
  method: "GET",
  path: "/api/v1/activities",
  summary: "Deposit-bonus activities of the session's mode, with my state in each",
  tag: "activities",
  auth: "user",
  response: z.object({ activities: z.array(ActivityView) }),
});

export const reserveActivity = defineEndpoint({
  method: "POST",
  path: "/api/v1/activities/reservations",
  summary: "Reserve a place in an activity (the bonus is set aside at once)",
  description:
    "Refused when the activity is full, outside its window, already reserved by me, or the promotion account cannot cover the bonus. The same requestId reserves once.",
  tag: "activities",
  auth: "user",
  body: z.strictObject({
    activityId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/),
    /** Idempotency key of this request. */
    requestId: ClientOrderId,
  }),
  response: z.object({ activity: ActivityView }),
  errors: [
    "activity_not_found",
    "activity_not_open",
    "activity_full",
    "activity_already_reserved",
    "activity_promotion_short",
    "service_unavailable",
  ],
});

const asset = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/);

export const defineActivity = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/activities",
  summary: "Operator: define a deposit-bonus activity (once per id)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    activityId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/),
    mode: AccountMode,
    asset,
    minDeposit: decimalString(18, { positive: true }),
    bonus: decimalString(18, { positive: true }),
    capacity: z.number().int().min(1).max(1_000_000),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    reason: OperatorReason,
  }),
  response: z.object({ activity: ActivityView }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected", "validation_failed"],
});

export const fundPromotion = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/activities/fund",
  summary:
    "Operator: fund the promotion account that backs activity bonuses (real: money put in, with a reference; demo: demo money)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    /** Idempotency key: the same id funds once. */
    id: ClientOrderId,
    mode: AccountMode,
    asset,
    amount: decimalString(18, { positive: true }),
    reference: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[\x21-\x7e]+$/)
      .optional(),
    reason: OperatorReason,
  }),
  response: z.object({ mode: AccountMode, asset: z.string(), promotionAvailable: DecimalString }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected", "validation_failed"],
});

/**
 * An activity as the operator sees it: its terms, places taken by open and paid reservations,
 * and where it stands now (`upcoming` before its window, `open` while bookable, `full` when no
 * place is free, `ended` after its window).
 */
export const OperatorActivityView = z.object({
  activityId: z.string(),
  mode: AccountMode,
  asset: z.string(),
  minDeposit: DecimalString,
  bonus: DecimalString,
  capacity: z.number().int(),
  /** Places still free (lapsed reservations free theirs). */
  remaining: z.number().int(),
  /** Reservations waiting for their qualifying deposit. */
  reservedCount: z.number().int(),
  /** Reservations whose bonus was paid. */
  paidCount: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(["upcoming", "open", "full", "ended"]),
});
export type OperatorActivityView = z.infer<typeof OperatorActivityView>;

/** A mode's promotion money in one asset: not yet reserved, and reserved for open places. */
export const PromotionBalanceView = z.object({
  mode: AccountMode,
  asset: z.string(),
  available: DecimalString,
  reserved: DecimalString,
});
export type PromotionBalanceView = z.infer<typeof PromotionBalanceView>;

export const operatorListActivities = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/activities",
  summary:
    "Operator: every deposit-bonus activity (both modes) with places left, and the promotion account balances",
  tag: "operator",
  auth: "operator",
  response: z.object({
    activities: z.array(OperatorActivityView),
    /** One row per mode and asset that an activity is defined in. */
    promotion: z.array(PromotionBalanceView),
  }),
});
