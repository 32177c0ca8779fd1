import {
  getNotice,
  listNotices,
  markNoticeRead,
  publishNotice,
  unreadNotices,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { NoticesRepository } from "./notices.repository.ts";
import { NoticesService } from "./notices.service.ts";

/** Options of the notices module. */
export interface NoticesModuleOptions {
  database: Database;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

/**
 * Notices in the request's language, each user's read marks (the unread badge) and publishing
 * by the operator.
 */
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

  const perUser = { max: 240, windowMs: 60_000 };
  defineRoute(app, unreadNotices, { perUser }, ({ user }) => service.unread(user.id));
  defineRoute(app, markNoticeRead, { perUser }, ({ params, user }) =>
    service.markRead(user.id, BigInt(params.noticeId)),
  );
  defineRoute(app, publishNotice, { bodyBytes: 1024 * 1024 }, ({ body, request }) =>
    service.publish(operatorIdOf(request), body),
  );
};
