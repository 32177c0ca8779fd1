import type { Locale } from "@candor/contract";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One notice as stored, with its texts in one locale. */
export interface NoticeRow {
  id: bigint;
  locale: string;
  title: string;
  body: string;
  publishedAt: Date;
}

/** The only file of the notices module that speaks SQL. */
export class NoticesRepository {
  constructor(private readonly database: Database) {}

  /** Notices with the texts of `locale`, or English where a notice has none in it. */
  private withTexts(locale: Locale) {
    return this.database.db
      .selectFrom("notices as n")
      .innerJoin("notice_texts as t", (join) =>
        join
          .onRef("t.notice_id", "=", "n.id")
          .on((eb) =>
            eb.or([
              eb("t.locale", "=", locale),
              eb.and([
                eb("t.locale", "=", "en"),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom("notice_texts as own")
                      .select("own.notice_id")
                      .whereRef("own.notice_id", "=", "n.id")
                      .where("own.locale", "=", locale),
                  ),
                ),
              ]),
            ]),
          ),
      )
      .select([
        "n.id as id",
        "t.locale as locale",
        "t.title as title",
        "t.body as body",
        "n.published_at as publishedAt",
      ]);
  }

  /** Notices published by `now`, newest first, and how many there are in all. */
  async page(locale: Locale, limit: number, offset: number, now: Date) {
    const items: NoticeRow[] = await this.withTexts(locale)
      .where("n.published_at", "<=", now)
      .orderBy("n.published_at", "desc")
      .orderBy("n.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    const count = await this.database.db
      .selectFrom("notices")
      .where("published_at", "<=", now)
      .select((eb) => eb.fn.countAll<string>().as("total"))
      .executeTakeFirstOrThrow();
    return { items, total: Number(count.total) };
  }

  /** One notice, when it is published by `now`. */
  async byId(locale: Locale, id: bigint, now: Date): Promise<NoticeRow | undefined> {
    return this.withTexts(locale)
      .where("n.id", "=", id)
      .where("n.published_at", "<=", now)
      .executeTakeFirst();
  }

  /** Published notices the user has not read: how many, and the newest 100 ids. */
  async unread(userId: bigint, now: Date): Promise<{ count: number; ids: bigint[] }> {
    const unread = sql`n.published_at <= ${now} AND NOT EXISTS (
      SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = ${userId})`;
    const [count, ids] = await Promise.all([
      sql<{ count: string }>`SELECT count(*)::text AS count FROM notices n WHERE ${unread}`.execute(
        this.database.db,
      ),
      sql<{ id: string }>`SELECT n.id::text AS id FROM notices n WHERE ${unread}
        ORDER BY n.published_at DESC, n.id DESC LIMIT 100`.execute(this.database.db),
    ]);
    return { count: Number(count.rows[0]!.count), ids: ids.rows.map((r) => BigInt(r.id)) };
  }

  /** Marks a published notice read by the user; false when there is no such notice. */
  async markRead(userId: bigint, noticeId: bigint, now: Date): Promise<boolean> {
    const exists = await this.database.db
      .selectFrom("notices")
      .select("id")
      .where("id", "=", noticeId)
      .where("published_at", "<=", now)
      .executeTakeFirst();
    if (!exists) return false;
    await this.database.db
      .insertInto("notice_reads")
      .values({ notice_id: noticeId, user_id: userId, read_at: now })
      .onConflict((oc) => oc.columns(["user_id", "notice_id"]).doNothing())
      .execute();
    return true;
  }

  /** Stores a notice and its texts; returns its id. */
  async insert(
    publishedAt: Date,
    operatorId: string,
    texts: { locale: string; title: string; body: string }[],
  ): Promise<bigint> {
    return this.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("notices")
        .values({ published_at: publishedAt, operator_id: operatorId })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("notice_texts")
        .values(texts.map((text) => ({ notice_id: row.id, ...text })))
        .execute();
      return BigInt(row.id);
    });
  }
}
