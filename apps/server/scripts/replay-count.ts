// W9 by instruction counts (`valgrind --tool=callgrind node --single-threaded`), for when the
// shared machine makes wall and CPU time too noisy to compare: LIVE fresh live runs of the W9
// stream through the engine (journal + fdatasync + kernel, 64 clients), then REPLAYS restarts
// (open + `Engine.start`) of the last journal. Per live run = C(2,1) − C(1,1); per replay =
// (C(1,3) − C(1,1)) / 2. Also runs without valgrind (prints CPU ms per phase).
import path from "node:path";
import { tradingStream } from "./replay-bench.ts";
import { cpuMs, replayScratch } from "./replay-scratch.ts";

const lives = Number(process.env.LIVE ?? 1);
const replays = Number(process.env.REPLAYS ?? 1);
const { scratch, engineOn, runLive, remove } = replayScratch("replay-count");
try {
  const stream = tradingStream(Number(process.env.BENCH_ORDERS ?? 20_000));
  let directory = "";
  let liveHash = "";
  for (let run = 0; run < lives; run++) {
    directory = path.join(scratch, `live-${run}`);
    const cpu = process.cpuUsage();
    liveHash = await runLive(stream, directory);
    console.log(JSON.stringify({ live: run, cpuMs: Math.round(cpuMs(cpu)) }));
  }
  for (let run = 0; run < replays; run++) {
    const cpu = process.cpuUsage();
    const engine = await engineOn(directory);
    const { stateHash, replayed } = await engine.start();
    await engine.stop();
    if (stateHash !== liveHash) throw new Error("replay hash differs from live");
    console.log(JSON.stringify({ replay: run, replayed, cpuMs: Math.round(cpuMs(cpu)) }));
  }
} finally {
  remove();
}
