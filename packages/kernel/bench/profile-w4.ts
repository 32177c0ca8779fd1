// Profiles the kernel alone on the W4 stream: `node --cpu-prof --import tsx
// packages/kernel/bench/profile-w4.ts` (ROUNDS=n for more rounds, OPERATIONS=n for a shorter
// stream, e.g. under callgrind). Prints commands per second of CPU time for each round and the
// best round.
import { kernelNames, kernelSetup, runKernel, w4Owners, w4Stream } from "./kernel-workload.ts";

const stream = w4Stream(Number(process.env.OPERATIONS ?? 1_000_000));
const names = kernelNames(stream, w4Owners);
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
