// Property tests: random VIP levels (volume conditions), referral shares, clock jumps and spot
// trading go to the kernel and to the slow reference (vip.reference.ts). For every fill, each
// side's fee is exactly the reference's discounted fee and never more than the undiscounted fee;
// the rebates paid never exceed the (discounted) fees; the fee accounts hold the fees less the
// rebates; a replay from a midway snapshot reaches the same state hash. A failure names its seed.

import { describe, expect, it } from "vitest";
import { divCeil } from "../amount/amount.ts";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
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
import { VipReference } from "./vip.reference.ts";

const users = ["1", "2", "3", "4"];
const modes: Mode[] = ["real", "demo"];
const DAY = 86_400_000;
const FEE_MAKER = 7;
const FEE_TAKER = 23;

function run(seed: number, steps: number): { discounted: number } {
  const random = new Random(seed);
  const c = new CommandMaker(1_800_000_000_000);
  const state = createKernelState({
    demoGrants: [
      { assetId: "USDT", amount: "100000" },
      { assetId: "BTC", amount: "10" },
    ],
  });
  const ref = new VipReference();
  const commands: Command[] = [];
  const feesTotal = new Map<string, bigint>();
  const rebatesTotal = new Map<string, bigint>();
  let discounted = 0;
  const send = (command: Command): boolean => {
    commands.push(command);
    const out = apply(state, command);
    checkInvariants(state);
    const day = Math.floor(command.atMs / DAY);
    for (const e of out.events) {
      if (e.type === "referral_rebate") addTo(rebatesTotal, e.mode + "|" + e.assetId, e.rebate);
      if (e.type !== "fill") continue;
      const takerBuys = e.takerSide === "buy";
      const full = (amount: bigint, bps: number) => divCeil(amount * BigInt(bps), 10_000n);
      const makerFull = full(takerBuys ? e.quoteAmount : e.baseAmount, FEE_MAKER);
      const takerFull = full(takerBuys ? e.baseAmount : e.quoteAmount, FEE_TAKER);
      const where = `seed ${seed} fill ${e.fillId} of ${command.id}`;
      expect(e.feeMaker, where).toBe(ref.fee(e.mode, e.makerOwnerId, day, makerFull));
      expect(e.feeTaker, where).toBe(ref.fee(e.mode, e.takerOwnerId, day, takerFull));
      expect(e.feeMaker <= makerFull && e.feeTaker <= takerFull, where).toBe(true);
      if (e.feeMaker < makerFull || e.feeTaker < takerFull) discounted++;
      addTo(feesTotal, e.mode + "|" + e.feeMakerAssetId, e.feeMaker);
      addTo(feesTotal, e.mode + "|" + e.feeTakerAssetId, e.feeTaker);
      ref.trade(e.mode, e.makerOwnerId, day, e.quoteAmount);
      ref.trade(e.mode, e.takerOwnerId, day, e.quoteAmount);
    }
    return out.result.ok;
  };
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: FEE_MAKER, feeBpsTaker: FEE_TAKER }),
    c.session("BTC-USDT", true),
    c.referralConfigure("spot", 5_000),
    c.referralConfigure("spot", 10_000, "demo"),
  ]) {
    expect(send(command)).toBe(true);
  }
  for (const u of users) {
    expect(send(c.open(u))).toBe(true);
    expect(send(c.open(u, "demo"))).toBe(true);
    expect(send(c.deposit(u, "USDT", 100_000_000_000n))).toBe(true);
    expect(send(c.deposit(u, "BTC", 1_000_000_000n))).toBe(true);
  }
  for (const mode of modes) {
    expect(send(c.referralLink("1", "2", mode))).toBe(true);
    expect(send(c.referralLink("2", "3", mode))).toBe(true);
  }
  const midway = new MidwayReplay(state, commands);
  for (let step = 0; step < steps; step++) {
    midway.step(step, steps);
    const mode = random.pick(modes);
    const roll = random.int(0, 99);
    if (roll < 8) {
      const level = random.pick([0, 0, 1, 2, 3, 11]);
      const minVolume =
        level === 0 ? random.pick([0n, 0n, 0n, 5n]) : random.pick([0n, 1n, 50_000_000n, 10_000_000_000n]); // prettier-ignore
      const bps = random.pick([0, 1, 2_500, 5_000, 9_999, 10_000, 10_001]);
      const remove = random.chance(0.15);
      expect(
        send(c.vipConfigure(level, { minVolume, feeDiscountBps: bps, remove }, mode)),
        `seed ${seed} configure`,
      ).toBe(ref.configure(mode, level, minVolume, bps, remove));
    } else if (roll < 12) {
      send(c.clock(random.int(1, 15) * DAY));
    } else {
      send(randomSpotLimit(random, c, users, mode));
    }
  }
  expectFeeAccounts(state, modes, feesTotal, rebatesTotal, seed);
  midway.expectSameHash(`seed ${seed} replay`);
  return { discounted };
}

describe("VIP fee discounts against the reference", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i", (seed) => {
    const { discounted } = run(seed, 600);
    expect(discounted).toBeGreaterThan(0);
  });
});
