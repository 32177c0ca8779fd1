import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { ResidenceCountry } from "./countries.ts";
import { OperatorReason } from "./operator-reason.ts";
import { SwitchableProduct } from "./residence.ts";
import { WithdrawNetwork } from "./wallet.ts";

/**
 * Product configuration in the back office (issue 17): trading fees of spot and perpetual
 * markets, perpetual leverage caps, per-country product switches, and the limits in force
 * (seeded from the settings, then changed by an admin). Fees and caps are kernel market parameters changed by journaled commands; a
 * change applies to orders placed after it, never to fills already made, and never to an
 * existing position. Nothing here sets a balance, a price, a fill or a result.
 */

/** The highest trading fee an operator may set, in basis points (1 %). */
export const FEE_BPS_OPERATOR_MAX = 100;

/** A market id as the kernel spells it (`BTC-USDT`, `BTC-PERP`). */
export const MarketId = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "must be a market id");

const FeeBps = z.number().int().min(0).max(FEE_BPS_OPERATOR_MAX);

export const SpotMarketTerms = z.object({
  marketId: z.string(),
  feeBpsMaker: z.number().int(),
  feeBpsTaker: z.number().int(),
});

export const PerpMarketTerms = z.object({
  marketId: z.string(),
  feeBpsMaker: z.number().int(),
  feeBpsTaker: z.number().int(),
  /** The cap in force (may be lowered by an operator). */
  leverageMax: z.number().int(),
  /** The cap the market was defined with: the highest an operator may set. */
  leverageMaxDefined: z.number().int(),
});

export const CountryProductBlock = z.object({
  country: z.string(),
  /** Products not offered to residents of this country. */
  blocked: z.array(SwitchableProduct),
});
export type CountryProductBlock = z.infer<typeof CountryProductBlock>;

export const operatorMarketTerms = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/market-terms",
  summary: "Operator: the fees of every spot and perpetual market and the perpetual leverage caps",
  tag: "operator",
  auth: "operator",
  response: z.object({ spot: z.array(SpotMarketTerms), perp: z.array(PerpMarketTerms) }),
});

export const operatorSetSpotFees = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/spot/markets/:marketId/fees",
  summary: "Operator: a spot market's maker and taker fees (orders placed after the change only)",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ marketId: MarketId }),
  body: z.strictObject({ feeBpsMaker: FeeBps, feeBpsTaker: FeeBps, reason: OperatorReason }),
  response: z.object({ market: SpotMarketTerms }),
  errors: ["instrument_not_found", "command_rejected"],
  description:
    "A journaled kernel command (set_market_fees) with the operator's id. Orders already " +
    "placed keep the rates in force when they were placed; fills already made never change.",
});

export const operatorSetPerpTerms = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/perp/markets/:marketId/terms",
  summary: "Operator: a perpetual market's fees and leverage cap (later orders only)",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ marketId: MarketId }),
  body: z.strictObject({
    feeBpsMaker: FeeBps,
    feeBpsTaker: FeeBps,
    leverageMax: z.number().int().min(1).max(200),
    reason: OperatorReason,
  }),
  response: z.object({ market: PerpMarketTerms }),
  errors: ["instrument_not_found", "command_rejected"],
  description:
    "A journaled kernel command (set_perp_market_terms). The cap may not exceed the market's " +
    "defined cap. A lower cap changes no position, margin or order: an owner whose leverage is " +
    "above it can still reduce and close, and opens again after choosing a leverage within it.",
});

export const operatorCountryProducts = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/country-products",
  summary: "Operator: the per-country product switches (countries with a product switched off)",
  tag: "operator",
  auth: "operator",
  response: z.object({ countries: z.array(CountryProductBlock) }),
});

export const operatorSetCountryProducts = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/country-products/:country",
  summary: "Operator: the products switched off for residents of one country (the whole list)",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ country: ResidenceCountry }),
  body: z.strictObject({
    blocked: z
      .array(SwitchableProduct)
      .max(5)
      .refine((list) => new Set(list).size === list.length, "must not repeat a product"),
    reason: OperatorReason,
  }),
  response: CountryProductBlock,
  description:
    "Opening endpoints ask the switches (placing a perpetual order that is not reduce-only, " +
    "buying a seconds contract or a stock, subscribing, applying for a loan); closing, " +
    "reducing, repaying and redeeming never do. COUNTRY_PRODUCT_BLOCKS seeds the table once.",
});

const AssetAmount = z.object({ asset: z.string(), amount: z.string() });
const IdentityTierNeeded = z.enum(["none", "basic", "advanced"]);
const WithdrawalTerms = z.object({
  asset: z.string(),
  network: z.string(),
  minimum: z.string(),
  fee: z.string(),
});

const LimitsView = z.object({
  withdrawals: z.array(WithdrawalTerms),
  withdrawalTwoApprovalsAbove: z.array(AssetAmount),
  adjustmentTwoApprovalsAbove: z.array(AssetAmount),
  /** Per user and day, transfers to other users (0 or absent asset: not allowed). */
  transferDailyLimits: z.array(AssetAmount),
  withdrawRequiresIdentity: IdentityTierNeeded,
  /** Per asset: a withdrawal above this amount needs the advanced tier passed. */
  withdrawAdvancedAbove: z.array(AssetAmount),
});
export type LimitsView = z.infer<typeof LimitsView>;

export const operatorLimits = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/limits",
  summary: "Operator: the withdrawal, transfer and approval limits in force",
  tag: "operator",
  auth: "operator",
  response: LimitsView,
});

/** The per-asset amount tables of the limits an operator may set (`kind: "amount"`). */
export const LimitAmountTable = z.enum([
  "withdrawalTwoApprovalsAbove",
  "adjustmentTwoApprovalsAbove",
  "transferDailyLimits",
  "withdrawAdvancedAbove",
]);
export type LimitAmountTable = z.infer<typeof LimitAmountTable>;

const LimitAssetId = z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, "must be an asset id");
/** An amount of a limit: a non-negative decimal string (the asset's scale is checked too). */
const LimitAmount = z
  .string()
  .max(40)
  .regex(/^\d+(\.\d+)?$/, "must be a non-negative decimal string");

export const operatorSetLimit = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/limits",
  summary: "Operator: change one limit (a withdrawal's minimum and fee, an amount, the tier)",
  tag: "operator",
  auth: "operator",
  body: z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("withdrawal"),
      asset: LimitAssetId,
      /** A chain, or `bank` for withdrawals to a bound bank card. */
      network: z.enum([...WithdrawNetwork.options, "bank"]),
      minimum: LimitAmount,
      fee: LimitAmount,
      reason: OperatorReason,
    }),
    z.strictObject({
      kind: z.literal("amount"),
      table: LimitAmountTable,
      asset: LimitAssetId,
      amount: LimitAmount,
      reason: OperatorReason,
    }),
    z.strictObject({
      kind: z.literal("identity"),
      withdrawRequiresIdentity: IdentityTierNeeded,
      reason: OperatorReason,
    }),
  ]),
  response: LimitsView,
  errors: [
    "asset_not_found",
    "amount_malformed",
    "amount_too_many_decimals",
    "amount_above_maximum",
    "limit_pair_not_offered",
    "limit_minimum_not_above_fee",
    "limit_must_be_positive",
  ],
  description:
    "Later requests only: a withdrawal already requested keeps its fee and approvals. A " +
    "withdrawal's pair (asset and network) must already be offered, its minimum above zero and " +
    "above its fee; a two-approval amount or an advanced-tier amount above zero; a daily " +
    "transfer limit of 0 stops transfers of the asset. Each node applies a change within five " +
    "seconds; the audit log keeps the operator, the reason and the body.",
});

export const PublicProductSetting = z.object({
  product: z.enum(["spot", ...SwitchableProduct.options]),
  /** False: this deployment does not offer the product to anyone. */
  offered: z.boolean(),
  /**
   * Countries of residence it is not offered in (ISO 3166-1 alpha-2, sorted). When not empty,
   * a user opens it only after choosing a country of residence.
   */
  closedIn: z.array(z.string()),
});

export const publicSettings = defineEndpoint({
  method: "GET",
  path: "/api/v1/settings",
  summary: "Public settings: products offered, the languages, and the limits every user meets",
  tag: "content",
  auth: "none",
  response: z.object({
    products: z.array(PublicProductSetting),
    /** The interface languages (the specification's codes); English is the fallback. */
    languages: z.array(z.string()),
    /** Per asset and network (bank: `bank`): the smallest withdrawal and its fee. */
    withdrawals: z.array(WithdrawalTerms),
    /** Per user and day, transfers to other users (an asset not listed: not allowed). */
    transferDailyLimits: z.array(AssetAmount),
    withdrawRequiresIdentity: IdentityTierNeeded,
    /** Per asset: a withdrawal above this amount needs the advanced identity tier. */
    withdrawAdvancedAbove: z.array(AssetAmount),
  }),
  description:
    "The spec's getsetting. The same figures the server enforces, read from the same " +
    "configuration. The back office's internal controls (amounts needing a second approval) " +
    "are not public.",
});
