// Property tests: random activities, promotion funding, reservations, deposits, demo grants and
// clock jumps go to the kernel and to the slow reference (activity.reference.ts). After every
// command: the same accept/reject, the same promotion and reserve balances per mode, the same
// reservation states, and every user's real balance is exactly its real deposits plus real
// bonuses (demo money never becomes real). A replay from a midway snapshot reaches the same hash.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { accountOf, ownerOf } from "../ledger/accounts.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import { MidwayReplay } from "../testing/property-run.ts";
import type { Command, Mode } from "../types.ts";
import { ActivityReference } from "./activity.reference.ts";
import { promotionBalance } from "./state.ts";

const users = ["1", "2", "3", "4"];
const modes: Mode[] = ["real", "demo"];
const DAY = 86_400_000;
const USDT = 1_000_000n;

function run(seed: number, steps: number): { paid: number; lapsed: number } {
  const random = new Random(seed);
  const start = 1_800_000_000_000;
  const c = new CommandMaker(start);
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "1000" }] });
  const ref = new ActivityReference();
  const commands: Command[] = [];
  const deposits = new Map<string, bigint>(); // real deposits per owner
  let now = start;
  const send = (command: Command): boolean => {
    commands.push(command);
    now = command.atMs;
    const out = apply(state, command);
    checkInvariants(state);
    return out.result.ok;
  };
  send(c.asset("USDT", 6));
  for (const u of users) {
    send(c.open(u));
    send(c.open(u, "demo"));
  }
  const midway = new MidwayReplay(state, commands);
  let activityNext = 0;
  let reservationNext = 0;
  for (let step = 0; step < steps; step++) {
    midway.step(step, steps);
    const mode = random.pick(modes);
    const roll = random.int(0, 99);
    const where = `seed ${seed} step ${step}`;
    if (roll < 8) {
      const id = `a${activityNext++}`;
      const startsAtMs = now + random.pick([-DAY, 0, DAY]);
      const terms = {
        minDeposit: BigInt(random.int(1, 200)) * USDT,
        bonus: BigInt(random.int(1, 30)) * USDT,
        capacity: random.pick([0, 1, 2, 5]),
        startsAtMs,
        endsAtMs: startsAtMs + random.pick([0, 3 * DAY, 20 * DAY]),
      };
      expect(send(c.activityDefine(id, terms, mode)), where).toBe(
        ref.define({ id, mode, ...terms }),
      );
    } else if (roll < 16) {
      const amount = BigInt(random.int(0, 40)) * USDT;
      expect(send(c.activityFund(amount, mode)), where).toBe(ref.fund(mode, amount));
    } else if (roll < 50) {
      const id = `r${reservationNext++}`;
      const activityId = `a${random.int(0, Math.max(0, activityNext - 1))}`;
      const owner = random.pick(users);
      const command = c.activityReserve(activityId, owner, id, mode);
      expect(send(command), where).toBe(ref.reserve_(id, activityId, owner, mode, command.atMs));
    } else if (roll < 75) {
      const owner = random.pick(users);
      const amount = BigInt(random.int(1, 250)) * USDT;
      const command = mode === "real" ? c.deposit(owner, "USDT", amount) : c.grant(owner, "USDT", amount); // prettier-ignore
      expect(send(command), where).toBe(true);
      ref.deposit(owner, mode, amount, command.atMs);
      if (mode === "real") deposits.set(owner, (deposits.get(owner) ?? 0n) + amount);
    } else {
      const command = c.clock(random.int(1, 4) * DAY);
      send(command);
      ref.clock(command.atMs);
    }
    for (const m of modes) {
      expect(promotionBalance(state, m, "promotion", "USDT"), where).toBe(ref.promotion[m]);
      expect(promotionBalance(state, m, "reserve", "USDT"), where).toBe(ref.reserve[m]);
    }
    for (const r of ref.reservations) {
      expect(state.activity.reservations.get(r.id)?.status, `${where} ${r.id}`).toBe(r.status);
    }
    // Real balances: real deposits plus real bonuses, nothing from demo.
    for (const u of users) {
      const real = accountOf(state, ownerOf(state, "real", u)!, "fund", "USDT").available;
      expect(real, `${where} user ${u}`).toBe(
        (deposits.get(u) ?? 0n) + (ref.bonuses.get("real|" + u) ?? 0n),
      );
    }
  }
  midway.expectSameHash(`seed ${seed} replay`);
  return {
    paid: ref.reservations.filter((r) => r.status === "paid").length,
    lapsed: ref.reservations.filter((r) => r.status === "lapsed").length,
  };
}

describe("deposit-bonus activities against the reference", () => {
  const totals = { paid: 0, lapsed: 0 };
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("seed %i", (seed) => {
    const { paid, lapsed } = run(seed, 500);
    totals.paid += paid;
    totals.lapsed += lapsed;
  });
  it("both paid and lapsed reservations happened across the seeds", () => {
    expect(totals.paid).toBeGreaterThan(0);
    expect(totals.lapsed).toBeGreaterThan(0);
  });
});
