import { z } from "zod";
import { UploadId } from "./bank-deposits.ts";
import { defineEndpoint } from "./endpoint.ts";
import { AccountMode } from "./market.ts";
import { OperatorReason } from "./operator-reason.ts";

/**
 * Customer support chat (issue 23, spec webview/customer and `getCustomerUnread`): one
 * conversation per user, or per visitor who gave an e-mail while signed out, with the support
 * operators. Messages are text, or an image uploaded through the uploads module (purpose
 * `support_image`: a signed-in user's own upload, or an operator's in an answer), seen only by
 * the conversation's two sides. Both sides keep a read position; unread counts are the other
 * side's messages after it. New messages also arrive on the WebSocket (`support` and
 * `support_operator` channels, see ws.ts).
 */

/** Longest message text, in characters (after trimming). */
export const supportTextCharsMax = 2_000;
/** Most messages one page may hold. */
export const supportPageSizeMax = 100;
/** The header a signed-out visitor sends its conversation token in. */
export const supportTokenHeader = "x-support-token";

const IdString = z.string().regex(/^[1-9]\d{0,17}$/, "must be an id");
/** A visitor's conversation token: 64 hex digits, minted by the server. */
export const SupportToken = z.string().regex(/^[0-9a-f]{64}$/, "must be a conversation token");

/** Who wrote a message: the user (or visitor) or a support operator. */
export const SupportSide = z.enum(["user", "operator"]);
export type SupportSide = z.infer<typeof SupportSide>;

/** One message as both sides see it. The operator's identity is not shown to the user. */
export const SupportMessageView = z.object({
  id: z.string(),
  conversationId: z.string(),
  side: SupportSide,
  /** The text, or null for an image-only message. */
  text: z.string().nullable(),
  /** An attached image (the sender's own upload), or null. */
  image: z
    .object({ uploadId: z.string(), width: z.number().int(), height: z.number().int() })
    .nullable(),
  /** The sender's idempotency key, so a client can match its own message when it comes back. */
  clientMessageId: z.string(),
  /** Milliseconds since the epoch. */
  sentAtMs: z.number().int(),
});
export type SupportMessageView = z.infer<typeof SupportMessageView>;

/** GET …/messages?beforeId=&limit=: the newest `limit` messages before `beforeId`. */
export const SupportMessagesQuery = z.strictObject({
  beforeId: IdString.optional(),
  limit: z.coerce.number().int().min(1).max(supportPageSizeMax).default(50),
});

/** The user's side of the conversation. */
export const SupportConversationView = z.object({
  /** Null until the first message. */
  conversationId: z.string().nullable(),
  /** Oldest first. */
  messages: z.array(SupportMessageView),
  /** Operator messages after the user's read position. */
  unread: z.number().int().nonnegative(),
  /** True when older messages exist before the first one here. */
  more: z.boolean(),
});
export type SupportConversationView = z.infer<typeof SupportConversationView>;

/** The unread badge: operator answers the user has not read (spec `getCustomerUnread`). */
export const SupportUnread = z.object({ unread: z.number().int().nonnegative() });
export type SupportUnread = z.infer<typeof SupportUnread>;

/** A message to send: text, an image, or both; `clientMessageId` makes a retry harmless. */
const textOrImage = {
  text: z.string().trim().min(1).max(supportTextCharsMax).optional(),
  uploadId: UploadId.optional(),
  clientMessageId: z.string().uuid(),
};
const hasTextOrImage: [
  (body: { text?: string; uploadId?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (body) => body.text !== undefined || body.uploadId !== undefined,
  { message: "text or uploadId is required", path: ["text"] },
];

export const SupportSendBody = z.strictObject(textOrImage).refine(...hasTextOrImage);

/** Marks everything up to and including a message read. */
export const SupportReadBody = z.strictObject({ upToMessageId: IdString });

/** GET /api/v1/support/unread (spec `getCustomerUnread`) */
export const supportUnread = defineEndpoint({
  method: "GET",
  path: "/api/v1/support/unread",
  summary: "How many support answers the user has not read",
  tag: "support",
  auth: "user",
  response: SupportUnread,
});

/** GET /api/v1/support/messages */
export const supportMessages = defineEndpoint({
  method: "GET",
  path: "/api/v1/support/messages",
  summary: "The user's conversation with support, newest page (oldest first within it)",
  tag: "support",
  auth: "user",
  query: SupportMessagesQuery,
  response: SupportConversationView,
});

/** POST /api/v1/support/messages */
export const supportSend = defineEndpoint({
  method: "POST",
  path: "/api/v1/support/messages",
  summary: "Send a message (text and/or an own `support_image` upload) to support",
  tag: "support",
  auth: "user",
  body: SupportSendBody,
  response: SupportMessageView,
  errors: ["upload_not_found", "rate_limited"],
});

/** POST /api/v1/support/read */
export const supportRead = defineEndpoint({
  method: "POST",
  path: "/api/v1/support/read",
  summary: "Mark support's answers read up to a message",
  tag: "support",
  auth: "user",
  body: SupportReadBody,
  response: SupportUnread,
  errors: ["not_found"],
});

/** POST /api/v1/support/visitor: a signed-out visitor opens a conversation with an e-mail. */
export const supportVisitorStart = defineEndpoint({
  method: "POST",
  path: "/api/v1/support/visitor",
  summary: "Start a signed-out conversation: answers are also e-mailed to the address",
  tag: "support",
  auth: "none",
  body: z.strictObject({ email: z.string().trim().toLowerCase().email().max(254) }),
  response: z.object({ conversationId: z.string(), token: SupportToken }),
  description:
    "The token is shown once; the browser keeps it and sends it in the `x-support-token` header to the visitor endpoints and in the WebSocket `support` channel.",
});

const visitorDescription =
  "Signed out: the conversation token goes in the `x-support-token` header; without a known token the answer is not_found.";

/** GET /api/v1/support/visitor/messages */
export const supportVisitorMessages = defineEndpoint({
  method: "GET",
  path: "/api/v1/support/visitor/messages",
  summary: "A visitor's conversation with support",
  tag: "support",
  auth: "none",
  query: SupportMessagesQuery,
  response: SupportConversationView,
  errors: ["not_found"],
  description: visitorDescription,
});

/** POST /api/v1/support/visitor/messages (text only: uploads belong to signed-in users) */
export const supportVisitorSend = defineEndpoint({
  method: "POST",
  path: "/api/v1/support/visitor/messages",
  summary: "A visitor sends a text message to support",
  tag: "support",
  auth: "none",
  body: z.strictObject({
    text: z.string().trim().min(1).max(supportTextCharsMax),
    clientMessageId: z.string().uuid(),
  }),
  response: SupportMessageView,
  errors: ["not_found", "rate_limited"],
  description: visitorDescription,
});

/** POST /api/v1/support/visitor/read */
export const supportVisitorRead = defineEndpoint({
  method: "POST",
  path: "/api/v1/support/visitor/read",
  summary: "A visitor marks support's answers read up to a message",
  tag: "support",
  auth: "none",
  body: SupportReadBody,
  response: SupportUnread,
  errors: ["not_found"],
  description: visitorDescription,
});

const ImageParams = z.strictObject({ uploadId: UploadId });
const imageDescription =
  "The stored bytes of an image attached to a message of the caller's own conversation (theirs or support's), with the uploads' headers (no-script CSP, nosniff, no-store). Any other upload answers upload_not_found.";

/** GET /api/v1/support/images/:uploadId */
export const supportImage = defineEndpoint({
  method: "GET",
  path: "/api/v1/support/images/:uploadId",
  summary: "An image of the user's conversation with support",
  tag: "support",
  auth: "user",
  params: ImageParams,
  response: z.unknown(),
  errors: ["upload_not_found"],
  description: imageDescription,
});

/** GET /api/v1/support/visitor/images/:uploadId */
export const supportVisitorImage = defineEndpoint({
  method: "GET",
  path: "/api/v1/support/visitor/images/:uploadId",
  summary: "An image support sent in a visitor's conversation",
  tag: "support",
  auth: "none",
  params: ImageParams,
  response: z.unknown(),
  errors: ["not_found", "upload_not_found"],
  description: `${imageDescription} ${visitorDescription}`,
});

/** What the operator sees of the person behind a conversation. */
export const SupportPartyView = z.object({
  /** The user's id, or null for a signed-out visitor. */
  userId: z.string().nullable(),
  /** The user's or visitor's e-mail, when known. */
  email: z.string().nullable(),
  nickname: z.string().nullable(),
});

/** A conversation in the operator's list. */
export const SupportConversationSummary = z.object({
  conversationId: z.string(),
  party: SupportPartyView,
  /** The newest message, or null. */
  last: SupportMessageView.nullable(),
  /** User messages after the operators' read position. */
  unread: z.number().int().nonnegative(),
  updatedAtMs: z.number().int(),
});
export type SupportConversationSummary = z.infer<typeof SupportConversationSummary>;

/** The user's context beside a conversation (null for visitors). */
export const SupportUserContext = z.object({
  /** The session mode the user last used (demo users are always demo). */
  mode: AccountMode,
  /** Identity verification state (KYC): none, pending, basic, advanced, rejected, …. */
  verification: z.string(),
  frozen: z.boolean(),
  /** The newest real-money deposits, newest first: asset, decimal amount, time. */
  recentDeposits: z.array(
    z.object({ assetId: z.string(), amount: z.string(), atMs: z.number().int() }),
  ),
});
export type SupportUserContext = z.infer<typeof SupportUserContext>;

const ConversationParams = z.strictObject({ conversationId: IdString });

/** GET /api/v1/operator/support/conversations */
export const operatorSupportConversations = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/support/conversations",
  summary: "Support conversations, most recent first, with unread counts (operator)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(supportPageSizeMax).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  }),
  response: z.object({
    items: z.array(SupportConversationSummary),
    /** Conversations with at least one unread user message. */
    unreadConversations: z.number().int().nonnegative(),
  }),
});

/** GET /api/v1/operator/support/conversations/:conversationId */
export const operatorSupportConversation = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/support/conversations/:conversationId",
  summary: "One conversation's messages and the user's context (operator)",
  tag: "operator",
  auth: "operator",
  params: ConversationParams,
  query: SupportMessagesQuery,
  response: z.object({
    conversation: SupportConversationSummary,
    context: SupportUserContext.nullable(),
    messages: z.array(SupportMessageView),
    more: z.boolean(),
  }),
  errors: ["not_found"],
});

/** POST /api/v1/operator/support/conversations/:conversationId/messages */
export const operatorSupportReply = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/support/conversations/:conversationId/messages",
  summary: "Answer a conversation; a visitor also gets the answer by e-mail (operator)",
  tag: "operator",
  auth: "operator",
  params: ConversationParams,
  body: z.strictObject({ ...textOrImage, reason: OperatorReason }).refine(...hasTextOrImage),
  response: SupportMessageView,
  errors: ["not_found", "upload_not_found", "mail_unavailable"],
  description:
    "Text, an image, or both. The image is the answering operator's own upload of purpose `support_image` (`POST /api/v1/operator/uploads?purpose=support_image`); only the conversation's user or visitor and the operators can read it.",
});

/** POST /api/v1/operator/support/conversations/:conversationId/read */
export const operatorSupportRead = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/support/conversations/:conversationId/read",
  summary: "Mark a conversation's user messages read up to one (operator)",
  tag: "operator",
  auth: "operator",
  params: ConversationParams,
  body: z.strictObject({ upToMessageId: IdString, reason: OperatorReason }),
  response: SupportUnread,
  errors: ["not_found"],
});

/** GET /api/v1/operator/support/uploads/:uploadId: an image attached to a support message. */
export const operatorSupportImage = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/support/uploads/:uploadId",
  summary: "An image attached to a support message, by either side (operator)",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ uploadId: UploadId }),
  response: z.unknown(),
  errors: ["upload_not_found"],
});
