import type { Generated } from "kysely";
import type { UserTables } from "./user-tables.ts";
import type { MarketTables } from "./market-tables.ts";

/** Row types of every table, as Kysely sees them. Money columns are int8, read as bigint. */
export interface Tables extends UserTables, MarketTables {
  schema_migrations: { name: string; applied_at: Generated<Date> };
  server_starts: { id: Generated<number>; started_at: Generated<Date>; version: string };
}

// Notices (migration 0008), merged into `Tables` by declaration so the lines above stay as
// they are for everyone else's merges.
import type { NoticeTables } from "./notice-tables.ts";
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables extends NoticeTables {}

// Proof of liabilities (migration 0009).
import type { ProofTables } from "./proof-tables.ts";
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables extends ProofTables {}
