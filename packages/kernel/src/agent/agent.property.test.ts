// Property tests: random invitation links, invitation shares, agent levels, spot trading and
// clock jumps of hours go to the kernel and to the slow reference (agent.reference.ts). After
// every command the kernel changed exactly the reference's levels and paid exactly its agent
// rebates; the fee accounts hold the fees less both rebates; and per UTC day (period) and per
// agent (chain) the invitation and agent rebates together never exceed the team's fees. A replay
// from a snapshot taken midway reaches the same state hash. A failure names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { ownerOf } from "../ledger/accounts.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import {
  MidwayReplay,
  addTo,
  expectFeeAccounts,
  randomSpotLimit,
} from "../testing/property-run.ts";
import { type Command, type Mode } from "../types.ts";
import { AgentReference } from "./agent.reference.ts";

const users = ["1", "2", "3", "4", "5", "6"];
const modes: Mode[] = ["real", "demo"];
const DAY = 86_400_000;

function run(seed: number, steps: number): { rebates: number; changes: number } {
  const random = new Random(seed);
  const c = new CommandMaker(1_800_000_000_000);
  const state = createKernelState({});
  const inviters = new Map<string, string>();
  const ref = new AgentReference(inviters);
  const referralBps = new Map<Mode, number>();
  const commands: Command[] = [];
  const fees = new Map<string, bigint>(); // `day|mode|agent|asset`: the team's fees
  const paid = new Map<string, bigint>(); // the same keys: invitation + agent rebates
  const feesTotal = new Map<string, bigint>(); // `mode|asset`
  const rebatesTotal = new Map<string, bigint>();
  let rebates = 0;
  let changes = 0;
  const send = (command: Command): boolean => {
    commands.push(command);
    const out = apply(state, command);
    checkInvariants(state);
    const day = Math.floor(command.atMs / DAY);
    // Level changes: exactly the reference's, at clock ticks only.
    const expectedChanges = command.type === "clock_tick" ? ref.clock(state.nowMs) : [];
    const seen = out.events.filter((e) => e.type === "agent_level_changed");
    expect(
      seen.map((e) => [e.mode, e.agentId, e.fromLevel, e.toLevel, e.day, e.validMembers, e.teamVolume]), // prettier-ignore
      `seed ${seed} levels at ${command.id}`,
    ).toEqual(
      expectedChanges.map((e) => [e.mode, e.agentId, e.fromLevel, e.toLevel, e.day, e.validMembers, e.teamVolume]), // prettier-ignore
    );
    changes += seen.length;
    // Rebates: per fill side, the invitation rebate then the agent rebate of the reference.
    const agentFees = out.events.filter((e) => e.type === "agent_fee");
    const expected: [string, string, bigint, bigint, bigint][] = [];
    for (const e of out.events) {
      if (e.type !== "fill") continue;
      for (const [payer, fee, asset] of [
        [e.makerOwnerId, e.feeMaker, e.feeMakerAssetId],
        [e.takerOwnerId, e.feeTaker, e.feeTakerAssetId],
      ] as const) {
        addTo(feesTotal, e.mode + "|" + asset, fee);
        const agent = inviters.get(e.mode + "|" + payer);
        if (agent === undefined || fee === 0n) continue;
        const inviterOpen = ownerOf(state, e.mode, agent) !== undefined;
        const referral = inviterOpen ? (fee * BigInt(referralBps.get(e.mode) ?? 0)) / 10_000n : 0n; // prettier-ignore
        addTo(fees, `${day}|${e.mode}|${agent}|${asset}`, fee);
        if (ref.asset(e.mode) !== null) {
          const rebate = ref.rebate(e.mode, payer, fee, referral, inviterOpen);
          expected.push([agent, payer, fee, referral, rebate]);
        }
      }
      ref.traded(e.mode, e.makerOwnerId, "USDT", e.quoteAmount, command.atMs);
      ref.traded(e.mode, e.takerOwnerId, "USDT", e.quoteAmount, command.atMs);
    }
    expect(
      agentFees.map((e) => [e.agentId, e.memberId, e.fee, e.referralRebate, e.rebate]),
      `seed ${seed} agent rebates of ${command.id}`,
    ).toEqual(expected);
    for (const e of out.events) {
      if (e.type === "referral_rebate") {
        addTo(rebatesTotal, e.mode + "|" + e.assetId, e.rebate);
        addTo(paid, `${day}|${e.mode}|${e.inviterId}|${e.assetId}`, e.rebate);
      }
      if (e.type === "agent_fee" && e.rebate > 0n) {
        rebates++;
        addTo(rebatesTotal, e.mode + "|" + e.assetId, e.rebate);
        addTo(paid, `${day}|${e.mode}|${e.agentId}|${e.assetId}`, e.rebate);
      }
    }
    return out.result.ok;
  };
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 7, feeBpsTaker: 23 }),
    c.session("BTC-USDT", true),
  ]) {
    expect(send(command)).toBe(true);
  }
  for (const u of users) {
    expect(send(c.open(u))).toBe(true);
    expect(send(c.open(u, "demo"))).toBe(true);
    expect(send(c.deposit(u, "USDT", 100_000_000_000n))).toBe(true);
    expect(send(c.deposit(u, "BTC", 1_000_000_000n))).toBe(true);
    expect(send(c.grant(u, "USDT", 100_000_000_000n))).toBe(true);
  }
  // Agents 1 and 2 (2 is in 1's team), and 9 (no accounts: its team pays no rebate).
  for (const mode of modes) {
    for (const [inviter, invitee] of [
      ["1", "2"],
      ["1", "3"],
      ["1", "4"],
      ["2", "5"],
      ["9", "6"],
    ] as const) {
      // prettier-ignore
      expect(send(c.referralLink(inviter, invitee, mode))).toBe(true);
      inviters.set(mode + "|" + invitee, inviter);
    }
  }
  const midway = new MidwayReplay(state, commands);
  for (let step = 0; step < steps; step++) {
    midway.step(step, steps);
    const mode = random.pick(modes);
    const roll = random.int(0, 99);
    if (roll < 4) {
      const bps = random.pick([0, 2_500, 6_000, 10_000]);
      expect(send(c.referralConfigure("spot", bps, mode))).toBe(true);
      referralBps.set(mode, bps);
    } else if (roll < 10) {
      const level = random.int(1, 3);
      const remove = random.chance(0.2);
      const terms = {
        upgradeMembers: random.pick([0, 1, 2, 3]),
        upgradeVolume: random.pick([0n, 1n, 10_000_000n, 1_000_000_000n]),
        keepMembers: random.pick([0, 1, 2]),
        keepVolume: random.pick([0n, 5_000_000n]),
        spotBps: random.pick([0, 1_000, 5_000, 10_000]),
        remove,
      };
      const expectOk = ref.configure(
        mode,
        remove ? null : { level, assetId: "USDT", ...terms, bps: terms.spotBps },
        level,
        c.nowMs,
      );
      expect(send(c.agentConfigure(level, terms, mode)), `seed ${seed} configure`).toBe(expectOk);
    } else if (roll < 16) {
      send(c.clock(random.int(1, 30) * 3_600_000));
    } else {
      send(randomSpotLimit(random, c, users, mode));
    }
  }
  // The fee accounts hold exactly the fees collected less both rebates.
  expectFeeAccounts(state, modes, feesTotal, rebatesTotal, seed);
  // Per period (UTC day) and per agent chain: invitation + agent rebates ≤ the team's fees.
  for (const [key, amount] of paid) {
    expect(amount <= (fees.get(key) ?? 0n), `seed ${seed} period/chain ${key}`).toBe(true);
  }
  midway.expectSameHash(`seed ${seed} replay`);
  return { rebates, changes };
}

describe("agent levels and rebates against the reference", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i", (seed) => {
    const { rebates, changes } = run(seed, 700);
    expect(rebates).toBeGreaterThan(0);
    expect(changes).toBeGreaterThan(0);
  });
});
