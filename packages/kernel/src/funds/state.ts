// The funds' slice of kernel state: withdrawals, pending and finished, and standing
// quick-exchange quotes.

import type { Account } from "../ledger/state.ts";
import type { ExchangeQuoteView } from "./types.ts";

export interface WithdrawalState {
  withdrawalId: string;
  account: Account;
  amount: bigint;
  /** Held with the amount, paid to `system:fees` on completion; 0 for `withdrawal_hold`. */
  fee: bigint;
  status: "pending" | "completed" | "cancelled";
  reference: string | null;
}

/** A standing quote: the view the user saw; it holds nothing (the accept checks balances). */
export type ExchangeQuoteState = ExchangeQuoteView;

/** The funds' slice: `state.funds`. */
export interface FundsState {
  withdrawals: Map<string, WithdrawalState>;
  /** Standing quotes by quote id (the quote command's id), in the order they were made. */
  quotes: Map<string, ExchangeQuoteState>;
  /** Standing quotes per owner (`mode|ownerId`), to bound them. */
  quotesPerOwner: Map<string, number>;
}

export function createFundsState(): FundsState {
  return { withdrawals: new Map(), quotes: new Map(), quotesPerOwner: new Map() };
}
