// Savings plans: the promise is reserved in the same command or refused (short by one unit),
// payouts on the right days across a restart, maturity, early redemption, capacity, demo reset.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Event } from "../types.ts";
import { savingsOwners } from "./accounts.ts";
import { DAY_MS, interestTotalOf } from "./math.ts";
import { getSavingsActiveSubscriptions, getSavingsPlanStatus } from "./views.ts";
import type { SavingsSubscriptionView } from "./types.ts";

const START = 1_800_000_000_000;

function run(state: KernelState, command: Command): Event[] {
  const output = apply(state, command);
  expect(output.result, command.type).toMatchObject({ ok: true });
  checkInvariants(state);
  return output.events;
}

function code(state: KernelState, command: Command): string | undefined {
  const output = apply(state, command);
  checkInvariants(state);
  return output.result.ok ? undefined : output.result.code;
}

// 1,000 USDT for 10 days at 0.1 % a day: 10 USDT promised, 1 USDT a day.
const PLAN = { cycleDays: 10, dailyRateE8: 100_000 };
const PROMISE = 10_000_000n;

function setup(yieldAmount = PROMISE): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "5000" }] });
  const c = new CommandMaker(START);
  for (const command of [
    c.asset("USDT", 6),
    c.open("1"),
    c.open("2"),
    c.open("1", "demo"),
    c.deposit("1", "USDT", 5_000_000_000n),
    c.savingsPlan("p1", PLAN),
  ]) {
    run(state, command);
  }
  if (yieldAmount > 0n) run(state, c.savingsFund("USDT", yieldAmount));
  return { state, c };
}

const bal = (state: KernelState, owner: string, mode: "real" | "demo" = "real") =>
  getBalance(state, owner, mode, "fund", "USDT").available;

const subscribedOf = (events: Event[]): SavingsSubscriptionView =>
  (events.find((e) => e.type === "savings_subscribed") as { subscription: SavingsSubscriptionView })
    .subscription;

describe("savings plans", () => {
  it("reserves the whole promise in the subscribing command", () => {
    const { state, c } = setup();
    expect(interestTotalOf(1_000_000_000n, 100_000, 10)).toBe(PROMISE);
    const events = run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n));
    const s = subscribedOf(events);
    expect(s).toMatchObject({ interestTotal: PROMISE, interestPaid: 0n, status: "active" });
    expect(bal(state, "1")).toBe(4_000_000_000n);
    expect(bal(state, savingsOwners.principal)).toBe(1_000_000_000n);
    expect(bal(state, savingsOwners.reserve)).toBe(PROMISE);
    expect(bal(state, savingsOwners.yield)).toBe(0n);
    expect(getSavingsPlanStatus(state, "p1", "real")).toMatchObject({
      subscribed: 1_000_000_000n,
      reserved: PROMISE,
      reserveTotal: PROMISE,
      yieldAvailable: 0n,
      soldOut: true,
    });
  });

  it("refuses a subscription when the yield account is short by one unit (sold out)", () => {
    const { state, c } = setup(PROMISE - 1n);
    expect(code(state, c.savingsSubscribe("1", "p1", 1_000_000_000n))).toBe(
      "savings_yield_insufficient",
    );
    expect(bal(state, savingsOwners.yield)).toBe(PROMISE - 1n);
    expect(bal(state, savingsOwners.reserve)).toBe(0n);
    expect(bal(state, "1")).toBe(5_000_000_000n);
    run(state, c.savingsFund("USDT", 1n));
    run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n));
  });

  it("refuses past the plan's capacity, and outside the amount bounds and step", () => {
    const { state, c } = setup(10n * PROMISE);
    run(state, c.savingsPlan("p1", { ...PLAN, capacity: 1_500_000_000n }));
    run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n));
    expect(code(state, c.savingsSubscribe("2", "p1", 500_000_000n))).toBe("insufficient_balance");
    expect(code(state, c.savingsSubscribe("1", "p1", 1_000_000_000n))).toBe(
      "savings_capacity_full",
    );
    expect(code(state, c.savingsSubscribe("1", "p1", 9_000_000n))).toBe(
      "savings_amount_below_minimum",
    );
    expect(code(state, c.savingsSubscribe("1", "p1", 10_500_000n))).toBe(
      "savings_amount_not_on_step",
    );
    expect(code(state, c.savingsSubscribe("1", "p1", 20_000_000_000n))).toBe(
      "savings_amount_above_maximum",
    );
    expect(code(state, c.savingsSubscribe("1", "nope", 10_000_000n))).toBe(
      "savings_plan_not_found",
    );
    expect(code(state, c.savingsSubscribe("system:house", "p1", 10_000_000n))).toBe(
      "owner_not_allowed",
    );
    // Demo capacity is counted apart, and demo yield is its own account (unfunded: sold out).
    expect(code(state, c.savingsSubscribe("1", "p1", 1_000_000_000n, "demo"))).toBe(
      "savings_yield_insufficient",
    );
  });

  it("pays each day on its day, across a restart, and returns the principal at maturity", () => {
    const { state, c } = setup();
    const s = subscribedOf(run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n)));
    expect(s.startMs).toBe(s.subscribedAtMs);
    expect(s.maturityMs).toBe(s.startMs + 10 * DAY_MS);
    c.nowMs = s.startMs + DAY_MS - 1;
    run(state, c.clock());
    expect(bal(state, "1")).toBe(4_000_000_000n); // not yet
    c.nowMs = s.startMs + DAY_MS;
    run(state, c.clock());
    expect(bal(state, "1")).toBe(4_001_000_000n); // day 1
    // Restart in the middle of the cycle: snapshot, restore, same hash, same payouts.
    let live = restore(snapshot(state));
    expect(stateHash(live)).toBe(stateHash(state));
    c.nowMs = s.startMs + 3 * DAY_MS + 5; // days 2 and 3 in one tick
    const events = run(live, c.clock());
    expect(events.filter((e) => e.type === "savings_interest_paid").map((e) => e.day)).toEqual([
      2, 3,
    ]);
    expect(bal(live, "1")).toBe(4_003_000_000n);
    expect(getSavingsActiveSubscriptions(live, "1", "real")[0]).toMatchObject({
      paidDays: 3,
      interestPaid: 3_000_000n,
    });
    live = restore(snapshot(live));
    c.nowMs = s.maturityMs - 1;
    run(live, c.clock());
    expect(bal(live, "1")).toBe(4_009_000_000n);
    c.nowMs = s.maturityMs;
    const last = run(live, c.clock());
    const ended = last.find((e) => e.type === "savings_subscription_ended");
    expect(ended).toMatchObject({
      subscription: { status: "ended", endReason: "matured", principalReturned: 1_000_000_000n },
    });
    expect(bal(live, "1")).toBe(5_010_000_000n);
    expect(bal(live, savingsOwners.reserve)).toBe(0n);
    expect(bal(live, savingsOwners.principal)).toBe(0n);
    expect(getSavingsActiveSubscriptions(live, "1", "real")).toEqual([]);
  });

  it("redeems early: principal back less the penalty, unpaid interest back to the yield account", () => {
    const { state, c } = setup();
    run(state, c.savingsPlan("p1", { ...PLAN, earlyPenaltyBps: 50 }));
    const command = c.savingsSubscribe("1", "p1", 1_000_000_000n);
    const s = subscribedOf(run(state, command));
    c.nowMs = s.startMs + 2 * DAY_MS;
    run(state, c.clock());
    expect(code(state, c.savingsRedeem("2", command.id))).toBe("savings_subscription_not_found");
    const events = run(state, c.savingsRedeem("1", command.id));
    expect(events.find((e) => e.type === "savings_subscription_ended")).toMatchObject({
      subscription: {
        status: "early_redeemed",
        interestForfeited: 8_000_000n,
        penalty: 5_000_000n,
        principalReturned: 995_000_000n,
      },
    });
    expect(bal(state, "1")).toBe(5_000_000_000n - 5_000_000n + 2_000_000n);
    expect(bal(state, savingsOwners.yield)).toBe(8_000_000n + 5_000_000n);
    expect(bal(state, savingsOwners.reserve)).toBe(0n);
    // The schedule's later entries find nothing to pay.
    c.nowMs = s.maturityMs + DAY_MS;
    expect(run(state, c.clock()).filter((e) => e.type === "posting")).toEqual([]);
    expect(code(state, c.savingsRedeem("1", command.id))).toBe("savings_subscription_not_found");
  });

  it("refuses early redemption when the plan's rule says none", () => {
    const { state, c } = setup();
    run(state, c.savingsPlan("p1", { ...PLAN, earlyRedemption: "none" }));
    const command = c.savingsSubscribe("1", "p1", 1_000_000_000n);
    run(state, command);
    expect(code(state, c.savingsRedeem("1", command.id))).toBe(
      "savings_early_redemption_not_allowed",
    );
  });

  it("starts pending when the plan has a start delay; payouts count from the start", () => {
    const { state, c } = setup();
    run(state, c.savingsPlan("p1", { ...PLAN, startDelayMs: DAY_MS }));
    const s = subscribedOf(run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n)));
    expect(s.startMs).toBe(s.subscribedAtMs + DAY_MS);
    c.nowMs = s.subscribedAtMs + DAY_MS;
    run(state, c.clock());
    expect(bal(state, "1")).toBe(4_000_000_000n);
    c.nowMs = s.startMs + DAY_MS;
    run(state, c.clock());
    expect(bal(state, "1")).toBe(4_001_000_000n);
  });

  it("demo: funded from the demo faucet, and reset_demo ends demo subscriptions in full", () => {
    const { state, c } = setup();
    run(state, c.savingsFund("USDT", PROMISE, "demo"));
    run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n, "demo"));
    expect(bal(state, "1", "demo")).toBe(4_000_000_000n);
    run(state, c.resetDemo("1"));
    expect(bal(state, "1", "demo")).toBe(5_000_000_000n);
    expect(bal(state, savingsOwners.yield, "demo")).toBe(PROMISE);
    expect(bal(state, savingsOwners.principal, "demo")).toBe(0n);
    // Real is untouched by demo.
    expect(bal(state, savingsOwners.yield)).toBe(PROMISE);
  });

  it("checks plan terms and funding references", () => {
    const { state, c } = setup();
    expect(code(state, c.savingsPlan("bad id"))).toBe("savings_plan_invalid");
    expect(code(state, c.savingsPlan("p2", { cycleDays: 0 }))).toBe("savings_plan_invalid");
    expect(code(state, c.savingsPlan("p2", { dailyRateE8: 5_000_001 }))).toBe(
      "savings_plan_invalid",
    );
    expect(code(state, c.savingsPlan("p2", { kind: "nft" }))).toBe("savings_plan_invalid");
    expect(code(state, c.savingsPlan("p2", { earlyRedemption: "any" }))).toBe(
      "savings_plan_invalid",
    );
    expect(code(state, c.savingsPlan("p2", { amountMin: 10_500_000n }))).toBe(
      "savings_plan_invalid",
    );
    expect(code(state, c.savingsPlan("p1", { kind: "mining" }))).toBe("savings_plan_invalid");
    expect(code(state, c.savingsPlan("p2", { assetId: "EUR" }))).toBe("asset_not_found");
    expect(code(state, { ...c.savingsFund("USDT", 1n), reference: null } as Command)).toBe(
      "reference_missing",
    );
    expect(code(state, c.savingsFund("USDT", 0n))).toBe("amount_must_be_positive");
  });

  it("no other command moves money in or out of the savings accounts", () => {
    const { state, c } = setup(10n * PROMISE);
    run(state, c.savingsSubscribe("1", "p1", 1_000_000_000n));
    for (const owner of Object.values(savingsOwners)) {
      for (const command of [
        c.deposit(owner, "USDT", 1_000_000n),
        c.grant(owner, "USDT", 1_000_000n),
        c.withdrawHold(owner, "USDT", 1_000_000n, `w-${owner}`),
        c.transferWallet(owner, "USDT", 1_000_000n, "fund", "contract"),
        c.transferUser(owner, "1", "USDT", 1_000_000n),
        c.transferUser("1", owner, "USDT", 1_000_000n),
        c.savingsSubscribe(owner, "p1", 10_000_000n),
      ]) {
        expect(code(state, command), `${command.type} ${owner}`).toBeDefined();
      }
    }
    expect(bal(state, savingsOwners.reserve)).toBe(PROMISE);
    expect(bal(state, savingsOwners.principal)).toBe(1_000_000_000n);
  });
});
