// Property tests: random tick paths, purchases and clock ticks go to the kernel; every contract
// must settle exactly once and as the slow reference (seconds.reference.ts) reads the tape; the
// house's profit must be the users' losses minus their wins; and replaying the same commands,
// from the start or from a snapshot taken midway, must give the same results and state hash.
// A failure names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import type { Command, Event, Mode } from "../types.ts";
import {
  referenceSettle,
  type ReferenceContract,
  type ReferenceTick,
} from "./seconds.reference.ts";
import type { SecondsContractView } from "./types.ts";

const HOUSE = "system:house";
const owners = ["1", "2", "3"];
const modes: Mode[] = ["real", "demo"];
const periods = [5_000, 10_000];
const prices = ["100", "100.5", "101", "99.99", "100.00"];
/** Outcomes seen over all seeds: the streams must reach every kind. */
const seen = new Map<string, number>();

function houseTotal(state: KernelState, mode: Mode): bigint {
  const fund = getBalance(state, HOUSE, mode, "fund", "USDT");
  const escrow = getBalance(state, HOUSE, mode, "contract", "USDT");
  return fund.available + fund.held + escrow.available + escrow.held;
}

function userTotal(state: KernelState, owner: string, mode: Mode): bigint {
  const fund = getBalance(state, owner, mode, "fund", "USDT");
  return fund.available + fund.held;
}

function run(seed: number, steps: number): void {
  const random = new Random(seed);
  const c = new CommandMaker();
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "500" }] });
  const commands: Command[] = [];
  const send = (command: Command): Event[] => {
    commands.push(command);
    const output = apply(state, command);
    checkInvariants(state);
    return output.result.ok ? output.events : [];
  };
  const setup = [
    c.asset("USDT", 6),
    ...owners.flatMap((o) => [c.open(o), c.open(o, "demo"), c.deposit(o, "USDT", 500_000_000n)]),
    c.deposit(HOUSE, "USDT", BigInt(random.int(50, 400)) * 1_000_000n),
    c.grant(HOUSE, "USDT", BigInt(random.int(50, 400)) * 1_000_000n),
    ...periods.map((periodMs) =>
      c.secondsConfigure("X", periodMs, {
        payoutBps: random.int(5_000, 9_500),
        stakeMin: 1_000_000n,
        stakeMax: 60_000_000n,
        exposureMax: BigInt(random.int(40, 200)) * 1_000_000n,
        graceMs: 2_000,
        tickAgeMaxMs: 3_000,
      }),
    ),
  ];
  for (const command of setup) expect(apply(state, command).result.ok).toBe(true);
  commands.push(...setup);
  const houseStart = new Map(modes.map((m) => [m, houseTotal(state, m)]));
  const userStart = new Map(
    modes.flatMap((m) => owners.map((o) => [m + o, userTotal(state, o, m)] as const)),
  );

  const ticks: ReferenceTick[] = [];
  const clocks: number[] = [];
  const bought: (ReferenceContract & { mode: Mode; ownerId: string })[] = [];
  const settled = new Map<string, SecondsContractView>();
  let midway: Uint8Array | null = null;
  let midwayIndex = 0;
  const observe = (events: Event[]): void => {
    for (const event of events) {
      if (event.type === "seconds_purchased") {
        const k = event.contract;
        bought.push({
          contractId: k.contractId,
          mode: k.mode,
          ownerId: k.ownerId,
          direction: k.direction,
          stake: k.stake,
          payoutMax: k.payoutMax,
          boughtAtMs: k.boughtAtMs,
          expiresAtMs: k.expiresAtMs,
          refundAtMs: k.refundAtMs,
          openTickId: k.openTickId,
          openPrice: BigInt(Math.round(Number(k.openPrice) * 100)),
        });
      } else if (event.type === "seconds_settled") {
        const id = event.contract.contractId;
        expect(settled.has(id), `seed ${seed}: ${id} settled twice`).toBe(false);
        settled.set(id, event.contract);
      }
    }
  };

  for (let step = 0; step < steps; step++) {
    if (step === steps >> 1) {
      midway = snapshot(state);
      midwayIndex = commands.length;
    }
    c.nowMs += random.chance(0.05) ? random.int(3_000, 9_000) : random.int(0, 1_500);
    const roll = random.next();
    if (roll < 0.45) {
      const price = random.pick(prices);
      const command = random.chance(0.03)
        ? c.tickAt("X", price, Math.max(0, c.nowMs - 20_000)) // out of order once a tick exists
        : c.tick("X", price);
      const events = send(command);
      if (events.length > 0 && command.type === "record_tick") {
        ticks.push({
          tickId: command.tickId,
          price: BigInt(Math.round(Number(price) * 100)),
          tickAtMs: command.tickAtMs,
          recordedAtMs: command.atMs,
        });
      }
      observe(events);
    } else if (roll < 0.85) {
      const command = c.secondsPurchase(
        random.pick(owners),
        "X",
        random.pick(periods),
        random.pick(["up", "down"]),
        BigInt(random.int(1, 60)) * 1_000_000n,
        random.pick(modes),
      );
      observe(send(command));
    } else {
      const command = c.clock();
      clocks.push(command.atMs);
      observe(send(command));
    }
  }
  // Let every contract end: past every refund time, a clock tick.
  c.nowMs += 20_000;
  const last = c.clock();
  clocks.push(last.atMs);
  observe(send(last));

  expect(bought.length, `seed ${seed}: contracts bought`).toBeGreaterThan(5);
  expect(state.seconds.open.size, `seed ${seed}: all settled`).toBe(0);
  expect(settled.size).toBe(bought.length);
  const net = new Map<string, bigint>();
  for (const contract of bought) {
    const got = settled.get(contract.contractId)!;
    const expected = referenceSettle(contract, ticks, clocks);
    expect(
      { outcome: got.outcome, settleTickId: got.settleTickId, returned: got.returned },
      `seed ${seed}: contract ${contract.contractId}`,
    ).toEqual({
      outcome: expected?.outcome,
      settleTickId: expected?.settleTickId,
      returned: expected?.returned,
    });
    seen.set(got.outcome!, (seen.get(got.outcome!) ?? 0) + 1);
    const key = contract.mode + contract.ownerId;
    net.set(key, (net.get(key) ?? 0n) + got.returned! - contract.stake);
  }
  for (const mode of modes) {
    let usersNet = 0n;
    for (const owner of owners) {
      const change = userTotal(state, owner, mode) - userStart.get(mode + owner)!;
      expect(change, `seed ${seed}: ${mode} ${owner}`).toBe(net.get(mode + owner) ?? 0n);
      usersNet += change;
    }
    // The house's profit is the users' losses minus their wins.
    expect(houseTotal(state, mode) - houseStart.get(mode)!, `seed ${seed}: ${mode} house`).toBe(
      -usersNet,
    );
  }

  // Replay from the start, and from the snapshot taken midway: same events, same hash.
  const replay = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "500" }] });
  for (const command of commands) apply(replay, command);
  expect(stateHash(replay), `seed ${seed}: replay`).toBe(stateHash(state));
  const resumed = restore(midway!);
  checkInvariants(resumed);
  for (const command of commands.slice(midwayIndex)) apply(resumed, command);
  expect(stateHash(resumed), `seed ${seed}: resumed`).toBe(stateHash(state));
}

describe("seconds contracts against the reference", () => {
  for (let seed = 1; seed <= 10; seed++) {
    it(`seed ${seed}`, () => run(seed, 300));
  }
  it("reached every outcome", () => {
    for (const outcome of ["win", "loss", "tie", "no_tick"]) {
      expect(seen.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    }
  });
});
