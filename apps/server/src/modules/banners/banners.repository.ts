import type { Locale } from "@candor/contract";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

export interface BannerRow {
  id: string;
  title: string;
  link: string | null;
  locale: Locale | null;
  startsAtMs: number;
  endsAtMs: number | null;
  withdrawnAtMs: number | null;
  operatorId: string | null;
}

const columns = sql`id, title, link, locale, starts_at_ms, ends_at_ms, withdrawn_at_ms,
  operator_id`;

function toRow(r: Record<string, unknown>): BannerRow {
  const ms = (value: unknown) => (value === null ? null : Number(value));
  return {
    id: String(r.id),
    title: String(r.title),
    link: (r.link as string | null) ?? null,
    locale: (r.locale as Locale | null) ?? null,
    startsAtMs: Number(r.starts_at_ms),
    endsAtMs: ms(r.ends_at_ms),
    withdrawnAtMs: ms(r.withdrawn_at_ms),
    operatorId: (r.operator_id as string | null) ?? null,
  };
}

/** The banners' SQL (migration 0033). */
export class BannersRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Shown at `nowMs` in `locale` (or every language), newest first. */
  async active(locale: Locale, nowMs: number, limit: number): Promise<BannerRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT ${columns} FROM banners
      WHERE starts_at_ms <= ${nowMs}
        AND (ends_at_ms IS NULL OR ends_at_ms > ${nowMs})
        AND withdrawn_at_ms IS NULL
        AND (locale IS NULL OR locale = ${locale})
      ORDER BY starts_at_ms DESC, id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  async all(limit: number): Promise<BannerRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT ${columns} FROM banners
      ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  async insert(banner: Omit<BannerRow, "id" | "withdrawnAtMs">, nowMs: number): Promise<BannerRow> {
    const result = await sql<Record<string, unknown>>`INSERT INTO banners
      (title, link, locale, starts_at_ms, ends_at_ms, operator_id, created_at_ms)
      VALUES (${banner.title}, ${banner.link}, ${banner.locale}, ${banner.startsAtMs},
        ${banner.endsAtMs}, ${banner.operatorId}, ${nowMs})
      RETURNING ${columns}`.execute(this.db);
    return toRow(result.rows[0]!);
  }

  /** Withdraws a banner (once; a second withdrawal keeps the first time). */
  async withdraw(id: string, nowMs: number): Promise<BannerRow | undefined> {
    const result = await sql<Record<string, unknown>>`UPDATE banners
      SET withdrawn_at_ms = coalesce(withdrawn_at_ms, ${nowMs})
      WHERE id = ${id}::bigint RETURNING ${columns}`.execute(this.db);
    return result.rows[0] ? toRow(result.rows[0]) : undefined;
  }
}
