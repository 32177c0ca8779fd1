import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "../../db/database.ts";
import { Engine } from "../../engine/engine.ts";
import { kernelPort } from "../../engine/kernel-port.ts";
import { openFileJournal } from "../../journal/file-journal.ts";
import { fileSnapshotStore } from "../../journal/snapshot-store.ts";
import { ReadModelProjector } from "../../read-models/projector.ts";

/**
 * The real kernel behind the real engine over a durable file journal in a temporary folder,
 * with the read-model projector attached: the whole write path the server runs, for tests and
 * the HTTP benchmark.
 */
export async function startTestEngine(database: Database, now: () => number) {
  const directory = mkdtempSync(path.join(tmpdir(), "candor-spot-"));
  const journal = await openFileJournal({
    directory: path.join(directory, "journal"),
    onFatal: (error) => {
      throw error;
    },
  });
  const engine = new Engine({
    kernel: kernelPort,
    journal,
    snapshots: fileSnapshotStore({ directory: path.join(directory, "snapshots") }),
    now,
    clockTickMs: 0,
    snapshotEvery: 0,
  });
  const projector = new ReadModelProjector(database, { flushDelayMs: 5 });
  await projector.load();
  engine.subscribe((applied) => projector.handle(applied));
  await engine.start();
  return {
    engine,
    projector,
    async close() {
      await engine.stop();
      await projector.flush();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
