import type { Database } from "../../db/database.ts";

/** The only file of the health module that speaks SQL. */
export class HealthRepository {
  constructor(private readonly database: Database) {}

  /** Which engine the database runs on. */
  get databaseKind() {
    return this.database.kind;
  }

  /** How many times a server has started on this database (rows of `server_starts`). */
  async startCount(): Promise<number> {
    const row = await this.database.db
      .selectFrom("server_starts")
      .select((eb) => eb.fn.countAll<string>().as("starts"))
      .executeTakeFirstOrThrow();
    return Number(row.starts);
  }
}
