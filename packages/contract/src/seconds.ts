import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString, InstrumentId } from "./market.ts";
import { ClientOrderId, PageLimit } from "./spot.ts";

/**
 * Seconds contracts (issue 20): up/down on the recorded tape. The open price is the last tape
 * tick before the purchase, the settlement price the first tick at or after expiry; both tick
 * ids are in every contract (`#/tape/:instrumentId/:tickId`). The house (`system:house`) is the
 * counterparty: it reserves the full payout at purchase. Amounts are decimal strings.
 */

export const SecondsDirection = z.enum(["up", "down"]);
export type SecondsDirection = z.infer<typeof SecondsDirection>;

/**
 * `win` (stake + payout back), `loss` (stake lost), `tie` (equal prices: stake back),
 * `no_tick` (no tick within the grace period after expiry: stake back).
 */
export const SecondsOutcome = z.enum(["win", "loss", "tie", "no_tick"]);
export type SecondsOutcome = z.infer<typeof SecondsOutcome>;

/** One product: an instrument and a period, with its terms, shown before purchase. */
export const SecondsProductView = z.object({
  instrumentId: z.string(),
  /** Contract length in seconds. */
  periodS: z.number().int().positive(),
  asset: z.string(),
  assetDecimals: z.number().int().nonnegative(),
  /** A win pays this share of the stake on top of the stake, basis points (8500 = 85 %). */
  payoutBps: z.number().int().positive(),
  /**
   * The share of contracts a user must win to break even at this payout, basis points,
   * rounded up: 10,000 × 10,000 / (10,000 + payoutBps). Ties and refunds aside.
   */
  breakEvenWinRateBps: z.number().int().positive(),
  stakeMin: DecimalString,
  stakeMax: DecimalString,
  /** After expiry, how long a settlement tick may take before the stake is refunded, s. */
  graceS: z.number().int().positive(),
  open: z.boolean(),
  /** Last tape price and its tick id (the price a purchase now would open at), or null. */
  lastPrice: DecimalString.nullable(),
  lastTickId: z.string().nullable(),
});
export type SecondsProductView = z.infer<typeof SecondsProductView>;

/** The figures disclosed before first use and on the screen, computed from the ledger. */
export const SecondsDisclosureView = z.object({
  mode: AccountMode,
  /** The window the figures cover: the last 30 days up to `toMs`. */
  fromMs: z.number().int(),
  toMs: z.number().int(),
  /** Contracts settled in the window, and how many of them won / lost / tied or refunded. */
  settledCount: z.number().int().nonnegative(),
  wonCount: z.number().int().nonnegative(),
  lostCount: z.number().int().nonnegative(),
  refundedCount: z.number().int().nonnegative(),
  /** Share of settled contracts that won, basis points (rounded down); null when none settled. */
  wonShareBps: z.number().int().nonnegative().nullable(),
  /**
   * Users' net result over the window per asset, from the ledger's postings of settled
   * contracts (payouts and returned stakes minus stakes): negative means users lost money.
   */
  usersNet: z.array(z.object({ asset: z.string(), amount: DecimalString })),
});
export type SecondsDisclosureView = z.infer<typeof SecondsDisclosureView>;

/** One contract of the signed-in user (spec §3 fields). */
export const SecondsContractView = z.object({
  contractId: z.string(),
  mode: AccountMode,
  instrumentId: z.string(),
  /** Buy type. */
  direction: SecondsDirection,
  periodS: z.number().int().positive(),
  asset: z.string(),
  stake: DecimalString,
  payoutBps: z.number().int().positive(),
  /** Reserved by the house at purchase: what a win pays on top of the stake. */
  payoutMax: DecimalString,
  /** Buy time and expiry, ms since the epoch. */
  boughtAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
  /** The open price and the tape tick it came from. */
  openPrice: DecimalString,
  openTickId: z.string(),
  /** `open` (in trade, waiting for settlement) or `settled` (completed). */
  status: z.enum(["open", "settled"]),
  /** Settlement (close) price and its tape tick; null while open or when no tick came. */
  settlePrice: DecimalString.nullable(),
  settleTickId: z.string().nullable(),
  settleTickAtMs: z.number().int().nullable(),
  settledAtMs: z.number().int().nullable(),
  outcome: SecondsOutcome.nullable(),
  /** Settlement quantity: what came back to the user (stake + payout, the stake, or 0). */
  returned: DecimalString.nullable(),
  /** Profit and loss: returned − stake. */
  profit: DecimalString.nullable(),
});
export type SecondsContractView = z.infer<typeof SecondsContractView>;

export const secondsProducts = defineEndpoint({
  method: "GET",
  path: "/api/v1/seconds/products",
  summary: "Seconds-contract products with payout, break-even win rate and the disclosure",
  tag: "seconds",
  auth: "none",
  query: z.strictObject({ mode: AccountMode.default("real") }),
  response: z.object({
    /** False when the deployment switched the product off (SECONDS_ENABLED=false). */
    enabled: z.boolean(),
    items: z.array(SecondsProductView),
    disclosure: SecondsDisclosureView,
  }),
});

export const PurchaseSecondsBody = z.strictObject({
  /** Idempotency key minted on the device: a retry returns the first contract. */
  requestId: ClientOrderId,
  instrumentId: InstrumentId,
  periodS: z.number().int().min(5).max(3_600),
  direction: SecondsDirection,
  stake: decimalString(18, { positive: true }),
  /** As for spot orders: needed in real mode unless confirmed within the window. */
  tradePassword: z.string().min(1).max(64).optional(),
});
export type PurchaseSecondsBody = z.input<typeof PurchaseSecondsBody>;

export const purchaseSecondsContract = defineEndpoint({
  method: "POST",
  path: "/api/v1/seconds/contracts",
  summary: "Buy an up/down contract at the last tape price (idempotent by requestId)",
  tag: "seconds",
  auth: "user",
  body: PurchaseSecondsBody,
  response: z.object({ contract: SecondsContractView, duplicate: z.boolean() }),
  errors: [
    "product_unavailable_in_country",
    "country_required",
    "seconds_disabled",
    "seconds_product_not_found",
    "seconds_product_closed",
    "seconds_stake_below_minimum",
    "seconds_stake_above_maximum",
    "seconds_exposure_limit",
    "seconds_house_insufficient",
    "too_many_open_contracts",
    "insufficient_balance",
    "no_reference_price",
    "reference_price_stale",
    "amount_too_many_decimals",
    "client_order_id_reused",
    "trade_password_not_set",
    "trade_password_invalid",
    "rate_limited",
  ],
});

export const SecondsContractsQuery = z.strictObject({
  status: z.enum(["open", "settled"]).optional(),
  instrumentId: InstrumentId.optional(),
  outcome: SecondsOutcome.optional(),
  direction: SecondsDirection.optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .optional(),
  limit: PageLimit,
});

export const secondsContracts = defineEndpoint({
  method: "GET",
  path: "/api/v1/seconds/contracts",
  summary: "The session's seconds contracts, newest first, with filters, paged",
  tag: "seconds",
  auth: "user",
  query: SecondsContractsQuery,
  response: z.object({ items: z.array(SecondsContractView), nextCursor: z.string().nullable() }),
});

export const SecondsContractId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const secondsContractDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/seconds/contracts/:contractId",
  summary: "One seconds contract with both tape tick ids",
  tag: "seconds",
  auth: "user",
  params: z.strictObject({ contractId: SecondsContractId }),
  response: z.object({ contract: SecondsContractView }),
  errors: ["seconds_contract_not_found"],
});

export const configureSecondsProduct = defineEndpoint({
  method: "PUT",
  path: "/api/v1/operator/seconds/products",
  summary: "Operator: configure a seconds product's terms (later purchases only, never results)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    instrumentId: InstrumentId,
    periodS: z.number().int().min(5).max(3_600),
    asset: z
      .string()
      .min(1)
      .max(32)
      .regex(/^[A-Za-z0-9_.-]+$/),
    payoutBps: z.number().int().min(1).max(20_000),
    stakeMin: decimalString(18, { positive: true }),
    stakeMax: decimalString(18, { positive: true }),
    exposureMax: decimalString(18),
    graceS: z.number().int().min(1).max(600),
    open: z.boolean(),
    reason: OperatorReason,
  }),
  response: z.object({ product: SecondsProductView }),
  errors: ["asset_not_found", "amount_too_many_decimals", "command_rejected"],
});
