// Subscriptions: subscribe (principal in, the whole promise reserved in the same command),
// daily payouts and maturity by scheduled entries, early redemption, and demo reset. Every
// payout comes out of the reserve that the subscription itself filled; nothing else pays it.

import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { accountOf, availableOf, findOwner, ownerOf } from "../ledger/accounts.ts";
import { amountCode, post } from "../ledger/post.ts";
import { ownerKey, type OwnerState } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { scheduleEntry, type ScheduledEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { savingsAccount, savingsBalance } from "./accounts.ts";
import { DAY_MS, interestOfDay, interestTotalOf, penaltyOf } from "./math.ts";
import type { SavingsPlanState, SavingsSubscriptionState } from "./state.ts";
import type { SavingsEndReason, SavingsPlanStatusView, SavingsSubscriptionView } from "./types.ts";

/** Most active subscriptions per owner and mode. */
export const ACTIVE_SUBSCRIPTIONS_PER_OWNER_MAX = 100;
/** The schedule entry kind: pay day `k` (and at the last day, return the principal). */
export const PAYOUT_KIND = "payout";

export function planKey(mode: Mode, planId: string): string {
  return mode + "|" + planId;
}

export function subscriptionView(subscription: SavingsSubscriptionState): SavingsSubscriptionView {
  const { seq: _seq, ...view } = subscription;
  return view;
}

function addTo(map: Map<string, bigint>, key: string, delta: bigint): void {
  const next = (map.get(key) ?? 0n) + delta;
  assert(next >= 0n, "a savings total went negative");
  if (next === 0n) map.delete(key);
  else map.set(key, next);
}

/** Lists an active subscription in every index (subscribe, and snapshot restore). */
export function addActive(state: KernelState, subscription: SavingsSubscriptionState): void {
  const savings = state.savings;
  savings.active.set(subscription.subscriptionId, subscription);
  const owner = ownerKey(subscription.mode, subscription.ownerId);
  savings.activePerOwner.set(owner, (savings.activePerOwner.get(owner) ?? 0) + 1);
  const key = planKey(subscription.mode, subscription.planId);
  addTo(savings.subscribed, key, subscription.amount);
  addTo(savings.reserved, key, subscription.interestTotal - subscription.interestPaid);
}

function removeActive(state: KernelState, subscription: SavingsSubscriptionState): void {
  const savings = state.savings;
  savings.active.delete(subscription.subscriptionId);
  const owner = ownerKey(subscription.mode, subscription.ownerId);
  const count = (savings.activePerOwner.get(owner) ?? 1) - 1;
  if (count > 0) savings.activePerOwner.set(owner, count);
  else savings.activePerOwner.delete(owner);
  const key = planKey(subscription.mode, subscription.planId);
  addTo(savings.subscribed, key, -subscription.amount);
  addTo(savings.reserved, key, -(subscription.interestTotal - subscription.interestPaid));
}

/** A plan's standing in one mode. */
export function planStatus(
  state: KernelState,
  plan: SavingsPlanState,
  mode: Mode,
): SavingsPlanStatusView {
  const key = planKey(mode, plan.planId);
  const subscribed = state.savings.subscribed.get(key) ?? 0n;
  const yieldAvailable = savingsBalance(state, mode, "yield", plan.assetId);
  const capacityLeft = plan.capacity > subscribed ? plan.capacity - subscribed : 0n;
  const minimumInterest = interestTotalOf(plan.amountMin, plan.dailyRateE8, plan.cycleDays);
  return {
    planId: plan.planId,
    mode,
    subscribed,
    reserved: state.savings.reserved.get(key) ?? 0n,
    reserveTotal: savingsBalance(state, mode, "reserve", plan.assetId),
    yieldAvailable,
    capacityLeft,
    soldOut: capacityLeft < plan.amountMin || yieldAvailable < minimumInterest,
  };
}

export const savingsSubscribe: Handler<"savings_subscribe"> = (state, command) => {
  const savings = state.savings;
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const plan = savings.plans.get(command.planId);
  if (plan === undefined) return fail("savings_plan_not_found");
  if (!plan.open) return fail("savings_plan_closed");
  const asset = state.reference.assets.get(plan.assetId);
  assert(asset !== undefined, "a plan's asset is defined");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.amount < plan.amountMin) return fail("savings_amount_below_minimum");
  if (command.amount > plan.amountMax) return fail("savings_amount_above_maximum");
  if (command.amount % plan.amountStep !== 0n) return fail("savings_amount_not_on_step");
  const interestTotal = interestTotalOf(command.amount, plan.dailyRateE8, plan.cycleDays);
  if (interestTotal <= 0n) return fail("savings_amount_below_minimum");
  if ((savings.activePerOwner.get(owner.key) ?? 0) >= ACTIVE_SUBSCRIPTIONS_PER_OWNER_MAX) {
    return fail("too_many_savings_subscriptions");
  }
  if (savings.active.has(command.id)) return fail("savings_subscription_exists");
  const subscribed = savings.subscribed.get(planKey(owner.mode, plan.planId)) ?? 0n;
  if (subscribed + command.amount > plan.capacity) return fail("savings_capacity_full");
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  // The promise is made only if the yield account can reserve all of it now.
  if (savingsBalance(state, owner.mode, "yield", asset.assetId) < interestTotal) {
    return fail("savings_yield_insufficient");
  }

  const refs = { reference: command.id };
  post(state, {
    debit: accountOf(state, owner, "fund", asset.assetId),
    credit: savingsAccount(state, owner.mode, "principal", asset.assetId),
    amount: command.amount,
    reason: "savings_principal",
    refs,
  });
  post(state, {
    debit: savingsAccount(state, owner.mode, "yield", asset.assetId),
    credit: savingsAccount(state, owner.mode, "reserve", asset.assetId),
    amount: interestTotal,
    reason: "savings_interest_reserve",
    refs,
  });
  const startMs = command.atMs + plan.startDelayMs;
  const subscription: SavingsSubscriptionState = {
    subscriptionId: command.id,
    ownerId: owner.ownerId,
    mode: owner.mode,
    planId: plan.planId,
    kind: plan.kind,
    assetId: asset.assetId,
    amount: command.amount,
    cycleDays: plan.cycleDays,
    dailyRateE8: plan.dailyRateE8,
    subscribedAtMs: command.atMs,
    startMs,
    maturityMs: startMs + plan.cycleDays * DAY_MS,
    interestTotal,
    interestPaid: 0n,
    paidDays: 0,
    earlyRedemption: plan.earlyRedemption,
    earlyPenaltyBps: plan.earlyPenaltyBps,
    status: "active",
    endedAtMs: null,
    endReason: null,
    principalReturned: null,
    interestForfeited: null,
    penalty: null,
    seq: savings.seqNext++,
  };
  addActive(state, subscription);
  savings.subscribedCount++;
  schedulePayout(state, subscription);
  emit(state, { type: "savings_subscribed", subscription: subscriptionView(subscription) });
  return DONE;
};

function schedulePayout(state: KernelState, subscription: SavingsSubscriptionState): void {
  const day = subscription.paidDays + 1;
  scheduleEntry(state, {
    dueMs: subscription.startMs + day * DAY_MS,
    module: "savings",
    kind: PAYOUT_KIND,
    // The seq too: a subscription id may come again once the first one has long ended.
    payload: [subscription.subscriptionId, subscription.seq, day],
  });
}

function ownerOfSubscription(state: KernelState, s: SavingsSubscriptionState): OwnerState {
  const owner = ownerOf(state, s.mode, s.ownerId);
  assert(owner !== undefined, "a subscription's owner exists");
  return owner;
}

/** Ends an active subscription: principal back (less a penalty), unpaid interest forfeited. */
function end(
  state: KernelState,
  subscription: SavingsSubscriptionState,
  reason: SavingsEndReason,
): void {
  assert(state.savings.active.get(subscription.subscriptionId) === subscription, "ends once");
  const owner = ownerOfSubscription(state, subscription);
  const { mode, assetId } = subscription;
  const userFund = accountOf(state, owner, "fund", assetId);
  const refs = { reference: subscription.subscriptionId };
  const unpaid = subscription.interestTotal - subscription.interestPaid;
  assert(reason !== "matured" || unpaid === 0n, "a matured subscription was paid in full");
  const penalty =
    reason === "early" ? penaltyOf(subscription.amount, subscription.earlyPenaltyBps) : 0n;
  // Counted before the postings: the indices subtract what the subscription still reserves.
  removeActive(state, subscription);
  if (unpaid > 0n) {
    post(state, {
      debit: savingsAccount(state, mode, "reserve", assetId),
      credit: savingsAccount(state, mode, "yield", assetId),
      amount: unpaid,
      reason: "savings_interest_forfeit",
      refs,
    });
  }
  const principal = savingsAccount(state, mode, "principal", assetId);
  if (penalty > 0n) {
    post(state, {
      debit: principal,
      credit: savingsAccount(state, mode, "yield", assetId),
      amount: penalty,
      reason: "savings_early_penalty",
      refs,
    });
  }
  const returned = subscription.amount - penalty;
  if (returned > 0n) {
    post(state, {
      debit: principal,
      credit: userFund,
      amount: returned,
      reason: "savings_principal_return",
      refs,
    });
  }
  subscription.status = reason === "matured" ? "ended" : "early_redeemed";
  subscription.endedAtMs = state.nowMs;
  subscription.endReason = reason;
  subscription.principalReturned = returned;
  subscription.interestForfeited = unpaid;
  subscription.penalty = penalty;
  state.savings.endedCount++;
  emit(state, { type: "savings_subscription_ended", subscription: subscriptionView(subscription) });
}

export const savingsRedeemEarly: Handler<"savings_redeem_early"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  const subscription = state.savings.active.get(command.subscriptionId);
  if (
    subscription === undefined ||
    subscription.ownerId !== owner.ownerId ||
    subscription.mode !== owner.mode
  ) {
    return fail("savings_subscription_not_found");
  }
  if (subscription.earlyRedemption === "none") return fail("savings_early_redemption_not_allowed");
  end(state, subscription, "early");
  return DONE;
};

/** The schedule: pays one day's interest from the reserve; the last day returns the principal. */
export function runPayout(state: KernelState, entry: ScheduledEntry): void {
  assert(entry.kind === PAYOUT_KIND, "unknown savings schedule entry");
  const [subscriptionId, seq, day] = entry.payload as [string, number, number];
  const subscription = state.savings.active.get(subscriptionId);
  // Redeemed early (or reset) since: nothing to do.
  if (subscription === undefined || subscription.seq !== seq) return;
  assert(day === subscription.paidDays + 1, "savings payouts run in day order");
  const amount = interestOfDay(subscription.interestTotal, day, subscription.cycleDays);
  if (amount > 0n) {
    const owner = ownerOfSubscription(state, subscription);
    post(state, {
      debit: savingsAccount(state, subscription.mode, "reserve", subscription.assetId),
      credit: accountOf(state, owner, "fund", subscription.assetId),
      amount,
      reason: "savings_interest",
      refs: { reference: subscription.subscriptionId },
    });
  }
  subscription.paidDays = day;
  subscription.interestPaid += amount;
  const key = planKey(subscription.mode, subscription.planId);
  if (amount > 0n) addTo(state.savings.reserved, key, -amount);
  emit(state, {
    type: "savings_interest_paid",
    subscription: subscriptionView(subscription),
    day,
    amount,
  });
  if (day === subscription.cycleDays) end(state, subscription, "matured");
  else schedulePayout(state, subscription);
}

/** reset_demo: the owner's demo subscriptions end at once, principal back, no penalty. */
export function resetDemoSubscriptions(state: KernelState, owner: OwnerState): number {
  const mine = [...state.savings.active.values()]
    .filter((s) => s.mode === owner.mode && s.ownerId === owner.ownerId)
    .sort((a, b) => a.seq - b.seq);
  for (const subscription of mine) end(state, subscription, "demo_reset");
  return 0;
}
