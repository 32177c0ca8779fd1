// Property tests: random clock advances, tick paths, partial and full repayments and collateral
// top-ups against one loan; after every command the kernel's loan must equal the slow reference
// (loans.reference.ts), the pool and the borrower's balances must add up to what was funded and
// deposited, and a snapshot restore must replay to the same state hash. A failure names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import type { Command } from "../types.ts";
import { DAY_MS } from "./math.ts";
import { ReferenceLoan } from "./loans.reference.ts";
import { getLoan } from "./views.ts";

const USDT = 1_000_000n;
const BTC = 100_000_000n;
const prices = ["30000", "24000.5", "18000", "15000.25", "13000", "11500", "9000", "40000.123"];

function total(state: KernelState, owner: string, wallet: "fund" | "contract", asset: string) {
  const b = getBalance(state, owner, "real", wallet, asset);
  return b.available + b.held;
}

function runSeed(seed: number): string[] {
  const random = new Random(seed);
  const state = createKernelState();
  const c = new CommandMaker();
  const must = (command: Command): void => {
    const { result } = apply(state, command);
    expect(result.ok, `seed ${seed}: ${command.type}`).toBe(true);
  };
  const termDays = random.int(1, 10);
  const dailyRatePpm = random.int(0, 3_000);
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT"),
    c.open("1"),
    c.deposit("1", "BTC", 3n * BTC),
    c.deposit("1", "USDT", 5_000n * USDT),
    c.deposit("system:treasury", "USDT", 100_000n * USDT),
    c.loansConfigure("p", { termDays, dailyRatePpm, tickAgeMaxMs: 600_000 }),
    c.loansFund("USDT", 100_000n * USDT),
    c.tick("BTC-USDT", "30000"),
  ]) {
    must(command);
  }
  const principal = BigInt(random.int(100, 19_000)) * USDT;
  const apply1 = c.loansApply("1", "p", principal, BTC);
  must(apply1);
  const loanId = apply1.id;
  const started = getLoan(state, loanId)!.startedAtMs!;
  const reference = new ReferenceLoan(
    {
      termDays,
      dailyRatePpm,
      ltvMarginCallBps: 7_500,
      ltvLiquidationBps: 8_500,
      collateralScale: 8,
      loanScale: 6,
    },
    principal,
    BTC,
    started,
  );
  const commands: Command[] = [];
  // Restoring a snapshot at every step gives the same state hash.
  const statuses: string[] = [];
  for (let step = 0; step < 60 && reference.status === "active"; step++) {
    const roll = random.next();
    let command: Command;
    if (roll < 0.35) {
      c.nowMs += random.int(1, 3) * (random.next() < 0.5 ? DAY_MS : 3_600_000);
      command = c.clock();
      reference.clock(command.atMs);
    } else if (roll < 0.7) {
      command = c.tick("BTC-USDT", prices[random.int(0, prices.length - 1)]!);
      reference.tick((command as { price: string }).price);
    } else if (roll < 0.9) {
      const amount = BigInt(random.int(1, 2_000)) * USDT * (random.next() < 0.2 ? 20n : 1n);
      command = c.loansRepay("1", loanId, amount);
      const before = total(state, "1", "fund", "USDT");
      const { result } = apply(state, command);
      if (result.ok) {
        const taken = reference.repay(amount);
        expect(before - total(state, "1", "fund", "USDT"), `seed ${seed} repay`).toBe(taken);
      }
      commands.push(command);
      checkInvariants(state);
      compare(state, reference, loanId, seed);
      continue;
    } else {
      command = c.loansAddCollateral("1", loanId, BigInt(random.int(1, 50)) * 1_000_000n);
      const { result } = apply(state, command);
      if (result.ok) reference.collateral += (command as { amount: bigint }).amount;
      commands.push(command);
      checkInvariants(state);
      compare(state, reference, loanId, seed);
      continue;
    }
    must(command);
    commands.push(command);
    checkInvariants(state);
    expect(stateHash(restore(snapshot(state))), `seed ${seed} restore`).toBe(stateHash(state));
    compare(state, reference, loanId, seed);
  }
  // Conservation: user + pool + treasury fund hold what was deposited, in both assets.
  expect(
    total(state, "1", "fund", "USDT") +
      total(state, "system:treasury", "contract", "USDT") +
      total(state, "system:treasury", "fund", "USDT"),
  ).toBe(105_000n * USDT);
  expect(
    total(state, "1", "fund", "BTC") + total(state, "system:treasury", "contract", "BTC"),
  ).toBe(3n * BTC);
  statuses.push(reference.status);
  return statuses;
}

function compare(state: KernelState, reference: ReferenceLoan, loanId: string, seed: number): void {
  const loan = getLoan(state, loanId)!;
  expect(
    {
      status: loan.status,
      principal: loan.principal,
      interest: loan.interest,
      lateFees: loan.lateFees,
      days: loan.status === "active" ? loan.daysAccrued : reference.days,
      forced: loan.status === "active" ? loan.forcedClose : reference.forced,
      marginCall: loan.marginCall,
      collateral: loan.collateral,
      seized: loan.collateralSeized,
      shortfall: loan.shortfall,
    },
    `seed ${seed}`,
  ).toEqual({
    status: reference.status,
    principal: reference.principal,
    interest: reference.interest,
    lateFees: reference.lateFees,
    days: reference.days,
    forced: reference.forced,
    marginCall: reference.marginCall,
    collateral: reference.collateral,
    seized: reference.seized,
    shortfall: reference.shortfall,
  });
}

describe("loans against the reference model", () => {
  it("agrees on 200 random loans and reaches both endings", () => {
    const endings = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) for (const s of runSeed(seed)) endings.add(s);
    expect([...endings].sort()).toEqual(["liquidated", "repaid"]);
  });

  it("replays the same commands to the same state hash, from the start and from a snapshot", () => {
    const build = (): { state: KernelState; commands: Command[] } => {
      const state = createKernelState();
      const c = new CommandMaker();
      const commands = [
        c.asset("USDT", 6),
        c.asset("BTC", 8),
        c.market("BTC-USDT", "BTC", "USDT"),
        c.open("1"),
        c.deposit("1", "BTC", BTC),
        c.deposit("system:treasury", "USDT", 50_000n * USDT),
        c.loansConfigure("p"),
        c.loansFund("USDT", 50_000n * USDT),
        c.tick("BTC-USDT", "30000"),
        c.loansApply("1", "p", 10_000n * USDT, BTC),
        ((c.nowMs += 3 * DAY_MS), c.clock()),
        c.tick("BTC-USDT", "13000"),
        ((c.nowMs += 6 * DAY_MS), c.clock()),
        c.tick("BTC-USDT", "20000"),
      ];
      return { state, commands };
    };
    const a = build();
    const b = build();
    for (const command of a.commands) apply(a.state, command);
    let copy: KernelState | null = null;
    b.commands.forEach((command, i) => {
      apply(copy ?? b.state, command);
      if (i === 11) copy = restore(snapshot(b.state));
    });
    expect(stateHash(copy!)).toBe(stateHash(a.state));
  });
});
