import { getNews, listNews, markNewsRead, publishNews } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { NewsRepository } from "./news.repository.ts";
import { NewsService } from "./news.service.ts";

/** Options of the news module. */
export interface NewsModuleOptions {
  database: Database;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

/** News (issue 23): list and detail in the request's language, read counts, publishing. */
export const newsModule: FastifyPluginAsync<NewsModuleOptions> = async (app, options) => {
  const service = new NewsService(new NewsRepository(options.database), options.now ?? Date.now);
  const perIp = { max: 120, windowMs: 60_000 };

  defineRoute(app, listNews, { perIp }, ({ query, request }) =>
    service.list(
      request.locale,
      { category: query.category, symbol: query.symbol },
      query.limit,
      query.offset,
    ),
  );
  defineRoute(app, getNews, { perIp }, ({ params, request }) =>
    service.get(request.locale, BigInt(params.newsId)),
  );
  defineRoute(app, markNewsRead, { perUser: { max: 240, windowMs: 60_000 } }, ({ params, user }) =>
    service.markRead(user.id, BigInt(params.newsId)),
  );
  defineRoute(app, publishNews, { bodyBytes: 1024 * 1024 }, ({ body, request }) =>
    service.publish(operatorIdOf(request), body),
  );
};
