// `npm run bench -- memory`: bytes per resting order in the kernel (order, hold, book level and
// id index; the command memory pruned, as a running server's clock ticks do) against
// nodejs-order-book 10.1.1 resting the same orders in the same process; then the server's idle
// RSS (`apps/server/scripts/startup-bench.ts` with no restarts; MEMORY_SERVER=0 skips it).
// Heap figures are `heapUsed` after a full GC (the script runs with --expose-gc).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { OrderBook as PeerBook, Side as PeerSide } from "nodejs-order-book";
import { apply } from "../src/index.ts";
import type { Stream } from "./book-streams.ts";
import { kernelNames, kernelSetup } from "./kernel-workload.ts";

const orders = Number(process.env.MEMORY_ORDERS ?? 100_000);
const owners = 1_000;
const levels = 800;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (npm run bench -- memory does)");
function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Resting prices: bids below 1000.00, asks above, spread over `levels` ticks per side. */
const price = (i: number) =>
  i % 2 === 0 ? 100_000 - 1 - (i % levels) : 100_000 + 1 + (i % levels);

// Ours: the whole kernel.
const emptyStream = { orderId: { length: 0 } } as unknown as Stream;
const names = kernelNames(emptyStream, owners);
const run = kernelSetup(emptyStream, names);
const commandIds = Array.from({ length: orders }, (_, i) => `m${i}`);
const before = heapAfterGc();
for (let i = 0; i < orders; i++) {
  const { result } = apply(run.state, {
    type: "place_order",
    id: commandIds[i]!,
    atMs: run.atMs++,
    ownerId: names.ownerIds[1 + (i % owners)]!,
    mode: "real",
    marketId: "BTC-USDT",
    side: i % 2 === 0 ? "buy" : "sell",
    orderType: "limit",
    timeInForce: "gtc",
    priceTicks: price(i),
    quantityLots: 1 + (i % 100),
    quoteAmount: null,
  });
  if (!result.ok || result.value.restingLots === 0) throw new Error(`order ${i} did not rest`);
}
const withMemory = heapAfterGc();
// A minute later the command memory has forgotten them (idempotency window 60 s).
run.atMs += 61_000;
apply(run.state, { type: "clock_tick", id: "memory-clock", atMs: run.atMs });
const ours = heapAfterGc();

// The peer book, same orders.
const peerIds = Array.from({ length: orders }, (_, i) => `p${i}`);
const peer = new PeerBook();
const peerBefore = heapAfterGc();
for (let i = 0; i < orders; i++) {
  peer.limit({
    id: peerIds[i]!,
    side: i % 2 === 0 ? PeerSide.BUY : PeerSide.SELL,
    size: 1 + (i % 100),
    price: price(i),
  });
}
const theirs = heapAfterGc();

const perOrder = (bytes: number) => Math.round(bytes / orders);
console.log(
  JSON.stringify({
    workload: "memory",
    kind: "bytes per resting order",
    orders,
    owners,
    levelsPerSide: levels,
    oursBytes: perOrder(ours - before),
    oursWithCommandMemoryBytes: perOrder(withMemory - before),
    peerBytes: perOrder(theirs - peerBefore),
    ratio: Number(((ours - before) / (theirs - peerBefore)).toFixed(2)),
  }),
);
// Keep both alive until measured.
if (run.state === undefined || peer === undefined) process.exit(1);

if (process.env.MEMORY_SERVER !== "0") {
  const root = path.resolve(import.meta.dirname, "../../..");
  spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/scripts/startup-bench.ts")],
    {
      stdio: "inherit",
      cwd: root,
      env: {
        ...process.env,
        STARTUP_RESTARTS: "0",
        STARTUP_IDLE_SECONDS: process.env.STARTUP_IDLE_SECONDS ?? "30",
      },
    },
  );
}
