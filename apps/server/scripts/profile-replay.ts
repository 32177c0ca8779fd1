// Profiles W9's replay alone: `node --cpu-prof --import tsx apps/server/scripts/profile-replay.ts`.
// Writes the W9 stream's journal once (live, through the engine), then replays it `REPLAYS`
// times through `Engine.start`, printing the time of each phase, so the profile is mostly replay.
import { replayScratch } from "./replay-scratch.ts";
import { tradingStream } from "./replay-bench.ts";

const { engineOn, runLive, remove } = replayScratch("profile-replay");
try {
  const stream = tradingStream(Number(process.env.BENCH_ORDERS ?? 20_000));
  const liveHash = await runLive(stream);
  for (let round = 0; round < Number(process.env.REPLAYS ?? 5); round++) {
    const startNs = process.hrtime.bigint();
    const engine = await engineOn();
    const openedNs = process.hrtime.bigint();
    const { replayed, stateHash } = await engine.start();
    const endNs = process.hrtime.bigint();
    await engine.stop();
    if (stateHash !== liveHash) throw new Error("replay hash differs from live");
    console.log(
      JSON.stringify({
        replayed,
        openMs: Number(openedNs - startNs) / 1e6,
        replayMs: Number(endNs - openedNs) / 1e6,
      }),
    );
  }
} finally {
  remove();
}
