import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../testing/databases.ts";
import { openDatabase, type Database } from "./database.ts";
import { migrate } from "./migrate.ts";

/**
 * `executeBatch` (the projector's one transaction per flush): statements run in order, all or
 * none, and a batch never lands inside a Kysely transaction that is still open.
 */
async function checkBatches(database: Database) {
  const db = database.db;
  const insert = (version: string) => ({
    sql: "INSERT INTO server_starts (version) VALUES ($1)",
    parameters: [version],
  });
  await database.executeBatch([insert("batch-1"), insert("batch-2")]);
  const versions = async (prefix: string) =>
    (
      await db
        .selectFrom("server_starts")
        .select("version")
        .where("version", "like", `${prefix}%`)
        .orderBy("id")
        .execute()
    ).map((r) => r.version);
  expect(await versions("batch-")).toEqual(["batch-1", "batch-2"]);

  const failed = await database
    .executeBatch([
      insert("none-1"),
      { sql: "INSERT INTO no_such_table VALUES ($1)", parameters: [1] },
    ])
    .catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(Error);
  expect(await versions("none-")).toEqual([]);

  // A Kysely transaction that rolls back after a batch was sent: the batch waits for it and
  // is not rolled back with it.
  let batch: Promise<void> | undefined;
  await expect(
    db.transaction().execute(async (trx) => {
      await trx.insertInto("server_starts").values({ version: "trx-rolled-back" }).execute();
      batch = database.executeBatch([insert("trx-batch")]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("abort");
    }),
  ).rejects.toThrow("abort");
  await batch;
  expect(await versions("trx-")).toEqual(["trx-batch"]);
}

describeEachDatabase("executeBatch", (database) => {
  it("runs statements in one transaction, all or none, after open transactions", async () => {
    await checkBatches(database());
  });
});

// The server runs PGlite in a worker thread; the same SQL must behave as on the main thread.
describe("PGlite in a worker thread", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: "pglite", worker: true });
    await migrate(database);
  });
  afterAll(async () => database.close());

  it("migrates, and reads int8 as bigint beyond 2^53 without loss", async () => {
    expect(await migrate(database)).toEqual([]);
    const big = 2n ** 62n + 12_345n;
    const { rows } = await sql<{ value: bigint }>`SELECT ${big.toString()}::int8 AS value`.execute(
      database.db,
    );
    expect(rows[0]!.value).toBe(big);
  });

  it("rolls a transaction back and reports affected rows", async () => {
    const db = database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("server_starts").values({ version: "rollback" }).execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const none = await db.selectFrom("server_starts").where("version", "=", "rollback").selectAll();
    expect(await none.execute()).toEqual([]);
    await db.insertInto("server_starts").values({ version: "w1" }).execute();
    await db.insertInto("server_starts").values({ version: "w1" }).execute();
    const updated = await db
      .updateTable("server_starts")
      .set({ version: "w2" })
      .where("version", "=", "w1")
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
  });

  it("runs a batch in one message and one transaction, all or none", async () => {
    await checkBatches(database);
  });

  it("passes PostgreSQL errors with their code, and keeps serving", async () => {
    const failed = await sql`SELECT * FROM no_such_table`.execute(database.db).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as { code?: string }).code).toBe("42P01");
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
