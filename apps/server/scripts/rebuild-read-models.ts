// `npm run rebuild-read-models`: recreates the read models from the journal and checks their
// balances against the kernel's. Run it with the server stopped (same DATA_DIR / DATABASE_URL).
import path from "node:path";
import { readConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { openPgJournal } from "../src/journal/pg-journal.ts";
import { rebuildReadModels } from "../src/read-models/rebuild.ts";

const config = readConfig(process.env);
const dataDir = path.resolve(config.DATA_DIR);
const database = await openDatabase(
  config.DATABASE_URL
    ? { kind: "postgres", url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }
    : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
);
const onFatal = (error: unknown) => {
  throw error;
};
try {
  await migrate(database);
  const journal =
    config.JOURNAL === "jetstream"
      ? await (
          await import("../src/journal/jetstream-journal.ts")
        ).openJetStreamJournal({
          servers: config.NATS_URL,
          stream: config.JOURNAL_STREAM,
          replicas: config.JOURNAL_REPLICAS,
          onFatal,
        })
      : database.kind === "postgres"
        ? await openPgJournal({ database, onFatal })
        : await openFileJournal({ directory: path.join(dataDir, "journal"), onFatal });
  const startedMs = Date.now();
  const result = await rebuildReadModels(database, journal);
  await journal.close();
  console.log(
    JSON.stringify({
      rebuiltTo: result.sequence.toString(),
      stateHash: result.stateHash,
      seconds: (Date.now() - startedMs) / 1000,
      differences: result.differences.map((d) => ({
        account: d.account,
        readModel: d.readModel.toString(),
        kernel: d.kernel.toString(),
      })),
    }),
  );
  process.exitCode = result.differences.length === 0 ? 0 : 1;
} finally {
  await database.close();
}
