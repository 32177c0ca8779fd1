// What the W9 replay measuring scripts share (profile-replay.ts, replay-phases.ts,
// replay-count.ts): a scratch folder, engines on file journals in it (no snapshots, no clock),
// the W9 stream run live through one, and CPU time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Engine } from "../src/engine/engine.ts";
import { kernelPort, type CandorCommand } from "../src/engine/kernel-port.ts";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { fileSnapshotStore } from "../src/journal/snapshot-store.ts";

/** CPU milliseconds (user + system) since `start`. */
export function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** A scratch folder named after `name`; `remove` deletes it. Paths default to the folder. */
export function replayScratch(name: string) {
  const scratch = mkdtempSync(path.join(tmpdir(), `candor-${name}-`));
  const openJournal = (directory = scratch) =>
    openFileJournal({
      directory: path.join(directory, "journal"),
      onFatal: (error) => {
        throw error;
      },
    });
  const engineOn = async (directory = scratch) =>
    new Engine({
      kernel: kernelPort,
      journal: await openJournal(directory),
      snapshots: fileSnapshotStore({ directory: path.join(directory, "snapshots") }),
      snapshotEvery: 0,
      clockTickMs: 0,
    });
  return {
    scratch,
    openJournal,
    engineOn,
    /** Submits `stream` live to a new engine on `directory` from 64 clients; its state hash. */
    runLive: async (stream: readonly CandorCommand[], directory = scratch) => {
      const live = await engineOn(directory);
      await live.start();
      let index = 0;
      const client = async () => {
        while (index < stream.length) await live.submit(stream[index++]!);
      };
      await Promise.all(Array.from({ length: 64 }, client));
      const hash = live.stateHash();
      await live.stop();
      return hash;
    },
    remove: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
