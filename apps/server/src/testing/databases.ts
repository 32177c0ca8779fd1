import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, type Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { serverFile } from "../server-files.ts";

/**
 * Runs a suite once on an in-memory PGlite and, when DATABASE_URL is set, once more on
 * PostgreSQL in a schema of its own that is dropped afterwards. Suite names carry
 * `[pglite]` or `[postgres]` so the run can report how many tests ran on each.
 */
export function describeEachDatabase(
  name: string,
  suite: (get: () => Database) => void,
  options: { freshPglite?: boolean } = {},
) {
  const engines: ("pglite" | "postgres")[] = process.env.DATABASE_URL
    ? ["pglite", "postgres"]
    : ["pglite"];
  for (const engine of engines) {
    describe(`${name} [${engine}]`, () => {
      let database: Database | undefined;
      const schema = `test_${randomBytes(6).toString("hex")}`;
      beforeAll(async () => {
        database = await openTestDatabase(engine, schema, options);
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

/**
 * A migrated database: on PGlite an in-memory copy of the migrated template (see
 * `pgliteTemplate`; `freshPglite` starts from an empty one instead), on PostgreSQL `schema`.
 * Migrations run either way, so a copy is never behind the migrations folder.
 */
export async function openTestDatabase(
  engine: "pglite" | "postgres",
  schema: string,
  options: { freshPglite?: boolean } = {},
) {
  const database = await openDatabase(
    engine === "pglite"
      ? {
          kind: "pglite",
          ...(options.freshPglite ? {} : { loadDataDir: await pgliteTemplate() }),
        }
      : { kind: "postgres", url: process.env.DATABASE_URL!, schema, poolSize: 4 },
  );
  await migrate(database);
  return database;
}

let template: Promise<Blob> | undefined;

/**
 * The data directory of a PGlite with every migration applied, as a tarball: a PGlite loaded
 * from it starts in about a third of the time of an empty one that then runs the migrations
 * (most of which is initdb). It is made once and kept in the temp folder under a hash of the
 * PGlite version and the migrations, so every test file of every run on the same migrations
 * loads the same one; written whole, then renamed, so a reader never sees half of it.
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const migrationsDir = fileURLToPath(serverFile("db/migrations/"));
    const hash = createHash("sha256");
    hash.update(JSON.parse(readFileSync(pglitePackageJson(), "utf8")).version);
    for (const file of readdirSync(migrationsDir).sort()) {
      hash.update(file);
      hash.update(readFileSync(path.join(migrationsDir, file)));
    }
    const file = path.join(
      tmpdir(),
      `candor-pglite-template-${hash.digest("hex").slice(0, 16)}.tar`,
    );
    if (!existsSync(file)) {
      const dataDir = mkdtempSync(path.join(tmpdir(), "candor-pglite-template-"));
      try {
        const database = await openDatabase({ kind: "pglite", dataDir });
        await migrate(database);
        await database.close();
        const client = await PGlite.create({ dataDir });
        const tarball = await client.dumpDataDir("none");
        await client.close();
        const part = `${file}.${process.pid}.part`;
        await writeFile(part, Buffer.from(await tarball.arrayBuffer()));
        renameSync(part, file);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return new Blob([readFileSync(file)]);
  })();
  return template;
}

/** PGlite's package.json: up from its entry point to the folder that has one. */
function pglitePackageJson() {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return path.join(dir, "package.json");
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
