// Funds: opening accounts, demo grants and resets, deposits, withdrawals and transfers.

import type { CancelledValue, CommandBase, Mode, NoValue, PostingValue, Wallet } from "../types.ts";

/**
 * Opens an owner's accounts in one mode. Opening demo accounts also grants
 * `KernelOptions.demoGrants` from the demo faucet. Rejected with `accounts_already_open` twice.
 */
export interface OpenAccountsCommand extends CommandBase {
  type: "open_accounts";
  /** The user id (decimal digits, e.g. "100001"). System owners are always open. */
  ownerId: string;
  mode: Mode;
}

/**
 * Resets a demo owner: cancels every demo order, returns every demo balance to the demo faucet,
 * then grants `KernelOptions.demoGrants` again. `mode` must be "demo" (`real_not_allowed`).
 */
export interface ResetDemoCommand extends CommandBase {
  type: "reset_demo";
  ownerId: string;
  mode: Mode;
}

/** Moves demo money from the demo faucet to a demo fund account. `mode` must be "demo". */
export interface GrantDemoCommand extends CommandBase {
  type: "grant_demo";
  ownerId: string;
  mode: Mode;
  assetId: string;
  /** Smallest units, positive. */
  amount: bigint;
}

/** Credits a deposit: external clearing → the owner's fund wallet. Real mode only. */
export interface CreditDepositCommand extends CommandBase {
  type: "credit_deposit";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  /** Chain transaction or bank reference (1–200 characters). */
  reference: string;
  /** Operator who credited it, when it was a manual credit. */
  operatorId: string | null;
}

/** Holds funds of the fund wallet for a withdrawal (available → held). Real mode only. */
export interface WithdrawalHoldCommand extends CommandBase {
  type: "withdrawal_hold";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  /** Unique withdrawal id chosen by the server. */
  withdrawalId: string;
}

/**
 * `withdrawal_hold` with a fee: holds `amount + fee`. On completion `amount` goes to external
 * clearing and `fee` to `system:fees` (reason `withdrawal_fee`); a cancel releases both.
 */
export interface WithdrawalHoldFeeCommand extends CommandBase {
  type: "withdrawal_hold_fee";
  ownerId: string;
  mode: Mode;
  assetId: string;
  /** What leaves for the destination address. */
  amount: bigint;
  /** What the withdrawal costs, paid to `system:fees` on completion; may be 0. */
  fee: bigint;
  withdrawalId: string;
}

/**
 * `withdrawal_hold_fee` from a named wallet: holds `amount + fee` of the owner's `wallet`
 * ("fund" or "fiat"; a bank-card withdrawal is paid from the fiat wallet). Completion and
 * cancel work on the held account as for any withdrawal. Real mode only.
 */
export interface WithdrawalHoldWalletCommand extends CommandBase {
  type: "withdrawal_hold_wallet";
  ownerId: string;
  mode: Mode;
  /** "fund" or "fiat" (`wallet_invalid` for "contract": margin has its own rules). */
  wallet: Wallet;
  assetId: string;
  amount: bigint;
  fee: bigint;
  withdrawalId: string;
}

/** Pays a held withdrawal out: the owner's held funds → external clearing (fee → system:fees). */
export interface WithdrawalCompleteCommand extends CommandBase {
  type: "withdrawal_complete";
  withdrawalId: string;
  /** Chain transaction or bank reference of the payout. */
  reference: string;
  operatorId: string | null;
}

/** Releases a held withdrawal back to available. */
export interface WithdrawalCancelCommand extends CommandBase {
  type: "withdrawal_cancel";
  withdrawalId: string;
  operatorId: string | null;
}

/** Moves available funds between two wallets of the same owner and mode. */
export interface TransferWalletCommand extends CommandBase {
  type: "transfer_wallet";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  sourceWallet: Wallet;
  targetWallet: Wallet;
}

/** Moves available funds from one user's fund wallet to another's. Real mode only. */
export interface TransferUserCommand extends CommandBase {
  type: "transfer_user";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  targetOwnerId: string;
}

/**
 * Asks for a quick-exchange quote: the kernel prices it from the last tick of the market that
 * joins the two assets (base/quote either way round) ± `spreadBps`, and keeps it until
 * `atMs + ttlMs`. The quote's id is the command id. The labelled house (`system:house`) is the
 * counterparty and must hold the amount the user would receive (`house_insufficient`).
 */
export interface ExchangeQuoteCommand extends CommandBase {
  type: "exchange_quote";
  ownerId: string;
  mode: Mode;
  /** What the user gives, from the fund wallet. */
  sourceAssetId: string;
  /** Smallest units of the source asset, positive. */
  sourceAmount: bigint;
  /** What the user receives, into the fund wallet. */
  targetAssetId: string;
  /** Disclosed spread against the tape price, basis points, 0–1,000. */
  spreadBps: number;
  /** How long the quote stands, ms, 1,000–60,000. */
  ttlMs: number;
  /** The tick may be at most this old (command time − tick time), ms, 1–3,600,000. */
  tickAgeMaxMs: number;
}

/** Executes a standing quote exactly as quoted; after its expiry: `quote_expired`. */
export interface ExchangeAcceptCommand extends CommandBase {
  type: "exchange_accept";
  ownerId: string;
  mode: Mode;
  /** The id of the `exchange_quote` command. */
  quoteId: string;
}

/** A standing quick-exchange quote, as the kernel priced it. */
export interface ExchangeQuoteView {
  quoteId: string;
  ownerId: string;
  mode: Mode;
  sourceAssetId: string;
  sourceAmount: bigint;
  targetAssetId: string;
  /** What the user receives, smallest units (rounded down: the house never gives more). */
  targetAmount: bigint;
  marketId: string;
  instrumentId: string;
  /** The tape tick the price came from, and that price (quote per base, decimal string). */
  tickId: string;
  price: string;
  spreadBps: number;
  /** "sell": the user gives the market's base; "buy": the user gives its quote. */
  side: "buy" | "sell";
  quotedAtMs: number;
  expiresAtMs: number;
}

export interface ExchangeQuotedEvent {
  type: "exchange_quoted";
  quote: ExchangeQuoteView;
}

/** A quote executed: two postings (user → house, house → user) at the quoted amounts. */
export interface ExchangeExecutedEvent {
  type: "exchange_executed";
  quote: ExchangeQuoteView;
  /** Posting sequence numbers of the user's payment and of the house's delivery. */
  paymentPostingSeq: number;
  deliveryPostingSeq: number;
  atMs: number;
}

/** A pending or finished withdrawal. */
export interface WithdrawalView {
  withdrawalId: string;
  ownerId: string;
  assetId: string;
  amount: bigint;
  /** Held with the amount, paid to `system:fees` on completion; absent when there is none. */
  fee?: bigint;
  status: "pending" | "completed" | "cancelled";
  reference: string | null;
}

export interface AccountsOpenedEvent {
  type: "accounts_opened";
  ownerId: string;
  mode: Mode;
}

export interface DemoResetEvent {
  type: "demo_reset";
  ownerId: string;
}

export interface WithdrawalChangedEvent {
  type: "withdrawal_changed";
  withdrawal: WithdrawalView;
}

declare module "../types.ts" {
  interface CommandMap {
    open_accounts: OpenAccountsCommand;
    reset_demo: ResetDemoCommand;
    grant_demo: GrantDemoCommand;
    credit_deposit: CreditDepositCommand;
    withdrawal_hold: WithdrawalHoldCommand;
    withdrawal_hold_fee: WithdrawalHoldFeeCommand;
    withdrawal_hold_wallet: WithdrawalHoldWalletCommand;
    withdrawal_complete: WithdrawalCompleteCommand;
    withdrawal_cancel: WithdrawalCancelCommand;
    transfer_wallet: TransferWalletCommand;
    transfer_user: TransferUserCommand;
    exchange_quote: ExchangeQuoteCommand;
    exchange_accept: ExchangeAcceptCommand;
  }
  interface ResultMap {
    open_accounts: NoValue;
    reset_demo: CancelledValue;
    grant_demo: PostingValue;
    credit_deposit: PostingValue;
    withdrawal_hold: NoValue;
    withdrawal_hold_fee: NoValue;
    withdrawal_hold_wallet: NoValue;
    withdrawal_complete: PostingValue;
    withdrawal_cancel: NoValue;
    transfer_wallet: PostingValue;
    transfer_user: PostingValue;
    exchange_quote: NoValue;
    exchange_accept: PostingValue;
  }
  interface EventMap {
    accounts_opened: AccountsOpenedEvent;
    demo_reset: DemoResetEvent;
    withdrawal_changed: WithdrawalChangedEvent;
    exchange_quoted: ExchangeQuotedEvent;
    exchange_executed: ExchangeExecutedEvent;
  }
}
