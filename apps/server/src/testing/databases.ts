import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, type Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";

/**
 * Runs a suite once on an in-memory PGlite and, when DATABASE_URL is set, once more on
 * PostgreSQL in a schema of its own that is dropped afterwards. Suite names carry
 * `[pglite]` or `[postgres]` so the run can report how many tests ran on each.
 */
export function describeEachDatabase(name: string, suite: (get: () => Database) => void) {
  const engines: ("pglite" | "postgres")[] = process.env.DATABASE_URL
    ? ["pglite", "postgres"]
    : ["pglite"];
  for (const engine of engines) {
    describe(`${name} [${engine}]`, () => {
      let database: Database | undefined;
      const schema = `test_${randomBytes(6).toString("hex")}`;
      beforeAll(async () => {
        database = await openTestDatabase(engine, schema);
      });
      afterAll(async () => {
        await database?.close();
        if (engine === "postgres") await dropSchema(schema);
      });
      suite(() => {
        if (!database) throw new Error("database not open yet");
        return database;
      });
    });
  }
}

export async function openTestDatabase(engine: "pglite" | "postgres", schema: string) {
  const database = await openDatabase(
    engine === "pglite"
      ? { kind: "pglite" }
      : { kind: "postgres", url: process.env.DATABASE_URL!, schema, poolSize: 4 },
  );
  await migrate(database);
  return database;
}

/** Drops a test schema of PostgreSQL (`DATABASE_URL`) with everything in it. */
export async function dropSchema(schema: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
