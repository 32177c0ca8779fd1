import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./database.ts";
import { migrate } from "./migrate.ts";

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

  it("passes PostgreSQL errors with their code, and keeps serving", async () => {
    const failed = await sql`SELECT * FROM no_such_table`.execute(database.db).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as { code?: string }).code).toBe("42P01");
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
