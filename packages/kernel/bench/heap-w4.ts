// Allocation sampling (garbage included) of the kernel alone on the W4 stream (dev aid).
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { generate } from "./book-streams.ts";
import { kernelNames, kernelSetup, runKernel } from "./kernel-workload.ts";

const owners = 1_000;
const stream = generate({ seed: 4, operations: 300_000, restingTarget: 1_000, levelsPerSide: 800, quantityMax: 100, owners });
const names = kernelNames(stream, owners);
const warm = kernelSetup(stream, names);
runKernel(warm, stream, names, 0, stream.length);
const run = kernelSetup(stream, names);
const session = new Session();
session.connect();
const post = (method: string, params?: object) =>
  new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
await post("HeapProfiler.enable");
await post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
runKernel(run, stream, names, 0, stream.length);
const { profile } = await post("HeapProfiler.stopSampling");
writeFileSync(process.env.OUT ?? "/tmp/w4/alloc.heapprofile", JSON.stringify(profile));
console.log("commands", stream.length);
