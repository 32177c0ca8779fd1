import type { getNotice, listNotices, NoticesPage, NoticeView } from "@candor/contract";
import { callEndpoint, type EndpointRef } from "../../../lib/api-client.ts";

// The endpoints of packages/contract/src/notices.ts, restated so the home route does not load
// zod (the budget); `satisfies` makes tsc fail if the contract's method, path or auth change.
const list = {
  method: "GET",
  path: "/api/v1/notices",
  auth: "none",
} as const satisfies Pick<typeof listNotices, keyof EndpointRef>;
const one = {
  method: "GET",
  path: "/api/v1/notices/:noticeId",
  auth: "none",
} as const satisfies Pick<typeof getNotice, keyof EndpointRef>;

export function fetchNotices(limit: number, offset: number): Promise<NoticesPage> {
  return callEndpoint<NoticesPage>(list, { query: { limit, offset } });
}

export function fetchNotice(noticeId: string): Promise<NoticeView> {
  return callEndpoint<NoticeView>(one, { params: { noticeId } });
}
