import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints news calls (contract: notices.ts). */
export const newsEndpoints = endpointTable({
  listNews: { method: "GET", path: "/api/v1/news", auth: "none" },
  getNews: { method: "GET", path: "/api/v1/news/:newsId", auth: "none" },
  markNewsRead: { method: "POST", path: "/api/v1/news/:newsId/read", auth: "user" },
});
