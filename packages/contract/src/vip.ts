import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { OperatorReason } from "./operators.ts";

/**
 * VIP levels (spec: the VIP tab of the home navigation): levels reached by 30-day traded volume
 * or by balance in one asset per mode, each with a discount on trading fees (spot and perpetual)
 * and a daily withdrawal limit, all from configuration the kernel keeps. The discount is applied
 * by the kernel to each fee before it is collected.
 */

/** Path of the signed-in user's VIP level. */
export const vipMePath = "/api/v1/vip/me";

/** Highest level number. */
export const vipLevelMax = 10;

export const VipLevelView = z.object({
  level: z.number().int().min(0).max(vipLevelMax),
  /** 30-day volume that reaches the level (decimal string of the asset; "0": not a condition). */
  minVolume: DecimalString,
  /** Fund-wallet balance that reaches the level ("0": not a condition). */
  minBalance: DecimalString,
  /** Discount on trading fees in basis points of the fee (10,000 = no fee). */
  feeDiscountBps: z.number().int().min(0).max(10_000),
  /** Most that may be withdrawn of the asset per UTC day; null: no limit from VIP. */
  withdrawDailyLimit: DecimalString.nullable(),
});
export type VipLevelView = z.infer<typeof VipLevelView>;

export const VipMe = z.object({
  mode: AccountMode,
  /** The asset volume and balance are measured in; null when VIP is not configured. */
  asset: z.string().nullable(),
  /** Volume traded in the last 30 days (today and the 29 days before, UTC). */
  volume30d: DecimalString,
  balance: DecimalString,
  /** The level reached now; null when none is. */
  level: z.number().int().nullable(),
  /** Withdrawn today in the asset (counted against the level's daily limit). */
  withdrawnToday: DecimalString,
  /** Every level, lowest first. */
  levels: z.array(VipLevelView),
  /**
   * The next level and what is missing to reach it (either condition is enough); progress in
   * basis points towards the nearer condition, computed in integers. Null at the top level.
   */
  next: z
    .object({
      level: z.number().int(),
      volumeNeeded: DecimalString.nullable(),
      balanceNeeded: DecimalString.nullable(),
      progressBps: z.number().int().min(0).max(10_000),
    })
    .nullable(),
});
export type VipMe = z.infer<typeof VipMe>;

export const myVipLevel = defineEndpoint({
  method: "GET",
  path: vipMePath,
  summary: "My VIP level, 30-day volume, progress to the next level and the benefits",
  description:
    "In the session's mode. Volume counts spot and perpetual fills in the VIP asset since VIP was configured in the mode.",
  tag: "vip",
  auth: "user",
  response: VipMe,
});

/** Path of the operator's VIP level configuration. */
export const vipLevelsPath = "/api/v1/operator/vip/levels";

const amount = decimalString(18);

export const ConfigureVipLevelBody = z.strictObject({
  mode: AccountMode,
  level: z.number().int().min(0).max(vipLevelMax),
  asset: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_.-]+$/),
  /** Level 0 takes neither threshold; a higher level needs at least one. */
  minVolume: amount.default("0"),
  minBalance: amount.default("0"),
  feeDiscountBps: z.number().int().min(0).max(10_000),
  /** "0" or absent: no daily limit from VIP. */
  withdrawDailyLimit: amount.default("0"),
  /** Deletes the level instead. */
  remove: z.boolean().default(false),
  reason: OperatorReason,
});

export const configureVipLevel = defineEndpoint({
  method: "PUT",
  path: vipLevelsPath,
  summary: "Operator: set or remove one VIP level of one mode",
  description:
    "Every level of a mode measures in the same asset. A discount only lowers fees; it applies to fills after the change.",
  tag: "operator",
  auth: "operator",
  body: ConfigureVipLevelBody,
  response: z.object({
    mode: AccountMode,
    asset: z.string().nullable(),
    levels: z.array(VipLevelView),
  }),
  errors: [
    "asset_not_found",
    "amount_too_many_decimals",
    "command_rejected",
    "validation_failed",
    "service_unavailable",
  ],
});

export const operatorVipLevels = defineEndpoint({
  method: "GET",
  path: vipLevelsPath,
  summary: "Operator: the VIP levels of each mode (asset, thresholds, discount, daily limit)",
  tag: "operator",
  auth: "operator",
  response: z.object({
    /** Real then demo; a mode without levels has `asset: null` and no levels. */
    modes: z.array(
      z.object({ mode: AccountMode, asset: z.string().nullable(), levels: z.array(VipLevelView) }),
    ),
  }),
});
