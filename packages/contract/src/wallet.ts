import { z } from "zod";
import type { PostingReason } from "@candor/kernel";
import { OperatorReason } from "./operator-reason.ts";
import { TwoFactorCode } from "./auth.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import type { ErrorCode } from "./errors.ts";
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

/**
 * Why money moved: every one of the kernel's posting reasons, each as itself. The table must name
 * each `PostingReason` and nothing else, so a reason the kernel adds and the statement lacks
 * does not compile (a line with it would otherwise fail the response check: a 500).
 * `tests/contract-statement-reasons.test.ts` checks it against the kernel's source as well.
 */
const statementReasons = {
  deposit: "deposit",
  withdrawal: "withdrawal",
  withdrawal_fee: "withdrawal_fee",
  transfer_wallet: "transfer_wallet",
  transfer_user: "transfer_user",
  demo_grant: "demo_grant",
  demo_reset: "demo_reset",
  trade: "trade",
  fee_maker: "fee_maker",
  fee_taker: "fee_taker",
  exchange: "exchange",
  perp_realised: "perp_realised",
  perp_fee: "perp_fee",
  perp_liquidation_fee: "perp_liquidation_fee",
  perp_funding: "perp_funding",
  perp_insurance_cover: "perp_insurance_cover",
  seconds_stake: "seconds_stake",
  seconds_stake_return: "seconds_stake_return",
  seconds_stake_lost: "seconds_stake_lost",
  seconds_payout: "seconds_payout",
  savings_yield_funding: "savings_yield_funding",
  savings_principal: "savings_principal",
  savings_interest_reserve: "savings_interest_reserve",
  savings_interest: "savings_interest",
  savings_principal_return: "savings_principal_return",
  savings_interest_forfeit: "savings_interest_forfeit",
  savings_early_penalty: "savings_early_penalty",
  stock_trade: "stock_trade",
  stock_commission: "stock_commission",
  stock_stamp_duty: "stock_stamp_duty",
  loans_pool_funding: "loans_pool_funding",
  loans_principal: "loans_principal",
  loans_repayment: "loans_repayment",
  loans_liquidation: "loans_liquidation",
  referral_rebate: "referral_rebate",
  agent_rebate: "agent_rebate",
  activity_funding: "activity_funding",
  activity_reserve: "activity_reserve",
  activity_release: "activity_release",
  activity_bonus: "activity_bonus",
} as const satisfies { readonly [R in PostingReason]: R };

export const StatementReason = z.enum(statementReasons);
export type StatementReason = z.infer<typeof StatementReason>;

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
  /**
   * Operator who made it (deposits, withdrawals, adjustments), else null. Where two operators
   * had to agree (the two-person rule), both: `7+9` (requester or first approver, then second).
   */
  operatorId: z.string().nullable(),
  /** `operatorId` split: every operator named on the posting, in order. */
  operatorIds: z.array(z.string()),
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

/*
 * Accounts, transfers and quick exchange (issue 16): the user's fund, contract and fiat wallets,
 * moves between them and to another user, and swaps at the recorded tape price against the
 * labelled house account. Paths under `/api/v1/wallet/`.
 */

/** The three wallets every user has per mode. */
export const WalletName = z.enum(["fund", "contract", "fiat"]);
export type WalletName = z.infer<typeof WalletName>;

/** A user id as the API shows it (decimal digits). */
export const UserIdString = z.string().regex(/^[1-9]\d{0,18}$/);

/** One asset of one wallet, with its value in the valuation asset at the tape's last price. */
export const AccountAssetView = SpotBalanceView.extend({
  /** total × price, rounded down to the valuation asset's decimals; null without a price. */
  valuation: DecimalString.nullable(),
  /** The tape price used (valuation asset per whole unit), "1" for the valuation asset itself. */
  price: DecimalString.nullable(),
  /** The tape tick the price came from; null for the valuation asset or without a price. */
  tickId: z.string().nullable(),
});
export type AccountAssetView = z.infer<typeof AccountAssetView>;

/** One wallet: its assets and their summed valuation. */
export const WalletAccountView = z.object({
  wallet: WalletName,
  /** Sum of the priced assets' valuations. */
  valuation: DecimalString,
  items: z.array(AccountAssetView),
});
export type WalletAccountView = z.infer<typeof WalletAccountView>;

export const walletAccounts = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/accounts",
  summary: "The fund, contract and fiat wallets of the session's mode, valued at tape prices",
  tag: "wallet",
  auth: "user",
  response: z.object({
    mode: AccountMode,
    /** The asset valuations are expressed in (USDT). */
    valuationAsset: z.string(),
    valuationDecimals: z.number().int().nonnegative(),
    /** Sum over all wallets. */
    totalValuation: DecimalString,
    wallets: z.array(WalletAccountView),
  }),
  description:
    "Each asset's valuation is its total times the last tick of its market against the " +
    "valuation asset, rounded down; the tick id is given so it can be checked on the tape. " +
    "Assets without a price are listed with a null valuation and left out of the sums.",
});

export const walletAccountStatement = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/accounts/:wallet/statement",
  summary: "One wallet's postings in the session's mode, newest first (account detail)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ wallet: WalletName }),
  query: StatementQuery,
  response: z.object({ items: z.array(StatementLineView), nextCursor: z.string().nullable() }),
});

/**
 * The whole statement of the session's mode, oldest first, each line chained to the ones before
 * by a hash (`packages/proof/src/statement.ts` says how, and checks it).
 */
export const StatementExportView = z.object({
  version: z.literal(1),
  userId: z.string(),
  mode: AccountMode,
  /** Journal sequence the statement is complete up to (the balances are at it too). */
  sequence: z.string(),
  generatedAtMs: z.number().int(),
  assets: z.array(z.object({ asset: z.string(), scale: z.number().int() })),
  balances: z.array(z.object({ wallet: WalletName, asset: z.string(), amount: DecimalString })),
  lines: z.array(
    StatementLineView.extend({
      wallet: WalletName,
      /** The account's balance (available + held) after this line. */
      balanceAfter: DecimalString,
      hash: z.string(),
    }),
  ),
  head: z.string(),
});
export type StatementExportView = z.infer<typeof StatementExportView>;

export const exportStatement = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/statement/export",
  summary:
    "Every posting of the session's mode, oldest first, with running balances and a hash chain " +
    "the app (or anyone) can check; JSON, or CSV with format=csv",
  tag: "wallet",
  auth: "user",
  query: z.strictObject({ format: z.enum(["json", "csv"]).default("json") }),
  response: StatementExportView,
  errors: ["service_unavailable"],
});

/** One transfer as its sender or recipient sees it. */
export const TransferView = z.object({
  transferId: z.string(),
  /** "wallet": between the user's own wallets; "user": to or from another user. */
  kind: z.enum(["wallet", "user"]),
  /** "out": sent by the user, "in": received from another user, "self": between own wallets. */
  direction: z.enum(["out", "in", "self"]),
  mode: AccountMode,
  asset: z.string(),
  amount: DecimalString,
  sourceWallet: WalletName,
  targetWallet: WalletName,
  /** For user transfers: the other user's id and masked name; else null. */
  counterpartyId: z.string().nullable(),
  counterpartyName: z.string().nullable(),
  postingSeq: z.string(),
  atMs: z.number().int(),
});
export type TransferView = z.infer<typeof TransferView>;

export const transferBetweenWallets = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/transfers/internal",
  summary: "Move available funds between the user's own wallets (instant)",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    /** Idempotency key minted on the device. */
    requestId: ClientOrderId,
    asset: AssetId,
    amount: decimalString(18, { positive: true }),
    sourceWallet: WalletName,
    targetWallet: WalletName,
  }),
  response: TransferView,
  errors: [
    "same_wallet",
    "asset_not_found",
    "insufficient_balance",
    "amount_too_many_decimals",
    "amount_above_maximum",
  ],
});

export const transferRecipient = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/recipients/:userId",
  summary: "The masked name of a user to transfer to, shown before confirming",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ userId: UserIdString }),
  response: z.object({ userId: z.string(), maskedName: z.string() }),
  errors: ["recipient_not_found", "recipient_is_self", "demo_not_allowed", "rate_limited"],
});

export const transferToUser = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/transfers/user",
  summary: "Send available funds from the fund wallet to another user (real money, irreversible)",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    requestId: ClientOrderId,
    recipientId: UserIdString,
    asset: AssetId,
    amount: decimalString(18, { positive: true }),
    tradePassword: z.string().min(1).max(64),
    /** The user confirmed the "cannot be undone" warning. */
    confirmIrreversible: z.boolean(),
  }),
  response: TransferView,
  errors: [
    "demo_not_allowed",
    "confirmation_required",
    "recipient_not_found",
    "recipient_is_self",
    "trade_password_not_set",
    "trade_password_invalid",
    "transfer_limit_exceeded",
    "insufficient_balance",
    "asset_not_found",
    "amount_too_many_decimals",
    "rate_limited",
  ],
  description:
    "Demo money never leaves its demo account: demo sessions are refused. Each asset has a " +
    "per-user limit over any 24 hours (GET /api/v1/wallet/transfers/limits).",
});

export const transferLimits = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/transfers/limits",
  summary: "The user's transfer limit per asset over 24 hours, and how much is left",
  tag: "wallet",
  auth: "user",
  response: z.object({
    items: z.array(z.object({ asset: z.string(), limit: DecimalString, left: DecimalString })),
  }),
});

export const PageQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
  limit: PageLimit,
});

export const transferRecords = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/transfers",
  summary: "Transfer records of the session's mode, sent and received, newest first",
  tag: "wallet",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(TransferView), nextCursor: z.string().nullable() }),
});

/** A quick-exchange quote: the kernel's price from the tape, the spread, and its expiry. */
export const ExchangeQuoteView = z.object({
  quoteId: z.string(),
  mode: AccountMode,
  sourceAsset: z.string(),
  sourceAmount: DecimalString,
  targetAsset: z.string(),
  /** What the user receives, rounded down. */
  targetAmount: DecimalString,
  /** The tape price (quote asset per whole base unit) and the tick it came from. */
  instrumentId: z.string(),
  tickId: z.string(),
  price: DecimalString,
  /** Disclosed spread against the tape price, basis points. */
  spreadBps: z.number().int().nonnegative(),
  /** Units of target received per unit of source, at the quote (rounded down, 18 decimals max). */
  rate: DecimalString,
  /** The labelled counterparty: `system:house`. */
  counterparty: z.string(),
  quotedAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
});
export type ExchangeQuoteView = z.infer<typeof ExchangeQuoteView>;

/** An executed quick exchange. */
export const ExchangeRecordView = ExchangeQuoteView.extend({
  paymentPostingSeq: z.string(),
  deliveryPostingSeq: z.string(),
  executedAtMs: z.number().int(),
});
export type ExchangeRecordView = z.infer<typeof ExchangeRecordView>;

/** A quote id as `requestExchangeQuote` made it (the kernel command id; ≤ 110 characters). */
export const QuoteId = z
  .string()
  .max(110)
  .regex(/^[A-Za-z0-9_:.-]+$/);

export const exchangePairs = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/exchange/pairs",
  summary: "Asset pairs quick exchange quotes (each way), the spread and the quote lifetime",
  tag: "wallet",
  auth: "none",
  response: z.object({
    spreadBps: z.number().int().nonnegative(),
    quoteTtlMs: z.number().int().positive(),
    counterparty: z.string(),
    items: z.array(
      z.object({
        base: z.string(),
        quote: z.string(),
        instrumentId: z.string(),
        price: DecimalString.nullable(),
        tickId: z.string().nullable(),
      }),
    ),
  }),
});

export const requestExchangeQuote = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/exchange/quotes",
  summary: "Ask for a quick-exchange quote at the tape price ± the disclosed spread",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    requestId: ClientOrderId,
    sourceAsset: AssetId,
    targetAsset: AssetId,
    sourceAmount: decimalString(18, { positive: true }),
  }),
  response: ExchangeQuoteView,
  errors: [
    "exchange_pair_unsupported",
    "exchange_amount_too_small",
    "house_insufficient",
    "reference_price_stale",
    "no_reference_price",
    "insufficient_balance",
    "too_many_quotes",
    "amount_too_many_decimals",
  ],
});

export const acceptExchangeQuote = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/exchange/quotes/:quoteId/accept",
  summary: "Execute a standing quote exactly as quoted (before its expiry)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ quoteId: QuoteId }),
  response: ExchangeRecordView,
  errors: ["quote_expired", "quote_not_found", "insufficient_balance", "house_insufficient"],
});

export const exchangeRecords = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/exchanges",
  summary: "Executed quick exchanges of the session's mode, newest first",
  tag: "wallet",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(ExchangeRecordView), nextCursor: z.string().nullable() }),
});

export const fundHouse = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/house/deposits",
  summary: "Operator: credit real money the operator put in to the labelled house account",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    id: ClientOrderId,
    assetId: AssetId,
    amount: decimalString(18, { positive: true }),
    reference: z.string().min(1).max(200),
    reason: OperatorReason,
  }),
  response: z.object({ postingSeq: z.string() }),
  errors: ["asset_not_found", "amount_too_many_decimals"],
});

/*
 * Withdrawal address book (issue 16, spec tibidizhi / tibidizhiEdit, /api/credit/*withdrawaddress).
 * Real money only. A new or changed address can receive withdrawals only from `usableFromMs`.
 */

/** The chains of USDT withdrawals: Ethereum (1), BNB Smart Chain (56), Cronos (25). */
export const WithdrawNetwork = z.enum(["ethereum", "bsc", "cronos"]);
export type WithdrawNetwork = z.infer<typeof WithdrawNetwork>;

export const WithdrawAddressId = z.string().regex(/^[1-9]\d{0,15}$/);

export const WithdrawAddressView = z.object({
  addressId: z.string(),
  network: WithdrawNetwork,
  /** EIP-55 checksummed. */
  address: z.string(),
  remark: z.string(),
  /** Withdrawals to it are accepted from this time on (ms since epoch). */
  usableFromMs: z.number().int(),
  createdAtMs: z.number().int(),
});
export type WithdrawAddressView = z.infer<typeof WithdrawAddressView>;

/** An EVM address as typed: 0x and 40 hex digits (the checksum is checked by the server). */
const EvmAddressInput = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an 0x address");
const Remark = z.string().max(40);

export const listWithdrawAddresses = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/withdraw-addresses",
  summary: "The user's withdrawal address book",
  tag: "wallet",
  auth: "user",
  response: z.object({ items: z.array(WithdrawAddressView) }),
  errors: ["demo_withdraw_not_allowed"],
});

/** Added or edited: the address, and a warning when it looks like another one of the user's. */
const SavedAddress = z.object({
  address: WithdrawAddressView,
  /**
   * Another saved address with the same first and last four hex digits but different in the
   * middle: a sign of address poisoning. Null when there is none.
   */
  similarTo: WithdrawAddressView.nullable(),
});

export const addWithdrawAddress = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/withdraw-addresses",
  summary: "Save a withdrawal address (usable after the waiting period)",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({ network: WithdrawNetwork, address: EvmAddressInput, remark: Remark }),
  response: SavedAddress,
  errors: [
    "withdraw_address_invalid",
    "withdraw_address_exists",
    "withdraw_address_limit",
    "demo_withdraw_not_allowed",
  ],
});

export const editWithdrawAddress = defineEndpoint({
  method: "PUT",
  path: "/api/v1/wallet/withdraw-addresses/:addressId",
  summary: "Change a saved address's remark, network or address (a new address waits again)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ addressId: WithdrawAddressId }),
  body: z.strictObject({ network: WithdrawNetwork, address: EvmAddressInput, remark: Remark }),
  response: SavedAddress,
  errors: [
    "withdraw_address_not_found",
    "withdraw_address_invalid",
    "withdraw_address_exists",
    "demo_withdraw_not_allowed",
  ],
});

export const deleteWithdrawAddress = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/wallet/withdraw-addresses/:addressId",
  summary: "Delete a saved address",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ addressId: WithdrawAddressId }),
  response: z.object({ deleted: z.literal(true) }),
  errors: ["withdraw_address_not_found", "demo_withdraw_not_allowed"],
});

// Withdrawals (issue 16): to a saved address whose waiting period has passed, held at request,
// approved, sent and completed (or rejected/cancelled) by the operator.

export const WithdrawalStatus = z.enum([
  "pending",
  "approved",
  "sent",
  "completed",
  "rejected",
  "cancelled",
]);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

/** One step of a withdrawal's history: the state it entered, when, and who moved it. */
export const WithdrawalStepView = z.object({
  status: z.enum([
    "requested",
    "pending",
    "approved",
    "sent",
    "completed",
    "rejected",
    "cancelled",
  ]),
  /** The operator's id on operator steps; null on the user's own. */
  operatorId: z.string().nullable(),
  /** The transaction hash (sent) or the reason (rejected); null otherwise. */
  detail: z.string().nullable(),
  atMs: z.number().int(),
});

/** Where a withdrawal goes: a chain, or "bank" (a bound bank card). */
export const WithdrawalRoute = z.enum(["ethereum", "bsc", "cronos", "bank"]);
export type WithdrawalRoute = z.infer<typeof WithdrawalRoute>;

export const WithdrawalView = z.object({
  withdrawalId: z.string(),
  asset: z.string(),
  /** The chain, or "bank" for a withdrawal to a bound bank card. */
  network: WithdrawalRoute,
  /** The saved address's id, or the bank card's. */
  addressId: z.string(),
  /** The address, or the bank name and masked card number. */
  address: z.string(),
  /** The wallet the amount and fee are held on: "fund" (crypto) or "fiat" (bank card). */
  wallet: z.enum(["fund", "fiat"]),
  /** What leaves for the address (what the address receives). */
  amount: DecimalString,
  /** Held with the amount and paid to the fee account on completion. */
  fee: DecimalString,
  /** amount + fee: what leaves the fund wallet. */
  total: DecimalString,
  status: WithdrawalStatus,
  /** Approvals needed (2 above the configured amount) and those given so far. */
  approvalsRequired: z.number().int(),
  approvals: z.number().int(),
  /** The transaction hash, or the bank's payment reference for a bank-card withdrawal. */
  txHash: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** Postings of the completion (the payout and the fee); null before. */
  postingSeq: z.string().nullable(),
  requestedAtMs: z.number().int(),
  updatedAtMs: z.number().int(),
  steps: z.array(WithdrawalStepView),
});
export type WithdrawalView = z.infer<typeof WithdrawalView>;

export const WithdrawalId = z.string().regex(/^[1-9]\d{0,15}$/);

export const withdrawalOptions = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/withdrawals/options",
  summary: "Withdrawable assets and networks with their minimum and fee (shown before confirming)",
  tag: "wallet",
  auth: "user",
  response: z.object({
    items: z.array(
      z.object({
        asset: z.string(),
        network: WithdrawNetwork,
        minimum: DecimalString,
        fee: DecimalString,
        /** Above this amount two different operators must approve; null = never. */
        twoApprovalsAbove: DecimalString.nullable(),
      }),
    ),
    /** Withdrawals to a bound bank card, paid from the fiat wallet: minimum and fee per asset. */
    bank: z.array(
      z.object({
        asset: z.string(),
        minimum: DecimalString,
        fee: DecimalString,
        twoApprovalsAbove: DecimalString.nullable(),
      }),
    ),
  }),
});

/**
 * The body of a withdrawal request, to a saved address or to a bound bank card: only the
 * destination differs (`addressId` or `cardId`). `amount` is what the destination is to
 * receive; the fee is added on top.
 */
function withdrawalRequestBody<D extends z.ZodRawShape>(destination: D) {
  return z.strictObject({
    requestId: ClientOrderId,
    ...destination,
    asset: z.string().regex(/^[A-Z0-9]{1,16}$/),
    /** What the address or card is to receive; the fee is added on top. */
    amount: decimalString(18, { positive: true }),
    tradePassword: z.string().min(1).max(64),
    /** The authenticator code (or a recovery code), needed once two-factor sign-in is on. */
    totpCode: TwoFactorCode.optional(),
  });
}

/** The errors of a withdrawal request, with the destination's own ones after the sign-in checks. */
function withdrawalRequestErrors<const E extends readonly ErrorCode[]>(...destination: E) {
  return [
    "demo_withdraw_not_allowed",
    "identity_verification_required",
    "identity_advanced_required",
    "two_factor_required",
    "two_factor_invalid",
    ...destination,
    "withdraw_not_supported",
    "withdraw_below_minimum",
    "withdraw_daily_limit",
    "trade_password_not_set",
    "trade_password_invalid",
    "insufficient_balance",
    "asset_not_found",
    "amount_too_many_decimals",
    "rate_limited",
  ] as const;
}

export const requestWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/withdrawals",
  summary: "Request a withdrawal to a saved address: amount + fee are held until it completes",
  tag: "wallet",
  auth: "user",
  body: withdrawalRequestBody({ addressId: WithdrawAddressId }),
  response: WithdrawalView,
  errors: withdrawalRequestErrors("withdraw_address_not_found", "withdraw_address_locked"),
  description:
    "Only to an address of the user's address book whose waiting period has passed " +
    "(`withdraw_address_locked` says from when). Idempotent by `requestId`.",
});

export const withdrawalRecords = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/withdrawals",
  summary: "The user's withdrawals, newest first, with every state and time",
  tag: "wallet",
  auth: "user",
  query: PageQuery,
  response: z.object({ items: z.array(WithdrawalView), nextCursor: z.string().nullable() }),
  errors: ["demo_withdraw_not_allowed"],
});

export const withdrawalDetail = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/withdrawals/:withdrawalId",
  summary: "One of the user's withdrawals with its history",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ withdrawalId: WithdrawalId }),
  response: WithdrawalView,
  errors: ["withdrawal_not_found", "demo_withdraw_not_allowed"],
});

export const cancelWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/withdrawals/:withdrawalId/cancel",
  summary: "Cancel a withdrawal that has not been sent (the hold is released)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ withdrawalId: WithdrawalId }),
  response: WithdrawalView,
  errors: ["withdrawal_not_found", "withdrawal_state_invalid", "demo_withdraw_not_allowed"],
});

/*
 * Bank cards (issue 16, spec §3 "Bank card": cardholder name, bank name, branch, account or card
 * number). Real money only; a card receives withdrawals from the fiat wallet.
 */

export const BankCardId = z.string().regex(/^[1-9]\d{0,15}$/);

/** A bound card as lists show it: the number masked to its last four characters. */
export const BankCardView = z.object({
  cardId: z.string(),
  cardholder: z.string(),
  bankName: z.string(),
  branch: z.string(),
  /** "•••• 1234": never the whole number. */
  cardNumberMasked: z.string(),
  createdAtMs: z.number().int(),
});
export type BankCardView = z.infer<typeof BankCardView>;

const BankText = z.string().trim().min(1).max(100);

export const listBankCards = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/bank-cards",
  summary: "The user's bound bank cards (numbers masked)",
  tag: "wallet",
  auth: "user",
  response: z.object({ items: z.array(BankCardView) }),
  errors: ["demo_funds_not_allowed"],
});

export const addBankCard = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/bank-cards",
  summary: "Bind a bank card (cardholder, bank, branch, account or card number)",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    cardholder: BankText,
    bankName: BankText,
    branch: BankText,
    /** 8–34 digits, or an IBAN; spaces and hyphens allowed. */
    cardNumber: z.string().min(1).max(50),
  }),
  response: BankCardView,
  errors: ["bank_card_invalid", "bank_card_exists", "bank_card_limit", "demo_funds_not_allowed"],
  description:
    "A card or account number of 8–34 digits, or an IBAN whose check digits are right " +
    "(ISO 13616, mod 97). Stored without spaces; lists show the last four. At most 10 cards.",
});

export const deleteBankCard = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/wallet/bank-cards/:cardId",
  summary: "Unbind a bank card (pending withdrawals to it keep their payee)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ cardId: BankCardId }),
  response: z.object({ deleted: z.literal(true) }),
  errors: ["bank_card_not_found", "demo_funds_not_allowed"],
});

export const requestBankWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/withdrawals/bank",
  summary: "Request a withdrawal to a bound bank card from the fiat wallet (amount + fee held)",
  tag: "wallet",
  auth: "user",
  body: withdrawalRequestBody({ cardId: BankCardId }),
  response: WithdrawalView,
  errors: withdrawalRequestErrors("bank_card_not_found"),
  description: "Idempotent by `requestId`. The fiat wallet holds amount + fee until it completes.",
});

/** A bank-card withdrawal's payee as the operator pays it (the whole number). */
export const WithdrawalPayee = z.object({
  cardholder: z.string(),
  bankName: z.string(),
  branch: z.string(),
  cardNumber: z.string(),
});

/** An operator's view: the user's withdrawal and who asked for it. */
export const OperatorWithdrawalView = WithdrawalView.extend({
  userId: z.string(),
  /** The bank card's details for a bank-card withdrawal; null for an address. */
  payee: WithdrawalPayee.nullable(),
});

export const operatorWithdrawals = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/withdrawals",
  summary: "Operator: withdrawals in one state (pending by default), oldest first",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    status: WithdrawalStatus.default("pending"),
    limit: PageLimit,
  }),
  response: z.object({ items: z.array(OperatorWithdrawalView) }),
});

const OperatorWithdrawalParams = z.strictObject({ withdrawalId: WithdrawalId });
const operatorWithdrawalErrors = ["withdrawal_not_found", "withdrawal_state_invalid"] as const;

export const approveWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/approve",
  summary: "Operator: approve a pending withdrawal (a second, different operator above the limit)",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors, "withdrawal_same_operator"],
});

export const markWithdrawalSent = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/sent",
  summary: "Operator: record the transaction hash of an approved withdrawal's payout",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({
    txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 64 hex digits"),
    reason: OperatorReason,
  }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors],
});

export const markWithdrawalPaid = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/paid",
  summary: "Operator: record the bank's payment reference of an approved bank-card withdrawal",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({
    bankReference: z.string().trim().min(3).max(100),
    reason: OperatorReason,
  }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors],
  description:
    "The bank-card counterpart of `/sent`: the withdrawal moves approved → sent with the " +
    "reference; `/complete` then pays the held amount out of the fiat wallet.",
});

export const broadcastWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/broadcast",
  summary:
    "Operator: pay an approved withdrawal on chain from the hot wallet (an ERC-20 transfer of " +
    "exactly its amount); marked sent with the hash, completed by the watcher once confirmed",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors, "withdraw_not_supported"],
  description:
    "Only where the server holds a hot wallet (CHAIN_MODE=local). Repeating it re-broadcasts " +
    "the same signed transaction; a withdrawal is never signed twice.",
});

export const completeWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/complete",
  summary: "Operator: the payout is confirmed; the held amount leaves, the fee goes to fees",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors],
});

export const rejectWithdrawal = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/withdrawals/:withdrawalId/reject",
  summary: "Operator: reject a pending or approved withdrawal with a reason (hold released)",
  tag: "operator",
  auth: "operator",
  params: OperatorWithdrawalParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: OperatorWithdrawalView,
  errors: [...operatorWithdrawalErrors],
});

/*
 * Buy (issue 16, spec index/buy): crypto bought with the fiat wallet's balance at a
 * quick-exchange quote (tape price ± the disclosed spread, against the labelled house, with an
 * expiry). The crypto arrives in the fund wallet.
 */

export const buyOptions = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/buy/options",
  summary: "What can be bought, with what from the fiat wallet, at which tape price",
  tag: "wallet",
  auth: "user",
  response: z.object({
    /** The asset paid with, from the fiat wallet (USDT). */
    payAsset: z.string(),
    /** The fiat wallet's available balance of it. */
    available: DecimalString,
    spreadBps: z.number().int().nonnegative(),
    quoteTtlMs: z.number().int().positive(),
    counterparty: z.string(),
    items: z.array(
      z.object({
        asset: z.string(),
        instrumentId: z.string(),
        price: DecimalString.nullable(),
        tickId: z.string().nullable(),
      }),
    ),
  }),
});

export const requestBuyQuote = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/buy/quotes",
  summary: "Quote a buy: how much of the asset the amount from the fiat wallet buys, until when",
  tag: "wallet",
  auth: "user",
  body: z.strictObject({
    requestId: ClientOrderId,
    /** The asset to buy. */
    asset: AssetId,
    /** What to spend from the fiat wallet, in the pay asset. */
    amount: decimalString(18, { positive: true }),
  }),
  response: ExchangeQuoteView,
  errors: [
    "exchange_pair_unsupported",
    "exchange_amount_too_small",
    "house_insufficient",
    "reference_price_stale",
    "no_reference_price",
    "insufficient_balance",
    "too_many_quotes",
    "amount_too_many_decimals",
  ],
});

export const acceptBuyQuote = defineEndpoint({
  method: "POST",
  path: "/api/v1/wallet/buy/quotes/:quoteId/accept",
  summary: "Buy exactly as quoted, paid from the fiat wallet (before the quote's expiry)",
  tag: "wallet",
  auth: "user",
  params: z.strictObject({ quoteId: QuoteId }),
  response: ExchangeRecordView,
  errors: ["quote_expired", "quote_not_found", "insufficient_balance", "house_insufficient"],
  description:
    "The payment moves fiat → fund wallet and the exchange executes against the house; if the " +
    "exchange is refused the payment moves back. Both moves are in the statement.",
});
