import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Tables } from "./tables.ts";
import { serverFile } from "../server-files.ts";

/** Which engine a database runs on: the embedded WASM build or a PostgreSQL server. */
export type DatabaseKind = "pglite" | "postgres";

/** One SQL statement with `$n` parameters, as the database runs it. */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** A database handle: typed queries through Kysely, plus raw multi-statement SQL for migrations. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Tables>;
  /** Runs several statements separated by semicolons, without parameters. */
  execScript(sql: string): Promise<void>;
  /**
   * Runs statements in order in one transaction (all or none), for writers that know their
   * whole batch up front (the read-model projector). The PGlite worker gets the batch in one
   * message instead of a round trip per statement; each round trip wakes both threads.
   */
  executeBatch(statements: readonly Statement[]): Promise<void>;
  close(): Promise<void>;
}

/** How to open a database: a PGlite folder (or in memory), or a PostgreSQL URL and schema. */
export type DatabaseOptions =
  | {
      kind: "pglite";
      dataDir?: string;
      /**
       * Run PGlite in a worker thread (the server does): its WASM then uses a core of its own
       * instead of the main thread's, which serves requests and runs the kernel.
       */
      worker?: boolean;
      /**
       * Starts from this data directory (a `dumpDataDir` tarball) instead of an empty one; tests
       * open a migrated copy this way (testing/databases.ts). Not with `worker`.
       */
      loadDataDir?: Blob;
    }
  | { kind: "postgres"; url: string; schema?: string; poolSize?: number };

const INT8_OID = 20;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options);
  return options.worker
    ? openPgliteWorker(options.dataDir)
    : openPglite(options.dataDir, options.loadDataDir);
}

/** What the pool needs of a PGlite client, in this thread or in a worker. */
interface PgliteClient {
  query(
    sql: string,
    parameters: unknown[],
  ): Promise<{ rows: unknown[]; affectedRows?: number | undefined }>;
}

/**
 * Runs a batch on PGlite once the pool's connection is free: a Kysely transaction in progress
 * holds it, and PGlite has one session, so a batch must not begin inside someone else's.
 */
async function runBatchExclusively(pool: pg.Pool, run: () => Promise<unknown>): Promise<void> {
  const connection = await pool.connect();
  try {
    await run();
  } finally {
    connection.release();
  }
}

async function openPgliteWorker(dataDir: string | undefined): Promise<Database> {
  if (dataDir && !existsSync(path.join(dataDir, "PG_VERSION"))) await initPgliteFolder(dataDir);
  const worker = new Worker(serverFile("db/pglite-worker.mjs"), {
    workerData: { dataDir },
  });
  const waiting = new Map<
    number,
    {
      resolve: (value: { rows: unknown[]; affectedRows: number }) => void;
      reject: (error: Error) => void;
    }
  >();
  let nextId = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`PGlite worker exited with ${code}`)));
    worker.once("message", () => resolve());
  });
  worker.on("message", (response: PgliteResponse) => {
    const entry = waiting.get(response.id);
    if (!entry) return;
    waiting.delete(response.id);
    if ("error" in response) {
      entry.reject(Object.assign(new Error(String(response.error.message)), response.error));
    } else {
      entry.resolve(response);
    }
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`PGlite worker exited with ${code}`)));
  const send = (request: DistributiveOmit<PgliteRequest, "id">) =>
    new Promise<{ rows: unknown[]; affectedRows: number }>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  const client: PgliteClient = {
    query: (sql, parameters) => send({ kind: "query", sql, parameters }),
  };
  const pool = pglitePool(client);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: "pglite",
    db,
    async execScript(sql) {
      await send({ kind: "exec", sql });
    },
    async executeBatch(statements) {
      if (statements.length === 0) return;
      await runBatchExclusively(pool, () => send({ kind: "batch", statements }));
    },
    async close() {
      await db.destroy();
      await send({ kind: "close" });
      await worker.terminate();
    },
  };
}

/**
 * Initialises an empty PGlite folder (`initdb`) in a worker that exits afterwards: the ~430 MB
 * `initdb` leaves in its thread go with the thread instead of lingering in the server's
 * worker until some later collection (issue 15: the first minute's peak). Costs one more
 * worker start (~0.7 s) on a first start only.
 */
async function initPgliteFolder(dataDir: string): Promise<void> {
  const worker = new Worker(serverFile("db/pglite-worker.mjs"), {
    workerData: { dataDir, initOnly: true },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`PGlite init worker exited with ${code}`)),
    );
  });
}

/** A request to the PGlite worker (`pglite-worker.mjs`). */
type PgliteRequest =
  | { id: number; kind: "query"; sql: string; parameters: unknown[] }
  | { id: number; kind: "exec"; sql: string }
  | { id: number; kind: "batch"; statements: readonly Statement[] }
  | { id: number; kind: "close" };

/** The worker's answer to one request. */
type PgliteResponse =
  | { id: number; rows: unknown[]; affectedRows: number }
  | { id: number; error: Record<string, unknown> };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  // int8 columns hold money and sequence numbers: read them as bigint, never as a float.
  const client = await PGlite.create({
    dataDir,
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { [INT8_OID]: (text) => BigInt(text) },
  });
  const pool = pglitePool(client);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: "pglite",
    db,
    async execScript(sql) {
      await client.exec(sql);
    },
    async executeBatch(statements) {
      if (statements.length === 0) return;
      await runBatchExclusively(pool, () =>
        client.transaction(async (transaction) => {
          for (const s of statements) await transaction.query(s.sql, s.parameters as unknown[]);
        }),
      );
    },
    async close() {
      await db.destroy();
      await client.close();
    },
  };
}

/**
 * PGlite is one connection, so the "pool" hands it out to one caller at a time; a transaction
 * keeps it until released. Kysely's PostgresDialect needs only connect/release/query/end.
 */
function pglitePool(client: PgliteClient) {
  let queue: Promise<void> = Promise.resolve();
  return {
    async connect() {
      let release!: () => void;
      const previous = queue;
      queue = new Promise<void>((resolve) => (release = resolve));
      await previous;
      return {
        async query(sql: string, parameters: readonly unknown[]) {
          const result = await client.query(sql, parameters as unknown[]);
          // Kysely reads affected-row counts only for these commands, named by the first word.
          const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "SELECT";
          return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
        },
        release,
      };
    },
    async end() {},
  } as unknown as pg.Pool;
}

async function openPostgres(options: {
  url: string;
  schema?: string;
  poolSize?: number;
}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? (text: string) => BigInt(text)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  if (options.schema) {
    const client = await pool.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    } finally {
      client.release();
    }
  }
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: "postgres",
    db,
    async execScript(sql) {
      // No parameters: node-postgres uses the simple protocol, which runs several statements.
      await pool.query(sql);
    },
    async executeBatch(statements) {
      if (statements.length === 0) return;
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        for (const s of statements) await client.query(s.sql, s.parameters as unknown[]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await db.destroy();
    },
  };
}
