// Diagnosis only: BENCH_HEAP_SAMPLE=<prefix> samples what each timed kernel round allocates that
// survives a scavenge (V8's sampling heap profiler, minor-GC garbage left out) and writes
// `<prefix>-<round>.heapprofile`. Timings of sampled rounds are not comparable.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

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
    const session = new Session();
    session.connect();
    // The in-process session answers synchronously.
    let profile: unknown;
    session.post("HeapProfiler.enable");
    session.post("HeapProfiler.startSampling", {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
    run(from, to);
    session.post("HeapProfiler.stopSampling", (_error, result) => {
      profile = result.profile;
    });
    session.disconnect();
    writeFileSync(`${prefix}-${round++}.heapprofile`, JSON.stringify(profile));
  };
}
