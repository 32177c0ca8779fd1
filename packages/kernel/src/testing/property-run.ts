// What the kernel's property tests share: the snapshot taken halfway through a run and the replay
// from it, a random spot limit order, per-key sums, and the fee account check of the fee
// programmes (referral rebates, VIP discounts, agent rebates).

import { expect } from "vitest";
import { apply } from "../apply.ts";
import { accountOf, systemOwner } from "../ledger/accounts.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Command, type Mode } from "../types.ts";
import type { CommandMaker } from "./commands.ts";
import type { Random } from "./simulate.ts";

/**
 * A snapshot of the run's state at its middle step and the commands sent after it. Call `step`
 * at the top of every step; at the end, `expectSameHash` replays the rest from the snapshot and
 * expects the run's state hash.
 */
export class MidwayReplay {
  private taken: Uint8Array | null = null;
  private index = 0;

  constructor(
    private readonly state: KernelState,
    private readonly commands: readonly Command[],
  ) {}

  step(step: number, steps: number): void {
    if (step !== steps >> 1) return;
    this.taken = snapshot(this.state);
    this.index = this.commands.length;
  }

  expectSameHash(where: string): void {
    if (!this.taken) throw new Error("MidwayReplay: no snapshot was taken");
    const copy = restore(this.taken);
    for (const command of this.commands.slice(this.index)) apply(copy, command);
    expect(stateHash(copy), where).toBe(stateHash(this.state));
  }
}

/** Adds `value` to `key`'s sum. */
export function addTo(sums: Map<string, bigint>, key: string, value: bigint): void {
  sums.set(key, (sums.get(key) ?? 0n) + value);
}

/** A good-till-cancelled BTC-USDT limit order of one of `owners` around 30,000, 1–50 lots. */
export function randomSpotLimit(
  random: Random,
  c: CommandMaker,
  owners: readonly string[],
  mode: Mode,
): Command {
  return c.limit(
    random.pick(owners),
    "BTC-USDT",
    random.pick(["buy", "sell"] as const),
    random.int(2_990_000, 3_010_000),
    random.int(1, 50),
    "gtc",
    mode,
  );
}

/**
 * Each mode's fee account holds exactly the fees collected less what was paid out of them
 * (sums keyed `mode|asset`), and never paid more than it collected.
 */
export function expectFeeAccounts(
  state: KernelState,
  modes: readonly Mode[],
  collected: ReadonlyMap<string, bigint>,
  paidOut: ReadonlyMap<string, bigint>,
  seed: number,
): void {
  for (const mode of modes) {
    const fees = systemOwner(state, mode, systemOwners.fees);
    for (const asset of ["USDT", "BTC"]) {
      const key = mode + "|" + asset;
      const inn = collected.get(key) ?? 0n;
      const out = paidOut.get(key) ?? 0n;
      expect(out <= inn, `seed ${seed} ${key}`).toBe(true);
      expect(accountOf(state, fees, "fund", asset).available, `seed ${seed} ${key}`).toBe(
        inn - out,
      );
    }
  }
}
