// Allocation sampling of the kernel alone on a 300K-operation W4 stream, garbage included (the
// `--heap-prof` flag keeps only what is live at the end): `node --import tsx
// packages/kernel/bench/heap-w4.ts` (OUT=file). One warm-up run, then one sampled run on a fresh
// kernel; open the profile in Chrome DevTools (Memory) or sum its nodes' `selfSize`. MINOR=0
// leaves out what scavenges collect: what is left was promoted or allocated in the old generation.
import { writeFileSync } from "node:fs";
import { sampleAllocations } from "./heap-sample.ts";
import { kernelNames, kernelSetup, runKernel, w4Owners, w4Stream } from "./kernel-workload.ts";

const stream = w4Stream(300_000);
const names = kernelNames(stream, w4Owners);
runKernel(kernelSetup(stream, names), stream, names, 0, stream.length);
const run = kernelSetup(stream, names);
const profile = sampleAllocations(() => runKernel(run, stream, names, 0, stream.length), {
  minorGarbage: process.env.MINOR !== "0",
  intervalBytes: 1024,
});
writeFileSync(process.env.OUT ?? "w4.heapprofile", JSON.stringify(profile));
console.log(`sampled ${stream.length} commands`);
