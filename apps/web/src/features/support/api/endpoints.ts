import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the support chat calls (contract: support.ts). */
export const supportEndpoints = endpointTable({
  supportUnread: { method: "GET", path: "/api/v1/support/unread", auth: "user" },
  supportMessages: { method: "GET", path: "/api/v1/support/messages", auth: "user" },
  supportSend: { method: "POST", path: "/api/v1/support/messages", auth: "user" },
  supportRead: { method: "POST", path: "/api/v1/support/read", auth: "user" },
  supportImage: { method: "GET", path: "/api/v1/support/images/:uploadId", auth: "user" },
  supportVisitorStart: { method: "POST", path: "/api/v1/support/visitor", auth: "none" },
  supportVisitorMessages: { method: "GET", path: "/api/v1/support/visitor/messages", auth: "none" },
  supportVisitorSend: { method: "POST", path: "/api/v1/support/visitor/messages", auth: "none" },
  supportVisitorRead: { method: "POST", path: "/api/v1/support/visitor/read", auth: "none" },
  supportVisitorImage: {
    method: "GET",
    path: "/api/v1/support/visitor/images/:uploadId",
    auth: "none",
  },
  uploadImageEndpoint: { method: "POST", path: "/api/v1/uploads", auth: "user" },
});
