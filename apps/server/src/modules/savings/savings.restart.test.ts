// Payouts on the right days across a restart of the whole write path: the engine stops in the
// middle of a cycle and a new engine replays the file journal (no snapshot) to the same state
// hash; the next day's payout then comes exactly once, and the principal at maturity.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getBalance, type Command, type KernelState } from "@candor/kernel";
import { afterAll, expect, it } from "vitest";
import { Engine, type Unstamped } from "../../engine/engine.ts";
import { kernelPort } from "../../engine/kernel-port.ts";
import { openFileJournal } from "../../journal/file-journal.ts";
import { fileSnapshotStore } from "../../journal/snapshot-store.ts";

const DAY = 86_400_000;
const directory = mkdtempSync(path.join(tmpdir(), "candor-savings-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let nowMs = Date.parse("2026-11-27T00:00:00Z");

async function startEngine() {
  const journal = await openFileJournal({
    directory: path.join(directory, "journal"),
    onFatal: (error) => {
      throw error;
    },
  });
  const engine = new Engine({
    kernel: kernelPort,
    journal,
    // Never written (snapshotEvery 0): the restart replays the whole journal.
    snapshots: fileSnapshotStore({ directory: path.join(directory, "snapshots") }),
    now: () => nowMs,
    clockTickMs: 0,
    snapshotEvery: 0,
  });
  const started = await engine.start();
  return { engine, started };
}

it("pays each day once across an engine restart from the journal", async () => {
  let { engine } = await startEngine();
  let serial = 0;
  const submit = async (command: Unstamped<Command>) => {
    const applied = await engine.submit(command);
    expect(applied.result.ok, JSON.stringify(applied.result)).toBe(true);
  };
  const clock = () => submit({ type: "clock_tick", id: `clock-${++serial}` });
  const balance = () =>
    engine.query((s: KernelState) => getBalance(s, "u1", "real", "fund", "USDT").available);
  await submit({ type: "define_asset", id: "asset", assetId: "USDT", scale: 6, amountMax: null });
  await submit({ type: "open_accounts", id: "open", ownerId: "u1", mode: "real" });
  await submit({
    type: "credit_deposit",
    id: "deposit",
    ownerId: "u1",
    mode: "real",
    assetId: "USDT",
    amount: 100_000_000n,
    reference: "bank",
    operatorId: "op",
  });
  await submit({
    type: "savings_define_plan",
    id: "plan",
    planId: "p3",
    kind: "savings",
    name: "Three days",
    details: "",
    assetId: "USDT",
    cycleDays: 3,
    dailyRateE8: 1_000_000,
    startDelayMs: 0,
    amountMin: 1_000_000n,
    amountMax: 100_000_000n,
    amountStep: 1n,
    capacity: 1_000_000_000n,
    earlyRedemption: "none",
    earlyPenaltyBps: 0,
    open: true,
    operatorId: "op",
  });
  await submit({
    type: "savings_fund_yield",
    id: "fund",
    mode: "real",
    assetId: "USDT",
    amount: 3_000_000n,
    reference: "wire",
    operatorId: "op",
  });
  await submit({
    type: "savings_subscribe",
    id: "sub",
    ownerId: "u1",
    mode: "real",
    planId: "p3",
    amount: 100_000_000n,
  });
  expect(balance()).toBe(0n);
  nowMs += DAY;
  await clock();
  expect(balance()).toBe(1_000_000n);
  const hash = engine.stateHash();
  await engine.stop();

  // Restart: replay the journal; the same state, and day 1 is not paid again.
  ({ engine } = await startEngine());
  expect(engine.stateHash()).toBe(hash);
  await clock();
  expect(balance()).toBe(1_000_000n);
  nowMs += DAY;
  await clock();
  expect(balance()).toBe(2_000_000n);
  nowMs += DAY;
  await clock();
  // Day 3 and the principal at maturity.
  expect(balance()).toBe(103_000_000n);
  await engine.stop();
});
