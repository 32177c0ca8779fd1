// Profiles W9's replay alone: `node --cpu-prof --import tsx apps/server/scripts/profile-replay.ts`.
// Writes the W9 stream's journal once (live, through the engine), then replays it `REPLAYS`
// times through `Engine.start`, printing the time of each phase, so the profile is mostly replay.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Engine } from "../src/engine/engine.ts";
import { kernelPort } from "../src/engine/kernel-port.ts";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { fileSnapshotStore } from "../src/journal/snapshot-store.ts";
import { tradingStream } from "./replay-bench.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "candor-profile-replay-"));
const openJournal = () =>
  openFileJournal({
    directory: path.join(scratch, "journal"),
    onFatal: (error) => {
      throw error;
    },
  });
const engineOn = async () =>
  new Engine({
    kernel: kernelPort,
    journal: await openJournal(),
    snapshots: fileSnapshotStore({ directory: path.join(scratch, "snapshots") }),
    snapshotEvery: 0,
    clockTickMs: 0,
  });
try {
  const stream = tradingStream(Number(process.env.BENCH_ORDERS ?? 20_000));
  const live = await engineOn();
  await live.start();
  let index = 0;
  const client = async () => {
    while (index < stream.length) await live.submit(stream[index++]!);
  };
  await Promise.all(Array.from({ length: 64 }, client));
  const liveHash = live.stateHash();
  await live.stop();
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
  rmSync(scratch, { recursive: true, force: true });
}
