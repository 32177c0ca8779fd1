import { callEndpoint } from "../../../lib/api-client.ts";
import { noticesEndpoints } from "./endpoints.ts";

/** Every query key of notices; notices are in the interface language, so it is part of each. */
export const noticeKeys = {
  all: ["notices"] as const,
  latest: (language: string) => [...noticeKeys.all, language, "latest"] as const,
  list: (language: string) => [...noticeKeys.all, language, "list"] as const,
  one: (language: string, noticeId: string) =>
    [...noticeKeys.all, language, "one", noticeId] as const,
  /** The home page's banners shown now, in the interface language. */
  banners: (language: string) => [...noticeKeys.all, language, "banners"] as const,
  /** The signed-in user's unread notices (not per language: the marks are the same). */
  unread: (userId: string) => [...noticeKeys.all, "unread", userId] as const,
};

/** GET /api/v1/notices: a page of notices, newest first. */
export function fetchNotices(limit: number, offset: number) {
  return callEndpoint(noticesEndpoints.listNotices, { query: { limit, offset } });
}

/** GET /api/v1/notices/:noticeId */
export function fetchNotice(noticeId: string) {
  return callEndpoint(noticesEndpoints.getNotice, { params: { noticeId } });
}

/** GET /api/v1/notices/unread: how many the user has not opened, and which. */
export function fetchUnreadNotices() {
  return callEndpoint(noticesEndpoints.unreadNotices);
}

/** POST /api/v1/notices/:noticeId/read */
export function markNoticeRead(noticeId: string) {
  return callEndpoint(noticesEndpoints.markNoticeRead, { params: { noticeId } });
}
