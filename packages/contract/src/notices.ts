import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
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

/** The notices the signed-in user has not opened yet (issue 23: the unread badge). */
export const NoticesUnread = z.object({
  count: z.number().int().nonnegative(),
  /** Ids of the newest unread notices (at most 100), newest first. */
  ids: z.array(z.string()),
});
export type NoticesUnread = z.infer<typeof NoticesUnread>;

/** GET /api/v1/notices/unread */
export const unreadNotices = defineEndpoint({
  method: "GET",
  path: "/api/v1/notices/unread",
  summary: "How many published notices the user has not read, and which",
  tag: "notices",
  auth: "user",
  response: NoticesUnread,
});

/** POST /api/v1/notices/:noticeId/read: marks it read (once; again changes nothing). */
export const markNoticeRead = defineEndpoint({
  method: "POST",
  path: "/api/v1/notices/:noticeId/read",
  summary: "Mark a notice read for the user",
  tag: "notices",
  auth: "user",
  params: NoticeParams,
  response: NoticesUnread,
  errors: ["not_found"],
});

/** A title and body in one language. */
const ContentText = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
});

/** Texts per locale: English is required (the fallback), the others optional. */
const ContentTexts = z.strictObject({
  en: ContentText,
  "zh-Hant": ContentText.optional(),
  jp: ContentText.optional(),
  kr: ContentText.optional(),
  th: ContentText.optional(),
  es: ContentText.optional(),
  pt: ContentText.optional(),
  de: ContentText.optional(),
  fr: ContentText.optional(),
  sv: ContentText.optional(),
  it: ContentText.optional(),
  ru: ContentText.optional(),
});

/** POST /api/v1/operator/notices: publish a notice (now, or at a later time). */
export const publishNotice = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/notices",
  summary: "Publish a notice with its texts per language (operator)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    /** When it shows; default now. */
    publishAtMs: z.number().int().min(0).max(8_640_000_000_000_000).optional(),
    texts: ContentTexts,
    reason: OperatorReason,
  }),
  response: z.object({ id: z.string(), publishedAtMs: z.number().int() }),
});

/** News categories (the news page's tabs). */
export const NewsCategory = z.enum(["market", "crypto", "stocks", "platform"]);
export type NewsCategory = z.infer<typeof NewsCategory>;

export const NewsItemView = z.object({
  id: z.string(),
  category: NewsCategory,
  /** The instrument it is about (the stock screen's news), or null. */
  symbol: z.string().nullable(),
  locale: z.string(),
  title: z.string(),
  body: z.string(),
  publishedAtMs: z.number().int(),
  /** Signed-in users who opened it, each counted once. */
  readCount: z.number().int().nonnegative(),
});
export type NewsItemView = z.infer<typeof NewsItemView>;

const NewsParams = z.strictObject({
  newsId: z.string().regex(/^[1-9]\d{0,17}$/, "must be a news id"),
});

/** GET /api/v1/news?category=&symbol=&limit=&offset= */
export const listNews = defineEndpoint({
  method: "GET",
  path: "/api/v1/news",
  summary: "Published news, newest first, by category or instrument, in the request's language",
  tag: "news",
  auth: "none",
  query: z.strictObject({
    category: NewsCategory.optional(),
    symbol: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,32}$/)
      .optional(),
    limit: z.coerce.number().int().min(1).max(noticesPageSizeMax).default(20),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  }),
  response: z.object({ items: z.array(NewsItemView), total: z.number().int().nonnegative() }),
});

/** GET /api/v1/news/:newsId */
export const getNews = defineEndpoint({
  method: "GET",
  path: "/api/v1/news/:newsId",
  summary: "One news item with its read count",
  tag: "news",
  auth: "none",
  params: NewsParams,
  response: NewsItemView,
  errors: ["not_found"],
});

/** POST /api/v1/news/:newsId/read: counts the signed-in reader once. */
export const markNewsRead = defineEndpoint({
  method: "POST",
  path: "/api/v1/news/:newsId/read",
  summary: "Count the user as a reader of a news item (once)",
  tag: "news",
  auth: "user",
  params: NewsParams,
  response: z.object({ readCount: z.number().int().nonnegative() }),
  errors: ["not_found"],
});

/** POST /api/v1/operator/news */
export const publishNews = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/news",
  summary: "Publish a news item with its texts per language (operator)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    category: NewsCategory,
    symbol: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,32}$/)
      .nullable()
      .default(null),
    publishAtMs: z.number().int().min(0).max(8_640_000_000_000_000).optional(),
    texts: ContentTexts,
    reason: OperatorReason,
  }),
  response: z.object({ id: z.string(), publishedAtMs: z.number().int() }),
});
