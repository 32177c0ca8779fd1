// `npm run bench -- perp [positions] [liquidated]`: one index tick that liquidates 10,000 of
// 100,000 open isolated positions, and quiet ticks that liquidate nothing, through the whole
// kernel (`apply(record_tick)`: mark, sorted trigger index, liquidation orders, insurance-fund
// takeovers, re-indexing). In the same run and on the same positions, the naive alternative:
// a scan of every position's margin test at the mark (what a tick costs without the index),
// and the spec trigger index (`trigger-index.reference.ts`, a Map scan and sort) against the
// sorted one. Prints one JSON line.
import os from "node:os";
import { apply } from "../src/apply.ts";
import { createKernelState } from "../src/state.ts";
import type { Command } from "../src/types.ts";
import { perpDefinition, PERP, INDEX } from "../src/perp/kernel-testing.ts";
import { marginState } from "../src/perp/margin.ts";
import { poolOf } from "../src/perp/engine.ts";
import { createTriggerIndex } from "../src/perp/trigger-index.ts";
import { createReferenceTriggerIndex } from "../src/perp/trigger-index.reference.ts";

const positions = Number(process.argv[2] ?? 100_000);
const liquidated = Number(process.argv[3] ?? 10_000);
const USDT = 1_000_000n;

const state = createKernelState({ openOrdersPerOwnerMax: 10 });
let serial = 0;
let nowMs = 1_000;
function run(command: Record<string, unknown>): void {
  const full = { ...command, id: `b${++serial}`, atMs: nowMs++ } as unknown as Command;
  const out = apply(state, full);
  if (!out.result.ok) throw new Error(`${String(command.type)}: ${out.result.code}`);
}
function fund(ownerId: string, amount: bigint): void {
  run({ type: "open_accounts", ownerId, mode: "real" });
  const base = { ownerId, mode: "real", assetId: "USDT", amount };
  run({ type: "credit_deposit", ...base, reference: `d${serial}`, operatorId: null });
  run({ type: "transfer_wallet", ...base, sourceWallet: "fund", targetWallet: "contract" });
}
let tickSerial = 0;
function tick(price: string): number {
  const started = performance.now();
  run({
    type: "record_tick",
    tickId: `t${++tickSerial}`,
    instrumentId: INDEX,
    price,
    tickAtMs: nowMs,
  });
  return performance.now() - started;
}

const setupStarted = performance.now();
run({ type: "define_asset", assetId: "USDT", scale: 6, amountMax: null });
run({ ...perpDefinition({ quantityLotsMax: 1_000_000 }) });
fund("maker", 100_000_000n * USDT);
run({ type: "set_perp_leverage", ownerId: "maker", mode: "real", marketId: PERP, leverage: 5 });
tick("50000.0");
// One resting sell that every user buys one lot from.
run({
  type: "place_perp_order",
  ownerId: "maker",
  mode: "real",
  marketId: PERP,
  side: "sell",
  orderType: "limit",
  timeInForce: "gtc",
  priceTicks: 500_000,
  quantityLots: positions,
  reduceOnly: false,
});
for (let i = 0; i < positions; i++) {
  const ownerId = `u${i}`;
  fund(ownerId, 1_000n * USDT);
  const base = { ownerId, mode: "real", marketId: PERP };
  run({ type: "set_perp_margin_mode", ...base, marginMode: "isolated" });
  // Every tenth user at 50× (liquidated about 1.5 % down), the rest at 2×–9× (far below).
  const leverage = i % Math.round(positions / liquidated) === 0 ? 50 : 2 + (i % 8);
  run({ type: "set_perp_leverage", ...base, leverage });
  run({
    type: "place_perp_order",
    ...base,
    side: "buy",
    orderType: "limit",
    timeInForce: "ioc",
    priceTicks: 500_000,
    quantityLots: 1,
    reduceOnly: false,
  });
}
const setupSeconds = (performance.now() - setupStarted) / 1000;
const side = state.perp.markets.get(PERP)!.real;
const accounts = [...side.accounts.values()].filter(
  (a) => !a.owner.system && a.owner.ownerId !== "maker",
);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// Quiet ticks: the mark moves by one tick, nothing fires.
const quiet: number[] = [];
for (let i = 0; i < 201; i++) quiet.push(tick(i % 2 === 0 ? "50000.1" : "50000.0"));

// The naive scan on the same positions: every margin test at the mark.
const naive: number[] = [];
let naiveHits = 0;
for (let round = 0; round < 21; round++) {
  const started = performance.now();
  let hits = 0;
  for (const account of accounts) {
    if (account.position.sizeLots === 0n) continue;
    if (
      marginState(side.market.params, account.position, poolOf(state, account), 500_000n)
        .liquidatable
    ) {
      hits++;
    }
  }
  naive.push(performance.now() - started);
  naiveHits = hits;
}

// Index alone against the spec index: the same triggers, a quiet mark.
const fast = createTriggerIndex();
const slow = createReferenceTriggerIndex();
for (const trigger of side.triggers.list()) {
  fast.upsert(trigger);
  slow.upsert(trigger);
}
const fastQuiet: number[] = [];
const slowQuiet: number[] = [];
for (let i = 0; i < 21; i++) {
  let started = performance.now();
  fast.fire(500_000n);
  fastQuiet.push(performance.now() - started);
  started = performance.now();
  slow.fire(500_000n);
  slowQuiet.push(performance.now() - started);
}

// The crash tick: 1.6 % down liquidates exactly the 50× positions.
const before = side.triggers.size;
const crashMs = tick("49200.0");
const liquidations = accounts.filter((a) => a.position.sizeLots === 0n).length;

const quietMs = median(quiet);
const naiveMs = median(naive);
console.log(
  JSON.stringify({
    benchmark: "perp",
    machine: `${os.cpus()[0]?.model ?? "?"} × ${os.cpus().length}, node ${process.version}`,
    date: new Date().toISOString().slice(0, 10),
    positions: accounts.length,
    triggersBefore: before,
    setupSeconds: Number(setupSeconds.toFixed(1)),
    liquidations,
    crashTickMs: Number(crashMs.toFixed(1)),
    perLiquidationUs: Number(((crashMs * 1000) / Math.max(1, liquidations)).toFixed(1)),
    quietTickUs: Number((quietMs * 1000).toFixed(1)),
    naiveScanUs: Number((naiveMs * 1000).toFixed(1)),
    naiveHitsAtQuietMark: naiveHits,
    speedupQuietTick: Number((naiveMs / quietMs).toFixed(1)),
    indexFireQuietUs: Number((median(fastQuiet) * 1000).toFixed(2)),
    referenceIndexFireQuietUs: Number((median(slowQuiet) * 1000).toFixed(1)),
  }),
);
