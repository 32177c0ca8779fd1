import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Notices (spec: pages/assets/xiaoxitongzhi): short announcements from the operator, each with
 * a title and body per locale. The API answers in the request's language, falling back to
 * English when a notice has no text in it.
 */

/** Paths of the notices endpoints. */
export const noticesPath = "/api/v1/notices";
export const noticePath = "/api/v1/notices/:noticeId";

/** Most notices one page may hold. */
export const noticesPageSizeMax = 50;

/** GET /api/v1/notices?limit=&offset= */
export const NoticesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(noticesPageSizeMax).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type NoticesQuery = z.infer<typeof NoticesQuery>;

/** GET /api/v1/notices/:noticeId — a positive integer id as a string. */
export const NoticeParams = z.strictObject({
  noticeId: z.string().regex(/^[1-9]\d{0,17}$/, "must be a notice id"),
});

export const NoticeView = z.object({
  id: z.string(),
  /** The locale the texts are in (the requested one, or English when it has none). */
  locale: z.string(),
  title: z.string(),
  body: z.string(),
  /** Milliseconds since the epoch. */
  publishedAtMs: z.number().int(),
});
export type NoticeView = z.infer<typeof NoticeView>;

export const NoticesPage = z.object({
  items: z.array(NoticeView),
  /** How many notices there are in all, for "No more data". */
  total: z.number().int().nonnegative(),
});
export type NoticesPage = z.infer<typeof NoticesPage>;

/** GET /api/v1/notices: published notices, newest first, in the request's language. */
export const listNotices = defineEndpoint({
  method: "GET",
  path: noticesPath,
  summary: "List published notices, newest first",
  tag: "notices",
  auth: "none",
  query: NoticesQuery,
  response: NoticesPage,
});

/** GET /api/v1/notices/:noticeId: one published notice. */
export const getNotice = defineEndpoint({
  method: "GET",
  path: noticePath,
  summary: "Read one notice",
  tag: "notices",
  auth: "none",
  params: NoticeParams,
  response: NoticeView,
  errors: ["not_found"],
});
