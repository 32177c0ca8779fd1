import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../testing/databases.ts";
import { migrate, splitStatements } from "./migrate.ts";

describeEachDatabase(
  "migrations",
  (database) => {
    it("records every migration once and applies nothing on a second run", async () => {
      const recorded = await database().db.selectFrom("schema_migrations").select("name").execute();
      expect(recorded.map((r) => r.name)).toContain("0001_server_starts.sql");
      expect(await migrate(database())).toEqual([]);
    });

    it("reads int8 as bigint beyond 2^53 without loss", async () => {
      const big = 2n ** 62n + 12_345n;
      const { rows } = await sql<{
        value: bigint;
      }>`SELECT ${big.toString()}::int8 AS value`.execute(database().db);
      expect(rows[0]!.value).toBe(big);
    });

    it("rolls a transaction back completely", async () => {
      const db = database().db;
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("server_starts").values({ version: "rollback" }).execute();
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      const rows = await db
        .selectFrom("server_starts")
        .where("version", "=", "rollback")
        .selectAll()
        .execute();
      expect(rows).toEqual([]);
    });

    it("reports affected rows of updates", async () => {
      const db = database().db;
      await db
        .insertInto("server_starts")
        .values([{ version: "a" }, { version: "a" }])
        .execute();
      const result = await db
        .updateTable("server_starts")
        .set({ version: "b" })
        .where("version", "=", "a")
        .executeTakeFirst();
      expect(result.numUpdatedRows).toBe(2n);
    });
  },
  // From an empty PGlite, not the migrated template the other database tests start from.
  { freshPglite: true },
);

it("splits a script into statements and drops comment lines", () => {
  expect(splitStatements("-- note\nCREATE TABLE a (x int);\nCREATE TABLE b (y int);\n")).toEqual([
    "CREATE TABLE a (x int)",
    "CREATE TABLE b (y int)",
  ]);
});
