import type { NewsCategory } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { newsEndpoints } from "./endpoints.ts";

/** The news page's tabs: every category, then each one. */
export const newsTabs = ["all", "market", "crypto", "stocks", "platform"] as const;
export type NewsTab = (typeof newsTabs)[number];

/** Every query key of news; items are in the interface language, so it is part of each. */
export const newsKeys = {
  all: ["news"] as const,
  list: (language: string, tab: NewsTab, symbol: string | undefined) =>
    [...newsKeys.all, language, "list", tab, symbol ?? ""] as const,
  one: (language: string, newsId: string) => [...newsKeys.all, language, "one", newsId] as const,
};

/** GET /api/v1/news: a page of news, newest first. */
export function fetchNews(tab: NewsTab, limit: number, offset: number, symbol?: string) {
  const category: NewsCategory | undefined = tab === "all" ? undefined : tab;
  return callEndpoint(newsEndpoints.listNews, {
    query: { limit, offset, ...(category ? { category } : {}), ...(symbol ? { symbol } : {}) },
  });
}

/** GET /api/v1/news/:newsId */
export function fetchNewsItem(newsId: string) {
  return callEndpoint(newsEndpoints.getNews, { params: { newsId } });
}

/** POST /api/v1/news/:newsId/read: counts the signed-in reader once. */
export function markNewsRead(newsId: string) {
  return callEndpoint(newsEndpoints.markNewsRead, { params: { newsId } });
}
