// Queries of the savings product: what the server reads to answer requests.

import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { savingsBalance } from "./accounts.ts";
import { planStatus, subscriptionView } from "./subscriptions.ts";
import type { SavingsPlanStatusView, SavingsPlanView, SavingsSubscriptionView } from "./types.ts";

/** Every defined plan, by id. */
export function getSavingsPlans(state: KernelState): SavingsPlanView[] {
  return [...state.savings.plans.values()]
    .map((p) => ({ ...p }))
    .sort((a, b) => (a.planId < b.planId ? -1 : a.planId > b.planId ? 1 : 0));
}

/** One plan's standing in a mode (subscribed, reserved, yield left, sold out), or undefined. */
export function getSavingsPlanStatus(
  state: KernelState,
  planId: string,
  mode: Mode,
): SavingsPlanStatusView | undefined {
  const plan = state.savings.plans.get(planId);
  return plan === undefined ? undefined : planStatus(state, plan, mode);
}

/** An owner's active subscriptions in one mode, newest first. */
export function getSavingsActiveSubscriptions(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): SavingsSubscriptionView[] {
  const out: SavingsSubscriptionView[] = [];
  for (const s of state.savings.active.values()) {
    if (s.ownerId === ownerId && s.mode === mode) out.push(subscriptionView(s));
  }
  return out.reverse();
}

/** An active subscription by id, or undefined. */
export function getSavingsSubscription(
  state: KernelState,
  subscriptionId: string,
): SavingsSubscriptionView | undefined {
  const s = state.savings.active.get(subscriptionId);
  return s === undefined ? undefined : subscriptionView(s);
}

/** The yield account's available balance (unreserved) in a mode and asset. */
export function getSavingsYieldAvailable(state: KernelState, mode: Mode, assetId: string): bigint {
  return savingsBalance(state, mode, "yield", assetId);
}
