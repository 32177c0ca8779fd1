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
  /** The image's size (its upload's), or null for a text banner. */
  image: { width: number; height: number } | null;
}

/** A banner's columns with its image's size (the upload's), for `FROM banners b`. */
const columns = sql`b.id, b.title, b.link, b.locale, b.starts_at_ms, b.ends_at_ms,
  b.withdrawn_at_ms, b.operator_id, u.width AS image_width, u.height AS image_height`;
const fromBanners = sql`banners b LEFT JOIN uploads u ON u.id = b.image_upload_id`;

/** Shown at `nowMs`: started, not ended, not withdrawn. */
const shownAt = (nowMs: number) => sql`b.starts_at_ms <= ${nowMs}
  AND (b.ends_at_ms IS NULL OR b.ends_at_ms > ${nowMs})
  AND b.withdrawn_at_ms IS NULL`;

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
    image:
      r.image_width === null || r.image_width === undefined
        ? null
        : { width: Number(r.image_width), height: Number(r.image_height) },
  };
}

/** The banners' SQL (migrations 0033, 0036). */
export class BannersRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Shown at `nowMs` in `locale` (or every language), newest first. */
  async active(locale: Locale, nowMs: number, limit: number): Promise<BannerRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT ${columns} FROM ${fromBanners}
      WHERE ${shownAt(nowMs)} AND (b.locale IS NULL OR b.locale = ${locale})
      ORDER BY b.starts_at_ms DESC, b.id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  /** The image upload of banner `id` while it is shown at `nowMs` (any language). */
  async shownImage(id: string, nowMs: number): Promise<string | undefined> {
    const result = await sql<{ image_upload_id: string | null }>`SELECT b.image_upload_id
      FROM banners b WHERE b.id = ${id}::bigint AND ${shownAt(nowMs)}`.execute(this.db);
    return result.rows[0]?.image_upload_id ?? undefined;
  }

  async all(limit: number): Promise<BannerRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT ${columns} FROM ${fromBanners}
      ORDER BY b.id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  async insert(
    banner: Omit<BannerRow, "id" | "withdrawnAtMs" | "image">,
    imageUploadId: string | null,
    nowMs: number,
  ): Promise<BannerRow> {
    const result = await sql<{ id: string }>`INSERT INTO banners
      (title, link, locale, starts_at_ms, ends_at_ms, operator_id, image_upload_id, created_at_ms)
      VALUES (${banner.title}, ${banner.link}, ${banner.locale}, ${banner.startsAtMs},
        ${banner.endsAtMs}, ${banner.operatorId}, ${imageUploadId}, ${nowMs})
      RETURNING id`.execute(this.db);
    return (await this.find(String(result.rows[0]!.id)))!;
  }

  private async find(id: string): Promise<BannerRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT ${columns} FROM ${fromBanners}
      WHERE b.id = ${id}::bigint`.execute(this.db);
    return result.rows[0] ? toRow(result.rows[0]) : undefined;
  }

  /** Withdraws a banner (once; a second withdrawal keeps the first time). */
  async withdraw(id: string, nowMs: number): Promise<BannerRow | undefined> {
    const result = await sql<{ id: string }>`UPDATE banners
      SET withdrawn_at_ms = coalesce(withdrawn_at_ms, ${nowMs})
      WHERE id = ${id}::bigint RETURNING id`.execute(this.db);
    return result.rows[0] ? this.find(id) : undefined;
  }
}
