// Savings plans and mining-yield products as a kernel module: plans, the yield account,
// subscriptions with their whole promise reserved, payouts and maturity by the schedule.

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import type { Mode } from "../types.ts";
import { savingsBalance, savingsOwners } from "./accounts.ts";
import { interestThrough } from "./math.ts";
import { savingsDefinePlan, savingsFundYield } from "./plans.ts";
import { createSavingsState, type SavingsState, type SavingsSubscriptionState } from "./state.ts";
import {
  ACTIVE_SUBSCRIPTIONS_PER_OWNER_MAX,
  addActive,
  planKey,
  resetDemoSubscriptions,
  runPayout,
  savingsRedeemEarly,
  savingsSubscribe,
} from "./subscriptions.ts";
import type { SavingsEarlyRedemption, SavingsPlanKind } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    savings: SavingsState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

const big = (value: bigint): string => value.toString();

export const savingsModule = {
  name: "savings",
  createState: createSavingsState,
  commands: {
    // Type codes 60–69 are the savings product's; 64–69 are kept for it.
    savings_define_plan: {
      typeCode: 60,
      fields: [
        ["planId", "string"],
        ["kind", "string"],
        ["name", "string"],
        ["details", "string"],
        ["assetId", "string"],
        ["cycleDays", "int"],
        ["dailyRateE8", "int"],
        ["startDelayMs", "int"],
        ["amountMin", "bigint"],
        ["amountMax", "bigint"],
        ["amountStep", "bigint"],
        ["capacity", "bigint"],
        ["earlyRedemption", "string"],
        ["earlyPenaltyBps", "int"],
        ["open", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    savings_fund_yield: {
      typeCode: 61,
      fields: [
        ["mode", "mode"],
        ["assetId", "string"],
        ["amount", "bigint"],
        ["reference", "string?"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    savings_subscribe: {
      typeCode: 62,
      fields: [...ownerMode, ["planId", "string"], ["amount", "bigint"]],
      result: [],
    },
    savings_redeem_early: {
      typeCode: 63,
      fields: [...ownerMode, ["subscriptionId", "string"]],
      result: [],
    },
  },
  handlers: {
    savings_define_plan: savingsDefinePlan,
    savings_fund_yield: savingsFundYield,
    savings_subscribe: savingsSubscribe,
    savings_redeem_early: savingsRedeemEarly,
  },
  runScheduled: runPayout,
  onDemoReset: resetDemoSubscriptions,
  snapshot: {
    write(state) {
      const savings = state.savings;
      // Nothing defined: no fields, so states without the product hash as before it.
      if (savings.plans.size === 0 && savings.seqNext === 1) {
        return { savingsPlans: undefined, savingsSubscriptions: undefined };
      }
      const plans = [...savings.plans.values()]
        .sort((a, b) => compareStrings(a.planId, b.planId))
        .map((p): Json => [
          p.planId,
          p.kind,
          p.name,
          p.details,
          p.assetId,
          p.cycleDays,
          p.dailyRateE8,
          p.startDelayMs,
          big(p.amountMin),
          big(p.amountMax),
          big(p.amountStep),
          big(p.capacity),
          p.earlyRedemption,
          p.earlyPenaltyBps,
          p.open,
        ]);
      const subscriptions = [...savings.active.values()]
        .sort((a, b) => a.seq - b.seq)
        .map((s): Json => [
          s.seq,
          s.subscriptionId,
          s.ownerId,
          s.mode,
          s.planId,
          s.kind,
          s.assetId,
          big(s.amount),
          s.cycleDays,
          s.dailyRateE8,
          s.subscribedAtMs,
          s.startMs,
          s.maturityMs,
          big(s.interestTotal),
          big(s.interestPaid),
          s.paidDays,
          s.earlyRedemption,
          s.earlyPenaltyBps,
        ]);
      return {
        savingsPlans: plans,
        savingsSubscriptions: [
          savings.seqNext,
          savings.subscribedCount,
          savings.endedCount,
          subscriptions,
        ],
      };
    },
    read(state, json) {
      const savings = state.savings;
      for (const p of (json.savingsPlans ?? []) as Json[][]) {
        savings.plans.set(p[0] as string, {
          planId: p[0] as string,
          kind: p[1] as SavingsPlanKind,
          name: p[2] as string,
          details: p[3] as string,
          assetId: p[4] as string,
          cycleDays: p[5] as number,
          dailyRateE8: p[6] as number,
          startDelayMs: p[7] as number,
          amountMin: BigInt(p[8] as string),
          amountMax: BigInt(p[9] as string),
          amountStep: BigInt(p[10] as string),
          capacity: BigInt(p[11] as string),
          earlyRedemption: p[12] as SavingsEarlyRedemption,
          earlyPenaltyBps: p[13] as number,
          open: p[14] as boolean,
        });
      }
      const section = json.savingsSubscriptions as [number, number, number, Json[][]] | undefined;
      if (section === undefined) return;
      const [seqNext, subscribedCount, endedCount, subscriptions] = section;
      for (const s of subscriptions) {
        const subscription: SavingsSubscriptionState = {
          seq: s[0] as number,
          subscriptionId: s[1] as string,
          ownerId: s[2] as string,
          mode: s[3] as Mode,
          planId: s[4] as string,
          kind: s[5] as SavingsPlanKind,
          assetId: s[6] as string,
          amount: BigInt(s[7] as string),
          cycleDays: s[8] as number,
          dailyRateE8: s[9] as number,
          subscribedAtMs: s[10] as number,
          startMs: s[11] as number,
          maturityMs: s[12] as number,
          interestTotal: BigInt(s[13] as string),
          interestPaid: BigInt(s[14] as string),
          paidDays: s[15] as number,
          earlyRedemption: s[16] as SavingsEarlyRedemption,
          earlyPenaltyBps: s[17] as number,
          status: "active",
          endedAtMs: null,
          endReason: null,
          principalReturned: null,
          interestForfeited: null,
          penalty: null,
        };
        addActive(state, subscription);
      }
      savings.seqNext = seqNext;
      savings.subscribedCount = subscribedCount;
      savings.endedCount = endedCount;
    },
  },
  checkInvariants(state) {
    const savings = state.savings;
    assert(
      savings.subscribedCount === savings.endedCount + savings.active.size,
      "subscriptions made ≠ ended + active",
    );
    const principal = new Map<string, bigint>();
    const promised = new Map<string, bigint>();
    const perPlanPrincipal = new Map<string, bigint>();
    const perPlanReserved = new Map<string, bigint>();
    const perOwner = new Map<string, number>();
    for (const s of savings.active.values()) {
      assert(s.status === "active", "an ended subscription is listed active");
      assert(s.amount > 0n && s.interestTotal > 0n, "a subscription promises something");
      assert(s.paidDays >= 0 && s.paidDays < s.cycleDays, "an active subscription has days left");
      // What was paid is exactly the schedule's cumulative amount: no more, no less.
      assert(
        s.interestPaid === interestThrough(s.interestTotal, s.paidDays, s.cycleDays),
        "interest paid is not the schedule's",
      );
      assert(s.seq < savings.seqNext, "a subscription's seq is ahead of the counter");
      assert(savings.plans.has(s.planId), "a subscription without its plan");
      const assetKey = s.mode + "|" + s.assetId;
      principal.set(assetKey, (principal.get(assetKey) ?? 0n) + s.amount);
      const unpaid = s.interestTotal - s.interestPaid;
      promised.set(assetKey, (promised.get(assetKey) ?? 0n) + unpaid);
      const key = planKey(s.mode, s.planId);
      perPlanPrincipal.set(key, (perPlanPrincipal.get(key) ?? 0n) + s.amount);
      if (unpaid > 0n) perPlanReserved.set(key, (perPlanReserved.get(key) ?? 0n) + unpaid);
      const ownerKey = s.mode + "|" + s.ownerId;
      perOwner.set(ownerKey, (perOwner.get(ownerKey) ?? 0) + 1);
    }
    const sameMap = (a: Map<string, bigint>, b: Map<string, bigint>, what: string): void => {
      assert(a.size === b.size, what);
      for (const [key, value] of a) assert(b.get(key) === value, what);
    };
    sameMap(perPlanPrincipal, savings.subscribed, "a plan's subscribed principal is wrong");
    sameMap(perPlanReserved, savings.reserved, "a plan's reservation is wrong");
    assert(perOwner.size === savings.activePerOwner.size, "owner counts out of step");
    for (const [key, count] of perOwner) {
      assert(savings.activePerOwner.get(key) === count, "active subscriptions per owner");
      assert(count <= ACTIVE_SUBSCRIPTIONS_PER_OWNER_MAX, "too many active subscriptions");
    }
    // The reserve holds exactly the promised unpaid interest (so always at least it), and the
    // principal account exactly the active principal; neither holds anything back.
    for (const mode of ["real", "demo"] as const) {
      for (const [name, expected] of [
        ["reserve", promised],
        ["principal", principal],
      ] as const) {
        const owner = state.ledger.owners.get(mode + "|" + savingsOwners[name]);
        for (const account of owner?.accounts.values() ?? []) {
          assert(account.wallet === "fund" && account.held === 0n, "a savings account holds");
          const want = expected.get(mode + "|" + account.assetId) ?? 0n;
          assert(account.available === want, `the savings ${name} is not what is promised`);
        }
        for (const [key, value] of expected) {
          if (!key.startsWith(mode + "|")) continue;
          const assetId = key.slice(mode.length + 1);
          assert(savingsBalance(state, mode, name, assetId) === value, `savings ${name} missing`);
        }
      }
      const yieldOwner = state.ledger.owners.get(mode + "|" + savingsOwners.yield);
      for (const account of yieldOwner?.accounts.values() ?? []) {
        assert(account.held === 0n && account.available >= 0n, "the yield account is overdrawn");
      }
    }
  },
} satisfies KernelModule;
