import type { Generated } from "kysely";
import type { UserTables } from "./user-tables.ts";
import type { MarketTables } from "./market-tables.ts";

/** Row types of every table, as Kysely sees them. Money columns are int8, read as bigint. */
export interface Tables extends UserTables, MarketTables {
  schema_migrations: { name: string; applied_at: Generated<Date> };
  server_starts: { id: Generated<number>; started_at: Generated<Date>; version: string };
}
