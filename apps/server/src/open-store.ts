import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Config } from "./config.ts";
import { openDatabase, type Database } from "./db/database.ts";
import { lockDataDir, lockPgJournal, WriterLockedError } from "./journal/writer-lock.ts";

/** The data folder, locked for this process, and its database, open. */
export interface Store {
  dataDir: string;
  database: Database;
  /** The PostgreSQL journal's lock (with DATABASE_URL), released at shutdown. */
  pgJournalLock: { release(): Promise<void> } | undefined;
}

/**
 * Locks the data folder (one server per data folder and per PostgreSQL journal, issue 14
 * item 10) and opens the database. `main.ts` starts this before it loads the rest of the
 * server, so PGlite's worker compiles and opens its folder on another core meanwhile.
 */
export async function openStore(config: Config): Promise<Store> {
  const dataDir = path.resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  let pgJournalLock: Store["pgJournalLock"];
  try {
    lockDataDir(dataDir);
    // With a leader lease the journal is on JetStream and several nodes share the database:
    // the lease and the stream's expected-sequence check decide who writes (issue 25).
    if (config.DATABASE_URL && !config.LEADER_LEASE_BUCKET) {
      pgJournalLock = await lockPgJournal(config.DATABASE_URL, config.DATABASE_SCHEMA);
    }
  } catch (error) {
    if (error instanceof WriterLockedError) {
      console.error(`candor: ${error.message}`);
      process.exit(75); // EX_TEMPFAIL
    }
    throw error;
  }
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: "postgres", url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite"), worker: true },
  );
  return { dataDir, database, pgJournalLock };
}
