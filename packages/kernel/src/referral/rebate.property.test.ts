// Property tests: random links, rebate shares and spot trading go to the kernel and to the slow
// reference (rebate.reference.ts). After every command the kernel paid exactly the reference's
// rebates; the mode's fee account holds the fees less the rebates; and, per UTC day (period)
// and per inviter (chain), the rebates paid never exceed the fees the inviter's invitees paid.
// A replay from a snapshot taken midway reaches the same state hash. A failure names its seed.

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
import { ReferralReference } from "./rebate.reference.ts";

const users = ["1", "2", "3", "4", "5"];
const modes: Mode[] = ["real", "demo"];
const DAY = 86_400_000;

function run(seed: number, steps: number): { rebates: number } {
  const random = new Random(seed);
  const c = new CommandMaker(1_800_000_000_000);
  const state = createKernelState({
    demoGrants: [
      { assetId: "USDT", amount: "100000" },
      { assetId: "BTC", amount: "10" },
    ],
  });
  const ref = new ReferralReference((mode, id) => ownerOf(state, mode, id) !== undefined);
  const commands: Command[] = [];
  const feesByPeriod = new Map<string, bigint>(); // `day|mode|inviter|asset`: fees of invitees
  const rebatesByPeriod = new Map<string, bigint>();
  const feesTotal = new Map<string, bigint>(); // `mode|asset`
  const rebatesTotal = new Map<string, bigint>();
  let rebates = 0;
  const send = (command: Command): boolean => {
    commands.push(command);
    const out = apply(state, command);
    checkInvariants(state);
    const day = Math.floor(command.atMs / DAY);
    const expected = out.events.flatMap((e) => (e.type === "fill" ? ref.rebatesOf(e) : []));
    const paid = out.events.filter((e) => e.type === "referral_rebate");
    expect(
      paid.map((e) => [e.mode, e.inviterId, e.inviteeId, e.assetId, e.fee, e.rebate]),
      `seed ${seed} rebates of ${command.id}`,
    ).toEqual(expected.map((r) => [r.mode, r.inviterId, r.inviteeId, r.assetId, r.fee, r.rebate]));
    for (const e of out.events) {
      if (e.type !== "fill") continue;
      for (const [payer, fee, asset] of [
        [e.makerOwnerId, e.feeMaker, e.feeMakerAssetId],
        [e.takerOwnerId, e.feeTaker, e.feeTakerAssetId],
      ] as const) {
        addTo(feesTotal, e.mode + "|" + asset, fee);
        const inviter = ref.inviters.get(e.mode + "|" + payer);
        if (inviter !== undefined) addTo(feesByPeriod, `${day}|${e.mode}|${inviter}|${asset}`, fee);
      }
    }
    for (const e of paid) {
      rebates++;
      addTo(rebatesTotal, e.mode + "|" + e.assetId, e.rebate);
      addTo(rebatesByPeriod, `${day}|${e.mode}|${e.inviterId}|${e.assetId}`, e.rebate);
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
    // User 5 never opens demo accounts: an inviter without accounts gets no rebate there.
    if (u !== "5") expect(send(c.open(u, "demo"))).toBe(true);
    expect(send(c.deposit(u, "USDT", 100_000_000_000n))).toBe(true);
    expect(send(c.deposit(u, "BTC", 1_000_000_000n))).toBe(true);
  }
  const midway = new MidwayReplay(state, commands);
  for (let step = 0; step < steps; step++) {
    midway.step(step, steps);
    const mode = random.pick(modes);
    const roll = random.int(0, 99);
    if (roll < 10) {
      const inviter = random.pick([...users, "9", "bad id"]);
      const invitee = random.pick([...users, "7"]);
      expect(send(c.referralLink(inviter, invitee, mode)), `seed ${seed} link`).toBe(
        ref.link(inviter, invitee, mode),
      );
    } else if (roll < 15) {
      const product = random.pick(["spot", "spot", "perp", "stocks", "bond"]);
      const bps = random.pick([0, 1, 999, 2_500, 5_000, 10_000, 10_001, -1]);
      expect(send(c.referralConfigure(product, bps, mode)), `seed ${seed} configure`).toBe(
        ref.configure(product, bps, mode),
      );
    } else if (roll < 18) {
      send(c.clock(random.int(1, 30) * 3_600_000));
    } else {
      send(
        randomSpotLimit(
          random,
          c,
          users.filter((u) => mode === "real" || u !== "5"),
          mode,
        ),
      );
    }
  }
  // The fee accounts hold exactly the fees collected less the rebates paid.
  expectFeeAccounts(state, modes, feesTotal, rebatesTotal, seed);
  for (const [key, paid] of rebatesByPeriod) {
    expect(paid <= (feesByPeriod.get(key) ?? 0n), `seed ${seed} period/chain ${key}`).toBe(true);
  }
  midway.expectSameHash(`seed ${seed} replay`);
  return { rebates };
}

describe("referral rebates against the reference", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i", (seed) => {
    const { rebates } = run(seed, 600);
    expect(rebates).toBeGreaterThan(0);
  });
});
