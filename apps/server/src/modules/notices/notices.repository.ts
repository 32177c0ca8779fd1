import type { Locale } from "@candor/contract";
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
}
