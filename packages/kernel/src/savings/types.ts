// Savings plans (managed funds) and mining-yield products: commands, views and events.
//
// One rule: a promise exists only if its money is reserved when it is made. Subscribing moves
// the principal into the savings principal account and, in the same command, the whole cycle's
// promised interest from the operator's funded yield account into the reserve. If the yield
// account cannot cover it, or the plan's capacity is full, the subscription is refused ("sold
// out"). Daily payouts come out of the reserve by scheduled entries; at maturity the principal
// returns. Nothing is paid from other users' principal.

import type { CommandBase, Mode, NoValue } from "../types.ts";

/** A savings plan or a mining-yield product (the same mechanism, with hardware details). */
export type SavingsPlanKind = "savings" | "mining";

/**
 * What early redemption does: `none` refuses it; `forfeit_unpaid` returns the principal (less
 * `earlyPenaltyBps` of it, paid to the yield account) and the unpaid interest goes from the
 * reserve back to the yield account. Interest already paid is kept.
 */
export type SavingsEarlyRedemption = "none" | "forfeit_unpaid";

/** How a subscription stands. Only `active` ones stay in the kernel. */
export type SavingsSubscriptionStatus = "active" | "ended" | "early_redeemed";

/** Why a subscription ended. */
export type SavingsEndReason = "matured" | "early" | "demo_reset";

/**
 * Defines a plan, or changes its terms for later subscriptions (subscriptions keep the terms
 * they were made with). The asset and kind of a plan never change. Both modes share plans;
 * capacity is counted per mode.
 */
export interface SavingsDefinePlanCommand extends CommandBase {
  type: "savings_define_plan";
  /** 1–64 of A–Z a–z 0–9 _ . - */
  planId: string;
  /** "savings" or "mining". */
  kind: string;
  /** Display name, 1–64 characters. */
  name: string;
  /** Operator's description (for mining: hardware details as JSON text), ≤ 2,000 characters. */
  details: string;
  assetId: string;
  /** Cycle length in days, 1–3,650. */
  cycleDays: number;
  /** Daily rate in units of 10⁻⁸ (1,000,000 = 1 % a day), 1–5,000,000. */
  dailyRateE8: number;
  /** Interest starts this long after subscribing (0 = at once; the subscription is pending until then), 0–7 days. */
  startDelayMs: number;
  /** Bounds of one subscription's principal, smallest units, 0 < min ≤ max. */
  amountMin: bigint;
  amountMax: bigint;
  /** Principal must be a whole number of this (a mining product's unit price), > 0. */
  amountStep: bigint;
  /** Most principal of active subscriptions per mode. */
  capacity: bigint;
  /** "none" or "forfeit_unpaid". */
  earlyRedemption: string;
  /** Penalty on early redemption, basis points of the principal, 0–10,000 (to the yield account). */
  earlyPenaltyBps: number;
  /** False stops new subscriptions (active ones run to maturity). */
  open: boolean;
  operatorId: string | null;
}

/**
 * The operator funds the yield account of one mode and asset: real money from outside (the
 * external clearing account, with the operator's reference), demo money from the demo faucet.
 */
export interface SavingsFundYieldCommand extends CommandBase {
  type: "savings_fund_yield";
  mode: Mode;
  assetId: string;
  amount: bigint;
  reference: string | null;
  operatorId: string | null;
}

/** Subscribes `amount` to a plan. The subscription id is the command id. */
export interface SavingsSubscribeCommand extends CommandBase {
  type: "savings_subscribe";
  ownerId: string;
  mode: Mode;
  planId: string;
  amount: bigint;
}

/** Ends an active subscription before maturity, by its plan's early-redemption rule. */
export interface SavingsRedeemEarlyCommand extends CommandBase {
  type: "savings_redeem_early";
  ownerId: string;
  mode: Mode;
  subscriptionId: string;
}

/** A plan as defined. */
export interface SavingsPlanView {
  planId: string;
  kind: SavingsPlanKind;
  name: string;
  details: string;
  assetId: string;
  cycleDays: number;
  dailyRateE8: number;
  startDelayMs: number;
  amountMin: bigint;
  amountMax: bigint;
  amountStep: bigint;
  capacity: bigint;
  earlyRedemption: SavingsEarlyRedemption;
  earlyPenaltyBps: number;
  open: boolean;
}

/** A plan's standing in one mode: what is subscribed, reserved and still coverable. */
export interface SavingsPlanStatusView {
  planId: string;
  mode: Mode;
  /** Principal of active subscriptions. */
  subscribed: bigint;
  /** Promised, unpaid interest of this plan's active subscriptions (held in the reserve). */
  reserved: bigint;
  /** The reserve account of the plan's asset and mode (all plans). */
  reserveTotal: bigint;
  /** The yield account's unreserved balance: what new promises can still be made from. */
  yieldAvailable: bigint;
  /** Principal that can still be subscribed within the capacity. */
  capacityLeft: bigint;
  /** True when not even the minimum subscription can be accepted now (capacity or yield). */
  soldOut: boolean;
}

/** A subscription. */
export interface SavingsSubscriptionView {
  subscriptionId: string;
  ownerId: string;
  mode: Mode;
  planId: string;
  kind: SavingsPlanKind;
  assetId: string;
  amount: bigint;
  cycleDays: number;
  dailyRateE8: number;
  subscribedAtMs: number;
  /** Interest accrues from here; payout day k is at `startMs + k` days. */
  startMs: number;
  maturityMs: number;
  /** The whole cycle's interest, reserved at subscription. */
  interestTotal: bigint;
  interestPaid: bigint;
  paidDays: number;
  earlyRedemption: SavingsEarlyRedemption;
  earlyPenaltyBps: number;
  status: SavingsSubscriptionStatus;
  endedAtMs: number | null;
  endReason: SavingsEndReason | null;
  /** Principal returned at the end (less any early penalty). */
  principalReturned: bigint | null;
  /** Interest that went back from the reserve to the yield account (early end). */
  interestForfeited: bigint | null;
  penalty: bigint | null;
}

export interface SavingsPlanDefinedEvent {
  type: "savings_plan_defined";
  plan: SavingsPlanView;
  operatorId: string | null;
}

export interface SavingsYieldFundedEvent {
  type: "savings_yield_funded";
  mode: Mode;
  assetId: string;
  amount: bigint;
  /** The yield account's available balance after it. */
  yieldAvailable: bigint;
  reference: string | null;
  operatorId: string | null;
}

export interface SavingsSubscribedEvent {
  type: "savings_subscribed";
  subscription: SavingsSubscriptionView;
}

export interface SavingsInterestPaidEvent {
  type: "savings_interest_paid";
  subscription: SavingsSubscriptionView;
  /** 1-based day of the cycle. */
  day: number;
  amount: bigint;
}

export interface SavingsSubscriptionEndedEvent {
  type: "savings_subscription_ended";
  subscription: SavingsSubscriptionView;
}

declare module "../types.ts" {
  interface CommandMap {
    savings_define_plan: SavingsDefinePlanCommand;
    savings_fund_yield: SavingsFundYieldCommand;
    savings_subscribe: SavingsSubscribeCommand;
    savings_redeem_early: SavingsRedeemEarlyCommand;
  }
  interface ResultMap {
    savings_define_plan: NoValue;
    savings_fund_yield: NoValue;
    savings_subscribe: NoValue;
    savings_redeem_early: NoValue;
  }
  interface EventMap {
    savings_plan_defined: SavingsPlanDefinedEvent;
    savings_yield_funded: SavingsYieldFundedEvent;
    savings_subscribed: SavingsSubscribedEvent;
    savings_interest_paid: SavingsInterestPaidEvent;
    savings_subscription_ended: SavingsSubscriptionEndedEvent;
  }
}
