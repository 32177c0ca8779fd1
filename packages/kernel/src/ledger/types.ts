// The ledger's public vocabulary: postings, balances and the two events every money movement
// reports. Part of the kernel itself, not a product.

import type { Mode, Wallet } from "../types.ts";

/** Why a posting was made. Append-only. */
export type PostingReason =
  | "deposit"
  | "withdrawal"
  | "withdrawal_fee"
  | "transfer_wallet"
  | "transfer_user"
  | "demo_grant"
  | "demo_reset"
  | "trade"
  | "fee_maker"
  | "fee_taker"
  | "exchange"
  | "perp_realised"
  | "perp_fee"
  | "perp_liquidation_fee"
  | "perp_funding"
  | "perp_insurance_cover"
  | "seconds_stake"
  | "seconds_stake_return"
  | "seconds_stake_lost"
  | "seconds_payout"
  | "savings_yield_funding"
  | "savings_principal"
  | "savings_interest_reserve"
  | "savings_interest"
  | "savings_principal_return"
  | "savings_interest_forfeit"
  | "savings_early_penalty"
  | "stock_trade"
  | "stock_commission"
  | "stock_stamp_duty"
  | "loans_pool_funding"
  | "loans_principal"
  | "loans_repayment"
  | "loans_liquidation"
  | "referral_rebate"
  | "agent_rebate"
  | "activity_funding"
  | "activity_reserve"
  | "activity_release"
  | "activity_bonus";

/**
 * One balanced movement of `amount` of `assetId`: the debit account loses it, the credit
 * account gains it. `debitHeld` says whether it came out of the debit account's held balance.
 */
export interface Posting {
  /** Sequence number, 1, 2, 3, … over the whole kernel. */
  seq: number;
  /** Account keys, see `accountKey`. */
  debitAccount: string;
  creditAccount: string;
  assetId: string;
  /** Smallest units, positive. */
  amount: bigint;
  debitHeld: boolean;
  reason: PostingReason;
  commandId: string;
  atMs: number;
  orderId: number | null;
  fillId: number | null;
  tickId: string | null;
  operatorId: string | null;
  /** Deposit/withdrawal reference, withdrawal id, or the counterparty of a transfer. */
  reference: string | null;
}

/** One account's balances. */
export interface AccountBalance {
  /** `owner|mode|wallet|asset`. */
  account: string;
  ownerId: string;
  mode: Mode;
  wallet: Wallet;
  assetId: string;
  /** Smallest units; never negative except for `system:external` and `system:demo_faucet`. */
  available: bigint;
  /** Reserved for open orders and pending withdrawals. */
  held: bigint;
}

export interface PostingEvent {
  type: "posting";
  posting: Posting;
}

/** Balances of every account this command touched, after it. */
export interface BalancesChangedEvent {
  type: "balances_changed";
  balances: AccountBalance[];
}
