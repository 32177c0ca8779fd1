// Invariants of the reference model, as functions the property tests (and later the kernel's
// own invariant checks) call after every command.

import type { RefState } from "./reference-state.ts";
import { isSystem, poolEquity } from "./reference-state.ts";

/** Σ long lots and Σ short lots (as a positive number) over every account. */
export function openInterest(state: RefState): { longLots: bigint; shortLots: bigint } {
  let longLots = 0n;
  let shortLots = 0n;
  for (const account of state.accounts.values()) {
    const size = account.position.sizeLots;
    if (size > 0n) longLots += size;
    else shortLots -= size;
  }
  return { longLots, shortLots };
}

/** Every balance that holds money: wallets, isolated margins, fees, remainder, clearing. */
export function moneyTotal(state: RefState): bigint {
  let total = state.fees + state.fundingRemainder + state.clearing;
  for (const account of state.accounts.values()) total += account.wallet + account.isolatedMargin;
  return total;
}

/** Σ signed entry cost: long positions count their cost, short positions minus theirs. */
export function signedEntryCost(state: RefState): bigint {
  let total = 0n;
  for (const account of state.accounts.values()) {
    const { sizeLots, entryCost } = account.position;
    total += sizeLots > 0n ? entryCost : sizeLots < 0n ? -entryCost : 0n;
  }
  return total;
}

/**
 * Every broken invariant, as sentences; empty when all hold:
 * - open interest long = short;
 * - money is conserved: wallets + isolated margins (users and insurance fund) + fees +
 *   funding remainder + clearing = deposits − withdrawals;
 * - clearing = −Σ signed entry cost (it holds exactly what open positions owe each other);
 * - no user's position equity is below zero at the mark, and no flat user has negative cash,
 *   isolated margin or wallet (negative-balance protection);
 * - isolated-margin accounts never have a negative wallet; flat positions hold no margin and
 *   no cost.
 */
export function referenceViolations(state: RefState): string[] {
  const violations: string[] = [];
  const interest = openInterest(state);
  if (interest.longLots !== interest.shortLots) {
    violations.push(`open interest long ${interest.longLots} ≠ short ${interest.shortLots}`);
  }
  const total = moneyTotal(state);
  if (total !== state.netDeposits) {
    violations.push(`money ${total} ≠ net deposits ${state.netDeposits}`);
  }
  const cost = signedEntryCost(state);
  if (state.clearing !== -cost) {
    violations.push(`clearing ${state.clearing} ≠ −Σ signed entry cost ${-cost}`);
  }
  for (const account of state.accounts.values()) {
    const id = account.ownerId;
    const flat = account.position.sizeLots === 0n;
    if (flat && (account.position.entryCost !== 0n || account.isolatedMargin !== 0n)) {
      violations.push(`${id} is flat but keeps cost or margin`);
    }
    if (isSystem(id)) continue;
    if (account.marginMode === "isolated" && account.wallet < 0n) {
      violations.push(`${id} isolated wallet ${account.wallet} < 0`);
    }
    if (flat && account.wallet < 0n) violations.push(`${id} flat wallet ${account.wallet} < 0`);
    if (!flat && state.mark !== null && poolEquity(state, account) < 0n) {
      violations.push(`${id} equity ${poolEquity(state, account)} < 0`);
    }
  }
  return violations;
}
