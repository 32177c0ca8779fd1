// Builds a liabilities tree of 100,000 users × 12 assets (bits 128) and prints one JSON line:
// build time (median of 3 after a warm-up, wall clock and CPU), proof and root sizes as JSON text, and the time
// to verify one proof. `npx tsx packages/proof/bench/build-tree.ts [users] [assets]`
import {
  buildTree,
  computeLeafId,
  encodeProof,
  encodeRoot,
  verifyInclusion,
} from "../src/index.ts";
import { sampleInput } from "../src/testing.ts";

const users = Number(process.argv[2] ?? 100_000);
const assetCount = Number(process.argv[3] ?? 12);
const assets = Array.from({ length: assetCount }, (_, i) => `ASSET${i}`);
// Amounts of realistic magnitude: up to ~10^22 units (10,000 of an 18-decimal coin).
const input = sampleInput(users, assets, (user, asset) => {
  const mix = BigInt(((user + 1) * 2_654_435_761 + asset * 40_503) % 1_000_003);
  return asset % 3 === 0 ? 0n : mix * 10n ** BigInt(asset + 5);
});

/** Wall-clock and CPU time (all threads, so garbage collection counts) of one run. */
function time<T>(run: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;

buildTree(sampleInput(1_000, assets, () => 1n)); // Warm-up.
// Keep one tree at a time, as a server would.
const timings = [0, 1, 2].map(() => time(() => buildTree(input).root));
const buildMs = median(timings.map((timing) => timing.ms));
const buildCpuMs = median(timings.map((timing) => timing.cpuMs));
const tree = buildTree(input);

const entry = input.leaves[users >> 1]!;
const proof = tree.proof(computeLeafId(entry.userId, entry.salt));
const verify = time(() => verifyInclusion(proof, tree.root, entry.userId, entry.salt));
if (!verify.value.ok) throw new Error(`verification failed: ${verify.value.reason}`);

const encoder = new TextEncoder();
console.log(
  JSON.stringify({
    users,
    assets: assetCount,
    bits: 128,
    depth: tree.depth,
    buildMs: Math.round(buildMs),
    buildCpuMs: Math.round(buildCpuMs),
    proofBytes: encoder.encode(JSON.stringify(encodeProof(proof))).length,
    rootBytes: encoder.encode(JSON.stringify(encodeRoot(tree.root))).length,
    verifyMs: Number(verify.ms.toFixed(2)),
    heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }),
);
