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

/** Pays a held withdrawal out: the owner's held funds → external clearing. */
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

/** A pending or finished withdrawal. */
export interface WithdrawalView {
  withdrawalId: string;
  ownerId: string;
  assetId: string;
  amount: bigint;
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
    withdrawal_complete: WithdrawalCompleteCommand;
    withdrawal_cancel: WithdrawalCancelCommand;
    transfer_wallet: TransferWalletCommand;
    transfer_user: TransferUserCommand;
  }
  interface ResultMap {
    open_accounts: NoValue;
    reset_demo: CancelledValue;
    grant_demo: PostingValue;
    credit_deposit: PostingValue;
    withdrawal_hold: NoValue;
    withdrawal_complete: PostingValue;
    withdrawal_cancel: NoValue;
    transfer_wallet: PostingValue;
    transfer_user: PostingValue;
  }
  interface EventMap {
    accounts_opened: AccountsOpenedEvent;
    demo_reset: DemoResetEvent;
    withdrawal_changed: WithdrawalChangedEvent;
  }
}
