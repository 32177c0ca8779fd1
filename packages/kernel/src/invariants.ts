// Invariants that must hold after every command. A failure is a bug: it throws.

import { checkLedgerBalances, checkLedgerHolds } from "./ledger/module.ts";
import type { KernelState } from "./state.ts";

/**
 * Checks the whole state: for every asset (per mode) the balances of all accounts, external
 * clearing and the demo faucet included, sum to zero; no available balance is negative except
 * external clearing and the demo faucet, and no held balance is; each module's own invariants
 * hold (spot: every open order rests in its book with the lots and hold the kernel expects, and
 * the books hold nothing else); and every account's held balance is exactly what the modules
 * expect it to hold (open orders, pending withdrawals). Throws `AssertionError`.
 */
export function checkInvariants(state: KernelState): void {
  checkLedgerBalances(state);
  for (const module of state.modules) module.checkInvariants?.(state);
  checkLedgerHolds(state);
}
