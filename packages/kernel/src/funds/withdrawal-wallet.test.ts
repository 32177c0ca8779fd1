// `withdrawal_hold_wallet` (type code 81): a withdrawal held on the fund or fiat wallet (bank-card
// withdrawals are paid from the fiat wallet). Scenarios, then a property test against an obvious
// model (available and held per wallet in maps), with a snapshot and a journal replay mid-way.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { decodeCommand, encodeCommand } from "../command-codec.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance, getWithdrawal } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import type { Command, Wallet } from "../types.ts";

const USDT = 1_000_000n;

function setup() {
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "100" }] });
  const c = new CommandMaker();
  for (const command of [
    c.asset("USDT", 6),
    c.open("1"),
    c.open("1", "demo"),
    c.deposit("1", "USDT", 1_000n * USDT),
    c.transferWallet("1", "USDT", 400n * USDT, "fund", "fiat"),
  ]) {
    expect(apply(state, command).result.ok).toBe(true);
  }
  return { state, c };
}

function wallet(state: KernelState, w: Wallet, mode: "real" | "demo" = "real") {
  const b = getBalance(state, "1", mode, w, "USDT");
  return [b.available, b.held];
}

describe("withdrawal_hold_wallet", () => {
  it("holds amount + fee on the fiat wallet, pays out and releases from it", () => {
    const { state, c } = setup();
    const held = apply(
      state,
      c.withdrawHoldWallet("1", "fiat", "USDT", 100n * USDT, 2n * USDT, "b1"),
    );
    expect(held.result.ok).toBe(true);
    expect(wallet(state, "fiat")).toEqual([298n * USDT, 102n * USDT]);
    expect(wallet(state, "fund")).toEqual([600n * USDT, 0n]);
    expect(getWithdrawal(state, "b1")).toMatchObject({ status: "pending", fee: 2n * USDT });
    const fees = getBalance(state, "system:fees", "real", "fund", "USDT").available;
    expect(apply(state, c.withdrawComplete("b1")).result.ok).toBe(true);
    expect(wallet(state, "fiat")).toEqual([298n * USDT, 0n]);
    expect(getBalance(state, "system:fees", "real", "fund", "USDT").available).toBe(
      fees + 2n * USDT,
    );
    expect(
      apply(state, c.withdrawHoldWallet("1", "fiat", "USDT", 50n * USDT, 0n, "b2")).result.ok,
    ).toBe(true);
    expect(apply(state, c.withdrawCancel("b2")).result.ok).toBe(true);
    expect(wallet(state, "fiat")).toEqual([298n * USDT, 0n]);
    checkInvariants(state);
  });

  it("refuses demo mode, the contract wallet, more than the wallet holds and a negative fee", () => {
    const { state, c } = setup();
    const code = (command: Command) => {
      const out = apply(state, command);
      return out.result.ok ? "ok" : out.result.code;
    };
    expect(code(c.withdrawHoldWallet("1", "fiat", "USDT", 1n, 0n, "d1", "demo"))).toBe(
      "demo_not_allowed",
    );
    expect(code(c.withdrawHoldWallet("1", "contract", "USDT", 1n, 0n, "d2"))).toBe(
      "wallet_invalid",
    );
    // The fund wallet's 600 do not count for a fiat-wallet withdrawal.
    expect(code(c.withdrawHoldWallet("1", "fiat", "USDT", 400n * USDT, 1n, "d3"))).toBe(
      "insufficient_balance",
    );
    expect(code(c.withdrawHoldWallet("1", "fiat", "USDT", 1n, -1n, "d4"))).toBe(
      "amount_negative_not_allowed",
    );
    expect(code(c.withdrawHoldWallet("1", "fiat", "USDT", 0n, 0n, "d5"))).toBe(
      "amount_must_be_positive",
    );
    expect(wallet(state, "fiat")).toEqual([400n * USDT, 0n]);
  });

  it("encodes in the journal and survives a snapshot", () => {
    const { state, c } = setup();
    const command = c.withdrawHoldWallet("1", "fiat", "USDT", 7n * USDT, 1n, "e1");
    expect(decodeCommand(encodeCommand(command))).toEqual(command);
    apply(state, command);
    const copy = restore(snapshot(state));
    expect(stateHash(copy)).toBe(stateHash(state));
    expect(apply(copy, c.withdrawCancel("e1")).result.ok).toBe(true);
    expect(wallet(copy, "fiat")).toEqual([400n * USDT, 0n]);
  });

  it.each([1, 2, 3, 4, 5])("agrees with a model of held and available (seed %i)", (seed) => {
    const random = new Random(seed);
    const { state, c } = setup();
    const model = new Map<string, bigint>([
      ["fund|available", 600n * USDT],
      ["fiat|available", 400n * USDT],
      ["fund|held", 0n],
      ["fiat|held", 0n],
    ]);
    const pending = new Map<string, { wallet: "fund" | "fiat"; total: bigint }>();
    const ids: string[] = [];
    const history: Command[] = [];
    let snapshotBytes: Uint8Array | null = null;
    let snapshotAt = 0;
    const add = (key: string, delta: bigint) => model.set(key, model.get(key)! + delta);
    for (let step = 0; step < 300; step++) {
      if (step === 150) {
        snapshotBytes = snapshot(state);
        snapshotAt = history.length;
      }
      const roll = random.next();
      let command: Command;
      let expectOk: boolean;
      let after: () => void;
      if (roll < 0.5) {
        const w = random.pick(["fund", "fiat"] as const);
        const amount = BigInt(random.int(1, 150)) * USDT;
        const fee = BigInt(random.int(0, 3)) * USDT;
        const id = `p${step}`;
        command = c.withdrawHoldWallet("1", w, "USDT", amount, fee, id);
        expectOk = model.get(`${w}|available`)! >= amount + fee;
        after = () => {
          add(`${w}|available`, -(amount + fee));
          add(`${w}|held`, amount + fee);
          pending.set(id, { wallet: w, total: amount + fee });
          ids.push(id);
        };
      } else if (roll < 0.75) {
        const id = ids.length > 0 ? random.pick(ids) : "none";
        command = c.withdrawComplete(id);
        const found = pending.get(id);
        expectOk = found !== undefined;
        after = () => {
          add(`${found!.wallet}|held`, -found!.total);
          pending.delete(id);
        };
      } else if (roll < 0.9) {
        const id = ids.length > 0 ? random.pick(ids) : "none";
        command = c.withdrawCancel(id);
        const found = pending.get(id);
        expectOk = found !== undefined;
        after = () => {
          add(`${found!.wallet}|held`, -found!.total);
          add(`${found!.wallet}|available`, found!.total);
          pending.delete(id);
        };
      } else {
        const amount = BigInt(random.int(1, 200)) * USDT;
        command = c.deposit("1", "USDT", amount);
        expectOk = true;
        after = () => add("fund|available", amount);
      }
      const out = apply(state, command);
      history.push(command);
      expect(out.result.ok, `seed ${seed} step ${step}`).toBe(expectOk);
      if (out.result.ok) after();
      checkInvariants(state);
      for (const w of ["fund", "fiat"] as const) {
        expect(wallet(state, w), `seed ${seed} step ${step} ${w}`).toEqual([
          model.get(`${w}|available`),
          model.get(`${w}|held`),
        ]);
      }
    }
    const copy = restore(snapshotBytes!);
    for (const command of history.slice(snapshotAt))
      apply(copy, decodeCommand(encodeCommand(command)));
    expect(stateHash(copy)).toBe(stateHash(state));
  });
});
