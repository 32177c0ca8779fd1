import { sql } from "kysely";
import type { CountryChange } from "@candor/contract";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";

/**
 * A user's country of residence (issue 17): chosen at registration or later, changed with a
 * reason, every change kept in `user_country_history` for operators. It drives the per-country
 * product switches (`http/country-product-gate.ts`).
 */
export class Residence {
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The user's country, or null while none is chosen (or for an unknown user). */
  async countryOf(userId: bigint): Promise<string | null> {
    const row = await this.db
      .selectFrom("users")
      .select("country")
      .where("id", "=", userId)
      .executeTakeFirst();
    return row?.country ?? null;
  }

  /** The country picked on the registration form. */
  async setAtRegistration(userId: bigint, country: string): Promise<void> {
    await this.write(userId, null, country, "registration", null);
  }

  /**
   * Sets the country; the first choice needs no reason, a change does. Two changes at once both
   * read the same old country; the history then shows both, in order, as they were written.
   */
  async change(userId: bigint, country: string, reason: string | undefined): Promise<void> {
    const current = await this.countryOf(userId);
    if (current === country) throw new AppError("country_unchanged");
    if (current !== null && !reason) throw new AppError("country_change_reason_required");
    await this.write(userId, current, country, "user", reason ?? null);
  }

  private async write(
    userId: bigint,
    from: string | null,
    to: string,
    source: CountryChange["source"],
    reason: string | null,
  ): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.updateTable("users").set({ country: to }).where("id", "=", userId).execute();
      await sql`
        INSERT INTO user_country_history (user_id, from_country, to_country, source, reason,
          created_at)
        VALUES (${userId}, ${from}, ${to}, ${source}, ${reason}, ${new Date(this.now())})`.execute(
        trx,
      );
    });
  }

  /** Every change, newest first; undefined for an unknown user. */
  async history(userId: bigint): Promise<CountryChange[] | undefined> {
    const user = await this.db
      .selectFrom("users")
      .select("id")
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) return undefined;
    const rows = await sql<Record<string, unknown>>`
      SELECT id, from_country, to_country, source, reason, created_at FROM user_country_history
      WHERE user_id = ${userId} ORDER BY id DESC LIMIT 500`.execute(this.db);
    return rows.rows.map((row) => ({
      id: String(row.id),
      fromCountry: row.from_country === null ? null : String(row.from_country),
      toCountry: String(row.to_country),
      source: row.source as CountryChange["source"],
      reason: row.reason === null ? null : String(row.reason),
      createdAt: new Date(row.created_at as string).toISOString(),
    }));
  }
}
