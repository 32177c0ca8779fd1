import { readdir, readFile } from "node:fs/promises";
import { sql } from "kysely";
import type { Database } from "./database.ts";
import { serverFile } from "../server-files.ts";

const migrationsDir = serverFile("db/migrations/");

/**
 * Applies every `migrations/NNNN_name.sql` not yet recorded, in name order, each in its own
 * transaction. The SQL is plain PostgreSQL 15 that PGlite runs unchanged.
 */
export async function migrate(database: Database): Promise<string[]> {
  await database.execScript(
    "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const applied = new Set(
    (await database.db.selectFrom("schema_migrations").select("name").execute()).map((r) => r.name),
  );
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  const newlyApplied: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const text = await readFile(new URL(file, migrationsDir), "utf8");
    await database.db.transaction().execute(async (trx) => {
      for (const statement of splitStatements(text)) await sql.raw(statement).execute(trx);
      await trx.insertInto("schema_migrations").values({ name: file }).execute();
    });
    newlyApplied.push(file);
  }
  return newlyApplied;
}

/** Splits on semicolons at line ends; migrations keep one statement per `;\n` and no dollar-quoted bodies. */
export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s.length > 0);
}
