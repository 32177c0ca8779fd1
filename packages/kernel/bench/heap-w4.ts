// Allocation sampling of the kernel alone on a 300K-operation W4 stream, garbage included (the
// `--heap-prof` flag keeps only what is live at the end): `node --import tsx
// packages/kernel/bench/heap-w4.ts` (OUT=file). One warm-up run, then one sampled run on a fresh
// kernel; open the profile in Chrome DevTools (Memory) or sum its nodes' `selfSize`. MINOR=0
// leaves out what scavenges collect: what is left was promoted or allocated in the old generation.
import { writeFileSync } from "node:fs";
import { generate } from "./book-streams.ts";
import { sampleAllocations } from "./heap-sample.ts";
import { kernelNames, kernelSetup, runKernel } from "./kernel-workload.ts";

const owners = 1_000;
const stream = generate({
  seed: 4,
  operations: 300_000,
  restingTarget: 1_000,
  levelsPerSide: 800,
  quantityMax: 100,
  owners,
});
const names = kernelNames(stream, owners);
runKernel(kernelSetup(stream, names), stream, names, 0, stream.length);
const run = kernelSetup(stream, names);
const profile = sampleAllocations(() => runKernel(run, stream, names, 0, stream.length), {
  minorGarbage: process.env.MINOR !== "0",
  intervalBytes: 1024,
});
writeFileSync(process.env.OUT ?? "w4.heapprofile", JSON.stringify(profile));
console.log(`sampled ${stream.length} commands`);
