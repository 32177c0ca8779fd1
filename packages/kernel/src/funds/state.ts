// The funds' slice of kernel state: withdrawals, pending and finished.

import type { Account } from "../ledger/state.ts";

export interface WithdrawalState {
  withdrawalId: string;
  account: Account;
  amount: bigint;
  status: "pending" | "completed" | "cancelled";
  reference: string | null;
}

/** The funds' slice: `state.funds`. */
export interface FundsState {
  withdrawals: Map<string, WithdrawalState>;
}

export function createFundsState(): FundsState {
  return { withdrawals: new Map() };
}
