// The savings slice of kernel state: plans, active subscriptions and counters. Ended
// subscriptions leave the kernel (their `savings_subscription_ended` event is the record the
// server projects); the counters remember them, so "ended exactly once" can be checked.

import type { SavingsPlanView, SavingsSubscriptionView } from "./types.ts";

export type SavingsPlanState = SavingsPlanView;

/** An active subscription, with its order `seq`. */
export interface SavingsSubscriptionState extends SavingsSubscriptionView {
  seq: number;
}

/** The slice: `state.savings`. */
export interface SavingsState {
  plans: Map<string, SavingsPlanState>;
  /** Active subscriptions by id, in subscription order. */
  active: Map<string, SavingsSubscriptionState>;
  /** Active subscriptions per owner (`mode|ownerId`), to bound them. */
  activePerOwner: Map<string, number>;
  /** Principal of active subscriptions per plan and mode (`mode|planId`). */
  subscribed: Map<string, bigint>;
  /** Promised unpaid interest of active subscriptions per plan and mode (`mode|planId`). */
  reserved: Map<string, bigint>;
  subscribedCount: number;
  endedCount: number;
  seqNext: number;
}

export function createSavingsState(): SavingsState {
  return {
    plans: new Map(),
    active: new Map(),
    activePerOwner: new Map(),
    subscribed: new Map(),
    reserved: new Map(),
    subscribedCount: 0,
    endedCount: 0,
    seqNext: 1,
  };
}
