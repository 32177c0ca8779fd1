import type { SupportConversationView, SupportMessageView } from "@candor/contract";
import { callEndpoint, callEndpointBlob } from "../../../lib/api-client.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { getSession } from "../../../lib/session.ts";
import { supportEndpoints as api } from "./endpoints.ts";

/** Where the browser keeps a signed-out visitor's conversation (the token is its only key). */
const visitorKey = "candor.support.visitor";
/** The header the visitor token travels in (contract `supportTokenHeader`). */
const tokenHeader = "x-support-token";

/** A visitor's conversation as this browser remembers it. */
export interface VisitorConversation {
  conversationId: string;
  token: string;
  email: string;
}

const visitorListeners = new Set<() => void>();

export function getVisitor(): VisitorConversation | null {
  try {
    const text = window.localStorage.getItem(visitorKey);
    if (!text) return null;
    const value = JSON.parse(text) as Partial<VisitorConversation>;
    return typeof value.token === "string" &&
      typeof value.conversationId === "string" &&
      typeof value.email === "string"
      ? (value as VisitorConversation)
      : null;
  } catch {
    return null;
  }
}

function setVisitor(visitor: VisitorConversation | null) {
  if (visitor) window.localStorage.setItem(visitorKey, JSON.stringify(visitor));
  else window.localStorage.removeItem(visitorKey);
  for (const listener of visitorListeners) listener();
}

/** Forgets this browser's visitor conversation (the e-mailed answers still arrive). */
export function forgetVisitor() {
  setVisitor(null);
}

export function onVisitorChange(listener: () => void): () => void {
  visitorListeners.add(listener);
  return () => visitorListeners.delete(listener);
}

/** Query keys of the support chat: per signed-in user, or per visitor conversation. */
export const supportKeys = {
  all: ["support"] as const,
  conversation: (who: string) => [...supportKeys.all, "conversation", who] as const,
  /** Outside `all`: an image never changes, so the chat's refreshes leave it alone. */
  image: (who: string, uploadId: string) => ["support-image", who, uploadId] as const,
  unread: (who: string) => [...supportKeys.all, "unread", who] as const,
};

/** Who the chat is for right now: `user:<id>`, `visitor:<conversation>` or "" (nobody yet). */
export function supportParty(): string {
  const session = getSession();
  if (session) return `user:${session.user.id}`;
  const visitor = getVisitor();
  return visitor ? `visitor:${visitor.conversationId}` : "";
}

const visitorHeaders = (): Record<string, string> => {
  const visitor = getVisitor();
  return visitor ? { [tokenHeader]: visitor.token } : {};
};

/** Messages per page of the conversation. */
const pageSize = 50;

const emptyConversation: SupportConversationView = {
  conversationId: null,
  messages: [],
  unread: 0,
  more: false,
};

/** The newest messages of the current party's conversation (empty for nobody). */
export async function fetchConversation(beforeId?: string): Promise<SupportConversationView> {
  const query = { limit: pageSize, ...(beforeId ? { beforeId } : {}) };
  if (getSession()) return callEndpoint(api.supportMessages, { query });
  if (!getVisitor()) return emptyConversation;
  return callEndpoint(api.supportVisitorMessages, { query, headers: visitorHeaders() });
}

/** GET /api/v1/support/unread (spec `getCustomerUnread`); a visitor's from its conversation. */
export async function fetchUnread(): Promise<number> {
  if (getSession()) return (await callEndpoint(api.supportUnread)).unread;
  if (!getVisitor()) return 0;
  return (await fetchConversation()).unread;
}

/** Sends a text (and for a signed-in user, optionally an uploaded image). */
export async function sendMessage(input: {
  text?: string;
  uploadId?: string;
}): Promise<SupportMessageView> {
  const clientMessageId = newIdempotencyKey();
  if (getSession()) {
    return callEndpoint(api.supportSend, { body: { ...input, clientMessageId } });
  }
  return callEndpoint(api.supportVisitorSend, {
    body: { text: input.text ?? "", clientMessageId },
    headers: visitorHeaders(),
  });
}

export async function markRead(upToMessageId: string): Promise<number> {
  const body = { upToMessageId };
  const answer = getSession()
    ? await callEndpoint(api.supportRead, { body })
    : await callEndpoint(api.supportVisitorRead, { body, headers: visitorHeaders() });
  return answer.unread;
}

/** Opens a visitor's conversation with an e-mail and keeps its token in this browser. */
export async function startVisitor(email: string): Promise<VisitorConversation> {
  const answer = await callEndpoint(api.supportVisitorStart, { body: { email } });
  const visitor = { ...answer, email: email.trim().toLowerCase() };
  setVisitor(visitor);
  return visitor;
}

/** Uploads an image for a support message (signed in only; checked and re-encoded). */
export async function uploadSupportImage(file: Blob): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const answer = await callEndpoint(api.uploadImageEndpoint, {
    query: { purpose: "support_image" },
    form,
  });
  return answer.upload.uploadId;
}

/**
 * An image of the current party's conversation (theirs or support's), for an object URL: the
 * server serves it only to the conversation's user or visitor (the visitor's token travels in
 * a header, so an `<img src>` cannot fetch it).
 */
export function fetchSupportImage(uploadId: string): Promise<Blob> {
  const params = { uploadId };
  if (getSession()) return callEndpointBlob(api.supportImage, { params });
  return callEndpointBlob(api.supportVisitorImage, { params, headers: visitorHeaders() });
}
