import { getNotice, listNotices, type NoticeView } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { AppDeps } from "../../app.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { noticesRepository, type NoticeRow } from "./notices.repository.ts";

function toView(row: NoticeRow): NoticeView {
  return {
    id: String(row.id),
    locale: row.locale,
    title: row.title,
    body: row.body,
    publishedAtMs: new Date(row.publishedAt).getTime(),
  };
}

/** GET /api/v1/notices and /api/v1/notices/:noticeId, in the request's language. */
export const noticesRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const now = deps.now ?? Date.now;
  const repository = noticesRepository(deps.database);

  const perIp = { max: 120, windowMs: 60_000 };

  defineRoute(app, listNotices, { perIp }, async ({ query, request }) => {
    const page = await repository.page(request.locale, query.limit, query.offset, new Date(now()));
    return { items: page.items.map(toView), total: page.total };
  });

  defineRoute(app, getNotice, { perIp }, async ({ params, request }) => {
    const row = await repository.byId(request.locale, BigInt(params.noticeId), new Date(now()));
    if (!row) throw new AppError("not_found");
    return toView(row);
  });
};
