import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints notices call (contract: notices.ts). */
export const noticesEndpoints = endpointTable({
  listNotices: { method: "GET", path: "/api/v1/notices", auth: "none" },
  getNotice: { method: "GET", path: "/api/v1/notices/:noticeId", auth: "none" },
  unreadNotices: { method: "GET", path: "/api/v1/notices/unread", auth: "user" },
  markNoticeRead: { method: "POST", path: "/api/v1/notices/:noticeId/read", auth: "user" },
  listBanners: { method: "GET", path: "/api/v1/banners", auth: "none" },
});
