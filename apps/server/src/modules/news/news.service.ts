import type { Locale, NewsCategory, NewsItemView } from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { NewsFilter, NewsRepository, NewsRow } from "./news.repository.ts";

function toView(row: NewsRow): NewsItemView {
  return {
    id: String(row.id),
    category: row.category as NewsCategory,
    symbol: row.symbol,
    locale: row.locale,
    title: row.title,
    body: row.body,
    publishedAtMs: row.publishedAt.getTime(),
    readCount: row.readCount,
  };
}

/**
 * News in the reader's language (English where an item has no translation), by category or
 * instrument, with how many signed-in users read each (counted once per user); published by
 * the operator, never edited in place.
 */
export class NewsService {
  constructor(
    private readonly repository: NewsRepository,
    /** Milliseconds since the epoch: items published later stay hidden. */
    private readonly now: () => number,
  ) {}

  async list(locale: Locale, filter: NewsFilter, limit: number, offset: number) {
    const page = await this.repository.page(locale, filter, limit, offset, new Date(this.now()));
    return { items: page.items.map(toView), total: page.total };
  }

  async get(locale: Locale, newsId: bigint): Promise<NewsItemView> {
    const row = await this.repository.byId(locale, newsId, new Date(this.now()));
    if (!row) throw new AppError("not_found");
    return toView(row);
  }

  async markRead(userId: bigint, newsId: bigint) {
    if (!(await this.repository.markRead(userId, newsId, new Date(this.now())))) {
      throw new AppError("not_found");
    }
    return { readCount: await this.repository.readCount(newsId) };
  }

  async publish(
    operatorId: string,
    input: {
      category: NewsCategory;
      symbol: string | null;
      publishAtMs?: number;
      texts: Partial<Record<Locale, { title: string; body: string }>>;
    },
  ) {
    const publishedAtMs = input.publishAtMs ?? this.now();
    const texts = Object.entries(input.texts).flatMap(([locale, text]) =>
      text ? [{ locale, title: text.title, body: text.body }] : [],
    );
    const id = await this.repository.insert(
      {
        category: input.category,
        symbol: input.symbol,
        publishedAt: new Date(publishedAtMs),
        operatorId,
      },
      texts,
    );
    return { id: String(id), publishedAtMs };
  }
}
