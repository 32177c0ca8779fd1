// Profiles the kernel alone on the W4 stream: `node --cpu-prof --import tsx
// packages/kernel/bench/profile-w4.ts` (ROUNDS=n for more rounds, OPERATIONS=n for a shorter
// stream, e.g. under callgrind). Prints commands per second of CPU time for each round and the
// best round.
import { generate } from "./book-streams.ts";
import { kernelNames, kernelSetup, runKernel } from "./kernel-workload.ts";

const owners = 1_000;
const stream = generate({
  seed: 4,
  operations: Number(process.env.OPERATIONS ?? 1_000_000),
  restingTarget: 1_000,
  levelsPerSide: 800,
  quantityMax: 100,
  owners,
});
const names = kernelNames(stream, owners);
const rounds = Number(process.env.ROUNDS ?? 3);
let best = 0;
for (let round = 0; round < rounds; round++) {
  const run = kernelSetup(stream, names);
  const started = process.cpuUsage();
  runKernel(run, stream, names, 0, stream.length);
  const used = process.cpuUsage(started);
  const seconds = (used.user + used.system) / 1e6;
  const rate = Math.round(stream.length / seconds);
  best = Math.max(best, rate);
  console.log(`round ${round}: ${rate} commands per CPU second`);
}
console.log(`best: ${best}`);
