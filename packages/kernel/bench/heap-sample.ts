// V8's sampling heap profiler around one piece of work (diagnosis only: sampled work is slower).
// `heapSampled` is the W4 bench's hook: BENCH_HEAP_SAMPLE=<prefix> samples what each timed kernel
// round allocates that survives a scavenge and writes `<prefix>-<round>.heapprofile`.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

/**
 * The allocation profile of `work` (a `.heapprofile` object), objects collected by mark-compacts
 * included; `minorGarbage` false leaves out what scavenges collect, so what is left was promoted
 * or allocated in the old generation. The in-process session answers synchronously.
 */
export function sampleAllocations(
  work: () => void,
  options: { minorGarbage: boolean; intervalBytes: number },
): unknown {
  const session = new Session();
  session.connect();
  let profile: unknown;
  session.post("HeapProfiler.enable");
  session.post("HeapProfiler.startSampling", {
    samplingInterval: options.intervalBytes,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: options.minorGarbage,
  });
  work();
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) throw error;
    profile = result.profile;
  });
  session.disconnect();
  if (profile === undefined) throw new Error("the heap profiler did not answer");
  return profile;
}

const prefix = process.env.BENCH_HEAP_SAMPLE;
let round = 0;

/** `run`, sampled when it runs the timed part (from `timedFrom`) and BENCH_HEAP_SAMPLE is set. */
export function heapSampled(
  timedFrom: number,
  run: (from: number, to: number) => void,
): (from: number, to: number) => void {
  if (!prefix) return run;
  return (from, to) => {
    if (from !== timedFrom) return run(from, to);
    const profile = sampleAllocations(() => run(from, to), {
      minorGarbage: false,
      intervalBytes: 4096,
    });
    writeFileSync(`${prefix}-${round++}.heapprofile`, JSON.stringify(profile));
  };
}
