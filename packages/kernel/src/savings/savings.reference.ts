// A slow, obviously-correct model of savings: plain arrays and arithmetic, no indices, no
// schedule. Given the same commands it must reach the same balances and subscription states as
// the kernel (savings.property.test.ts).

import type { Mode } from "../types.ts";

export interface RefPlan {
  planId: string;
  cycleDays: number;
  dailyRateE8: number;
  startDelayMs: number;
  amountMin: bigint;
  amountMax: bigint;
  amountStep: bigint;
  capacity: bigint;
  earlyRedemption: "none" | "forfeit_unpaid";
  earlyPenaltyBps: number;
  open: boolean;
}

export interface RefSubscription {
  id: string;
  ownerId: string;
  mode: Mode;
  planId: string;
  amount: bigint;
  cycleDays: number;
  startMs: number;
  total: bigint;
  paid: bigint;
  paidDays: number;
  early: "none" | "forfeit_unpaid";
  penaltyBps: number;
  status: "active" | "ended" | "early_redeemed";
}

const DAY = 86_400_000;

export class SavingsReference {
  plans = new Map<string, RefPlan>();
  subs: RefSubscription[] = [];
  /** Balances by `mode|owner` (owners: user ids, "yield", "reserve", "principal"). */
  balances = new Map<string, bigint>();

  balance(mode: Mode, owner: string): bigint {
    return this.balances.get(mode + "|" + owner) ?? 0n;
  }

  private move(mode: Mode, from: string, to: string, amount: bigint): void {
    if (amount === 0n) return;
    this.balances.set(mode + "|" + from, this.balance(mode, from) - amount);
    this.balances.set(mode + "|" + to, this.balance(mode, to) + amount);
  }

  credit(mode: Mode, owner: string, amount: bigint): void {
    this.balances.set(mode + "|" + owner, this.balance(mode, owner) + amount);
  }

  fund(mode: Mode, amount: bigint): boolean {
    if (amount <= 0n) return false;
    this.credit(mode, "yield", amount);
    return true;
  }

  subscribe(
    id: string,
    ownerId: string,
    mode: Mode,
    planId: string,
    amount: bigint,
    atMs: number,
  ): boolean {
    const plan = this.plans.get(planId);
    if (plan === undefined || !plan.open) return false;
    if (amount < plan.amountMin || amount > plan.amountMax || amount % plan.amountStep !== 0n)
      return false;
    let total = 0n;
    // Interest for the cycle: amount × rate / 10⁸ per day, summed exactly, rounded down once.
    for (let d = 0; d < plan.cycleDays; d++) total += amount * BigInt(plan.dailyRateE8);
    total /= 100_000_000n;
    if (total <= 0n) return false;
    if (this.subs.some((s) => s.status === "active" && s.id === id)) return false;
    let subscribed = 0n;
    for (const s of this.subs) {
      if (s.status === "active" && s.mode === mode && s.planId === planId) subscribed += s.amount;
    }
    if (subscribed + amount > plan.capacity) return false;
    if (this.balance(mode, ownerId) < amount) return false;
    if (this.balance(mode, "yield") < total) return false;
    this.move(mode, ownerId, "principal", amount);
    this.move(mode, "yield", "reserve", total);
    this.subs.push({
      id,
      ownerId,
      mode,
      planId,
      amount,
      cycleDays: plan.cycleDays,
      startMs: atMs + plan.startDelayMs,
      total,
      paid: 0n,
      paidDays: 0,
      early: plan.earlyRedemption,
      penaltyBps: plan.earlyPenaltyBps,
      status: "active",
    });
    return true;
  }

  /** Time passes: every due day is paid, in day order per subscription. */
  clock(nowMs: number): void {
    // Due payouts in due-time order, then subscription order (as the kernel's schedule).
    for (;;) {
      let next: RefSubscription | undefined;
      for (const s of this.subs) {
        if (s.status !== "active") continue;
        const due = s.startMs + (s.paidDays + 1) * DAY;
        if (due > nowMs) continue;
        if (next === undefined || due < next.startMs + (next.paidDays + 1) * DAY) next = s;
      }
      if (next === undefined) return;
      const day = next.paidDays + 1;
      const owed = (next.total * BigInt(day)) / BigInt(next.cycleDays);
      this.move(next.mode, "reserve", next.ownerId, owed - next.paid);
      next.paid = owed;
      next.paidDays = day;
      if (day === next.cycleDays) {
        this.move(next.mode, "principal", next.ownerId, next.amount);
        next.status = "ended";
      }
    }
  }

  redeem(ownerId: string, mode: Mode, id: string, reset = false): boolean {
    const s = this.subs.find((x) => x.status === "active" && x.id === id);
    if (s === undefined || s.ownerId !== ownerId || s.mode !== mode) return false;
    if (!reset && s.early === "none") return false;
    this.move(mode, "reserve", "yield", s.total - s.paid);
    const penalty = reset ? 0n : (s.amount * BigInt(s.penaltyBps)) / 10_000n;
    this.move(mode, "principal", "yield", penalty);
    this.move(mode, "principal", ownerId, s.amount - penalty);
    s.status = "early_redeemed";
    return true;
  }

  /** What the reserve must hold: the promised, unpaid interest of active subscriptions. */
  promised(mode: Mode): bigint {
    let sum = 0n;
    for (const s of this.subs)
      if (s.status === "active" && s.mode === mode) sum += s.total - s.paid;
    return sum;
  }
}
