import { callEndpointBlob } from "../../../lib/api-client.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { getOperatorSession } from "../lib/operator-session.ts";
import { callOperator } from "./admin-api.ts";
import { adminEndpoints as api } from "./endpoints.ts";

/*
 * The support desk's calls (issue 23). Answering and reading are operator actions with a
 * reason like every other; the chat's own is fixed (the message is what the operator did).
 */

/** The audit reason of a support answer and of a read mark. */
const replyReason = "support chat: answer to the user";
const readReason = "support chat: read the user's messages";

export const supportDeskKeys = {
  all: ["admin", "support"] as const,
  list: () => [...supportDeskKeys.all, "list"] as const,
  conversation: (id: string) => [...supportDeskKeys.all, "conversation", id] as const,
  /** Outside `all`: an image never changes, so the desk's refreshes leave it alone. */
  image: (id: string) => ["admin", "support-image", id] as const,
};

export function fetchSupportConversations() {
  return callOperator(api.operatorSupportConversations, { query: { limit: 100 } });
}

/** The newest 100 messages of a conversation, or the 100 before `beforeId`. */
export function fetchSupportConversation(conversationId: string, beforeId?: string) {
  return callOperator(api.operatorSupportConversation, {
    params: { conversationId },
    query: { limit: 100, ...(beforeId ? { beforeId } : {}) },
  });
}

/** An answer: text, or an image the operator uploaded (`uploadOperatorImage`). */
export function replySupport(
  conversationId: string,
  answer: { text: string } | { uploadId: string },
) {
  return callOperator(api.operatorSupportReply, {
    params: { conversationId },
    body: { ...answer, clientMessageId: newIdempotencyKey(), reason: replyReason },
  });
}

export function readSupport(conversationId: string, upToMessageId: string) {
  return callOperator(api.operatorSupportRead, {
    params: { conversationId },
    body: { upToMessageId, reason: readReason },
  });
}

/** An image of a conversation (either side's), fetched with the operator's token. */
export function fetchSupportImage(uploadId: string) {
  const token = getOperatorSession()?.token;
  return callEndpointBlob(api.operatorSupportImage, {
    params: { uploadId },
    ...(token ? { token } : {}),
  });
}
