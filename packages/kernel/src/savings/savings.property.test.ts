// Property tests: random plans, funding, subscriptions, early redemptions, demo resets and
// clock ticks go to the kernel and to the slow reference (savings.reference.ts). After every
// command: the same balances, the reserve equal to the promised unpaid interest, and a replay
// from a snapshot taken midway reaching the same state hash. A failure names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import { MidwayReplay } from "../testing/property-run.ts";
import type { Command, Mode } from "../types.ts";
import { savingsOwners } from "./accounts.ts";
import { SavingsReference, type RefPlan } from "./savings.reference.ts";

const owners = ["1", "2", "3"];
const modes: Mode[] = ["real", "demo"];
const HOUR = 3_600_000;

function run(seed: number, steps: number): { subscribed: number; ended: number; early: number } {
  const random = new Random(seed);
  const c = new CommandMaker(1_800_000_000_000);
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "500" }] });
  const ref = new SavingsReference();
  const commands: Command[] = [];
  const send = (command: Command): boolean => {
    commands.push(command);
    const ok = apply(state, command).result.ok;
    checkInvariants(state);
    return ok;
  };
  for (const command of [
    c.asset("USDT", 6),
    ...owners.flatMap((o) => [c.open(o), c.open(o, "demo")]),
  ]) {
    expect(send(command)).toBe(true);
  }
  for (const o of owners) {
    expect(send(c.deposit(o, "USDT", 500_000_000n))).toBe(true);
    ref.credit("real", o, 500_000_000n);
    ref.credit("demo", o, 500_000_000n);
  }
  for (const p of ["a", "b", "c"]) {
    const plan: RefPlan = {
      planId: p,
      cycleDays: random.int(1, 5),
      dailyRateE8: random.pick([1, 333, 50_000, 1_000_000, 5_000_000]),
      startDelayMs: random.pick([0, 0, 5 * HOUR]),
      amountMin: 1_000_000n,
      amountMax: 300_000_000n,
      amountStep: random.pick([1n, 1_000_000n]),
      capacity: BigInt(random.int(1, 800)) * 1_000_000n,
      earlyRedemption: random.pick(["none", "forfeit_unpaid", "forfeit_unpaid"] as const),
      earlyPenaltyBps: random.pick([0, 37, 10_000]),
      open: true,
    };
    expect(send(c.savingsPlan(p, plan))).toBe(true);
    ref.plans.set(p, plan);
  }
  const ids: string[] = [];
  const midway = new MidwayReplay(state, commands);
  const stats = { subscribed: 0, ended: 0, early: 0 };
  for (let step = 0; step < steps; step++) {
    midway.step(step, steps);
    const mode = random.pick(modes);
    const owner = random.pick(owners);
    const roll = random.int(0, 99);
    if (roll < 10) {
      const amount = BigInt(random.int(0, 40)) * 100_000n;
      expect(send(c.savingsFund("USDT", amount, mode)), `seed ${seed} fund`).toBe(
        ref.fund(mode, amount),
      );
    } else if (roll < 45) {
      const command = c.savingsSubscribe(
        owner,
        random.pick(["a", "b", "c", "x"]),
        BigInt(random.int(0, 120)) * random.pick([1n, 1_000_000n, 1_500_000n]),
        mode,
      );
      const expected = ref.subscribe(
        command.id,
        owner,
        mode,
        (command as { planId: string }).planId,
        (command as { amount: bigint }).amount,
        command.atMs,
      );
      expect(send(command), `seed ${seed} subscribe`).toBe(expected);
      if (expected) {
        ids.push(command.id);
        stats.subscribed++;
      }
    } else if (roll < 55 && ids.length > 0) {
      const id = random.pick(ids);
      const expected = ref.redeem(owner, mode, id);
      expect(send(c.savingsRedeem(owner, id, mode)), `seed ${seed} redeem`).toBe(expected);
      if (expected) stats.early++;
    } else if (roll < 57) {
      expect(send(c.resetDemo(owner))).toBe(true);
      for (const s of ref.subs) {
        if (s.status === "active" && s.mode === "demo" && s.ownerId === owner)
          ref.redeem(owner, "demo", s.id, true);
      }
      const kept = ref.balance("demo", owner);
      ref.credit("demo", owner, 500_000_000n - kept);
    } else {
      c.nowMs += random.int(0, 30 * HOUR);
      const command = c.clock();
      ref.clock(command.atMs);
      expect(send(command)).toBe(true);
    }
    for (const m of modes) {
      for (const o of owners) {
        expect(getBalance(state, o, m, "fund", "USDT").available, `seed ${seed} ${m} ${o}`).toBe(
          ref.balance(m, o),
        );
      }
      for (const name of ["yield", "reserve", "principal"] as const) {
        expect(
          getBalance(state, savingsOwners[name], m, "fund", "USDT").available,
          `seed ${seed} ${name}`,
        ).toBe(ref.balance(m, name));
      }
      // The property: at every moment the reserve equals the promised unpaid interest.
      expect(ref.balance(m, "reserve")).toBe(ref.promised(m));
    }
  }
  stats.ended = ref.subs.filter((s) => s.status === "ended").length;
  midway.expectSameHash(`seed ${seed} replay`);
  return stats;
}

describe("savings against the reference model", () => {
  it("agrees over 60 seeds, and the streams subscribe, mature and redeem", () => {
    const total = { subscribed: 0, ended: 0, early: 0 };
    for (let seed = 1; seed <= 60; seed++) {
      const s = run(seed, 300);
      total.subscribed += s.subscribed;
      total.ended += s.ended;
      total.early += s.early;
    }
    expect(total.subscribed).toBeGreaterThan(100);
    expect(total.ended).toBeGreaterThan(20);
    expect(total.early).toBeGreaterThan(10);
    // CPU-bound and deterministic: minutes on a shared, loaded machine are load, not a fault.
  }, 180_000);
});
