import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { ClientOrderId, PageLimit } from "./spot.ts";

/**
 * The wallet: balances, the statement (every posting on the user's accounts) and demo funds, in
 * the session's mode. Amounts are decimal strings at the asset's decimals. The paths stay under
 * `/api/v1/spot/` where the fund (spot) wallet first appeared.
 */

/** An asset id as the ledger names it (`USDT`, `BTC`). */
export const AssetId = z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/);

/** One asset of the fund (spot) wallet. */
export const SpotBalanceView = z.object({
  asset: z.string(),
  decimals: z.number().int().nonnegative(),
  /** Free to trade or withdraw. */
  available: DecimalString,
  /** Held for open orders and pending withdrawals (the spec's "frozen"). */
  held: DecimalString,
  /** available + held. */
  total: DecimalString,
});
export type SpotBalanceView = z.infer<typeof SpotBalanceView>;

/**
 * One of the user's accounts as a command left it, on the private `balances` stream: the
 * balance view plus which account it is (owner, mode and wallet: `fund`, `contract`, `fiat`).
 */
export const BalanceUpdateView = SpotBalanceView.extend({
  ownerId: z.string(),
  mode: AccountMode,
  wallet: z.string(),
});
export type BalanceUpdateView = z.infer<typeof BalanceUpdateView>;

/** The accounts of one user and mode that one command changed (private `balances` stream). */
export const BalancesChangedView = z.object({
  mode: AccountMode,
  balances: z.array(BalanceUpdateView),
});
export type BalancesChangedView = z.infer<typeof BalancesChangedView>;

export const spotBalances = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/balances",
  summary: "Fund wallet balances (available and held per asset) of the session's mode",
  tag: "wallet",
  auth: "user",
  response: z.object({ mode: AccountMode, items: z.array(SpotBalanceView) }),
});

/** Why money moved; the kernel's posting reasons. */
export const StatementReason = z.enum([
  "deposit",
  "withdrawal",
  "transfer_wallet",
  "transfer_user",
  "demo_grant",
  "demo_reset",
  "trade",
  "fee_maker",
  "fee_taker",
  "exchange",
]);

/** One line of the fund wallet's statement: one side of a balanced posting. */
export const StatementLineView = z.object({
  /** The posting's sequence number (the other side of it is on the counter account). */
  postingSeq: z.string(),
  asset: z.string(),
  /** Signed: positive when the wallet received it. */
  amount: DecimalString,
  /** True when the money came out of the held balance (a fill settling a held order). */
  fromHeld: z.boolean(),
  reason: StatementReason,
  /** The other account's owner: `user`, or a labelled system account (`system:fees`, …). */
  counterparty: z.string(),
  orderId: z.string().nullable(),
  fillId: z.string().nullable(),
  tickId: z.string().nullable(),
  /** Operator who made it (deposits, withdrawals, adjustments), else null. */
  operatorId: z.string().nullable(),
  reference: z.string().nullable(),
  /** Journal sequence of the command that made the posting. */
  sequence: z.string(),
  atMs: z.number().int(),
});
export type StatementLineView = z.infer<typeof StatementLineView>;

export const StatementQuery = z.strictObject({
  asset: AssetId.optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
  limit: PageLimit,
});

export const spotStatement = defineEndpoint({
  method: "GET",
  path: "/api/v1/spot/statement",
  summary: "The fund wallet's statement of the session's mode: postings as lines, newest first",
  tag: "wallet",
  auth: "user",
  query: StatementQuery,
  response: z.object({ items: z.array(StatementLineView), nextCursor: z.string().nullable() }),
});

export const grantDemoFunds = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/demo-funds",
  summary: "Demo mode only: add demo money from the demo faucet (never real money)",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    /** Idempotency key of this grant. */
    requestId: ClientOrderId,
    asset: AssetId,
    amount: decimalString(18, { positive: true }),
  }),
  response: z.object({ items: z.array(SpotBalanceView) }),
  errors: [
    "demo_mode_required",
    "asset_not_found",
    "amount_too_many_decimals",
    "amount_above_maximum",
    "rate_limited",
  ],
  description:
    "At most the configured demo grant per asset per request (GET /api/v1/spot/markets " +
    "lists markets; USDT up to 100,000, others up to the USDT-equivalent at the last price).",
});

export const resetDemoFunds = defineEndpoint({
  method: "POST",
  path: "/api/v1/spot/demo-funds/reset",
  summary: "Demo mode only: cancel demo orders and start again with the initial demo balance",
  tag: "wallet",
  auth: "user",
  response: z.object({
    cancelledCount: z.number().int().nonnegative(),
    items: z.array(SpotBalanceView),
  }),
  errors: ["demo_mode_required", "rate_limited"],
});
