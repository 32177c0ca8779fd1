// The savings system accounts, opened on first use so that kernels which never used savings
// keep their snapshots (and state hashes) unchanged. Each is the fund wallet of its own
// labelled system owner, per mode and asset:
//   system:savings_yield      the operator's funded yield account (unreserved interest money)
//   system:savings_reserve    promised, unpaid interest of active subscriptions
//   system:savings_principal  principal of active subscriptions (the plans' account)

import { accountOf, ownerOf, openOwner } from "../ledger/accounts.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";

export const savingsOwners = {
  yield: "system:savings_yield",
  reserve: "system:savings_reserve",
  principal: "system:savings_principal",
} as const;

export type SavingsAccountName = keyof typeof savingsOwners;

function savingsOwner(state: KernelState, mode: Mode, name: SavingsAccountName): OwnerState {
  return ownerOf(state, mode, savingsOwners[name]) ?? openOwner(state, savingsOwners[name], mode);
}

/** A savings account (opened, at zero, on first use). */
export function savingsAccount(
  state: KernelState,
  mode: Mode,
  name: SavingsAccountName,
  assetId: string,
): Account {
  return accountOf(state, savingsOwner(state, mode, name), "fund", assetId);
}

/** A savings account's available balance without opening anything (zero if never used). */
export function savingsBalance(
  state: KernelState,
  mode: Mode,
  name: SavingsAccountName,
  assetId: string,
): bigint {
  return ownerOf(state, mode, savingsOwners[name])?.fund.get(assetId)?.available ?? 0n;
}
