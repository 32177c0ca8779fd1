import type { Locale } from "@candor/contract";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One news item as stored, with its texts in one locale and its read count. */
export interface NewsRow {
  id: bigint;
  category: string;
  symbol: string | null;
  locale: string;
  title: string;
  body: string;
  publishedAt: Date;
  readCount: number;
}

/** What the news list filters on. */
export interface NewsFilter {
  category?: string;
  symbol?: string;
}

/** The only file of the news module that speaks SQL. */
export class NewsRepository {
  constructor(private readonly database: Database) {}

  /** Published items (by `now`) with the texts of `locale`, else English; newest first. */
  async page(
    locale: Locale,
    filter: NewsFilter,
    limit: number,
    offset: number,
    now: Date,
  ): Promise<{ items: NewsRow[]; total: number }> {
    const where = [sql`n.published_at <= ${now}`];
    if (filter.category) where.push(sql`n.category = ${filter.category}`);
    if (filter.symbol) where.push(sql`n.symbol = ${filter.symbol}`);
    const condition = sql.join(where, sql` AND `);
    const [items, count] = await Promise.all([
      this.select(locale, condition, sql`LIMIT ${limit} OFFSET ${offset}`),
      sql<{ count: string }>`SELECT count(*)::text AS count FROM news n WHERE ${condition}`.execute(
        this.database.db,
      ),
    ]);
    return { items, total: Number(count.rows[0]!.count) };
  }

  /** One published item. */
  async byId(locale: Locale, id: bigint, now: Date): Promise<NewsRow | undefined> {
    const [row] = await this.select(
      locale,
      sql`n.id = ${id} AND n.published_at <= ${now}`,
      sql`LIMIT 1`,
    );
    return row;
  }

  /** Counts the user as a reader once; false when there is no such published item. */
  async markRead(userId: bigint, newsId: bigint, now: Date): Promise<boolean> {
    const exists = await this.database.db
      .selectFrom("news")
      .select("id")
      .where("id", "=", newsId)
      .where("published_at", "<=", now)
      .executeTakeFirst();
    if (!exists) return false;
    await this.database.db
      .insertInto("news_reads")
      .values({ news_id: newsId, user_id: userId, read_at: now })
      .onConflict((oc) => oc.columns(["news_id", "user_id"]).doNothing())
      .execute();
    return true;
  }

  /** How many users have read the item. */
  async readCount(newsId: bigint): Promise<number> {
    const row = await this.database.db
      .selectFrom("news_reads")
      .where("news_id", "=", newsId)
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Stores an item and its texts; returns its id. */
  async insert(
    item: { category: string; symbol: string | null; publishedAt: Date; operatorId: string },
    texts: { locale: string; title: string; body: string }[],
  ): Promise<bigint> {
    return this.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("news")
        .values({
          category: item.category,
          symbol: item.symbol,
          published_at: item.publishedAt,
          operator_id: item.operatorId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("news_texts")
        .values(texts.map((text) => ({ news_id: row.id, ...text })))
        .execute();
      return BigInt(row.id);
    });
  }

  private async select(
    locale: Locale,
    condition: ReturnType<typeof sql>,
    tail: ReturnType<typeof sql>,
  ) {
    const rows = await sql<Record<string, unknown>>`
      SELECT n.id::text AS id, n.category, n.symbol, n.published_at, t.locale, t.title, t.body,
        (SELECT count(*) FROM news_reads r WHERE r.news_id = n.id)::int AS read_count
      FROM news n
      JOIN LATERAL (
        SELECT locale, title, body FROM news_texts
        WHERE news_id = n.id AND locale IN (${locale}, 'en')
        ORDER BY (locale = ${locale}) DESC LIMIT 1
      ) t ON true
      WHERE ${condition}
      ORDER BY n.published_at DESC, n.id DESC ${tail}`.execute(this.database.db);
    return rows.rows.map((r): NewsRow => ({
      id: BigInt(r.id as string),
      category: r.category as string,
      symbol: (r.symbol as string | null) ?? null,
      locale: r.locale as string,
      title: r.title as string,
      body: r.body as string,
      publishedAt: new Date(r.published_at as string | Date),
      readCount: Number(r.read_count),
    }));
  }
}
