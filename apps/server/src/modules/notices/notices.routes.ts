import { getNotice, listNotices } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { NoticesRepository } from "./notices.repository.ts";
import { NoticesService } from "./notices.service.ts";

/** Options of the notices module. */
export interface NoticesModuleOptions {
  database: Database;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

/** GET /api/v1/notices and /api/v1/notices/:noticeId, in the request's language. */
export const noticesModule: FastifyPluginAsync<NoticesModuleOptions> = async (app, options) => {
  const service = new NoticesService(
    new NoticesRepository(options.database),
    options.now ?? Date.now,
  );
  const perIp = { max: 120, windowMs: 60_000 };

  defineRoute(app, listNotices, { perIp }, ({ query, request }) =>
    service.list(request.locale, query.limit, query.offset),
  );

  defineRoute(app, getNotice, { perIp }, ({ params, request }) =>
    service.get(request.locale, BigInt(params.noticeId)),
  );
};
