import {
  operatorSupportConversation,
  operatorSupportConversations,
  operatorSupportImage,
  operatorSupportRead,
  operatorSupportReply,
  supportImage,
  supportMessages,
  supportRead,
  supportSend,
  supportTokenHeader,
  supportUnread,
  supportVisitorImage,
  supportVisitorMessages,
  supportVisitorRead,
  supportVisitorSend,
  supportVisitorStart,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import type { RateRule } from "../../http/rate-limit.ts";
import { imageReply, type StoredFile } from "../uploads/uploads.service.ts";
import type { SupportService } from "./support.service.ts";

/** Options of the support module. */
export interface SupportModuleOptions {
  support: SupportService;
  /**
   * Reads an upload whose access the caller has checked (the uploads module's rules: re-checked
   * hash, no-store).
   */
  readFile?: (uploadId: string) => Promise<StoredFile>;
}

/** Messages one user or visitor may send: 20 a minute and 300 a day. */
const sendPerMinute: RateRule = { max: 20, windowMs: 60_000 };
const sendPerDay: RateRule = { max: 300, windowMs: 24 * 60 * 60_000 };
/** A message body: 2,000 characters of text (up to 4 bytes each) and the ids. */
const messageBytes = 10 * 1024;

/**
 * `/api/v1/support` (the signed-in user's conversation and a signed-out visitor's, reached by
 * its token in `x-support-token`) and `/api/v1/operator/support` (every conversation, the
 * user's context, answers). Limits: body size per route, messages per minute and per day per
 * sender, visitor conversations per address.
 */
export const supportModule: FastifyPluginAsync<SupportModuleOptions> = async (app, options) => {
  const { support } = options;
  const reads = { perUser: { max: 240, windowMs: 60_000 }, perIp: { max: 600, windowMs: 60_000 } };

  const limitSender = (key: string) => {
    if (
      !app.rateLimiter.hit(`support|send|minute|${key}`, sendPerMinute) ||
      !app.rateLimiter.hit(`support|send|day|${key}`, sendPerDay)
    ) {
      throw new AppError("rate_limited");
    }
  };
  /** A support image, once its reader's access is checked; never another purpose. */
  const sendImage = async (uploadId: string, reply: FastifyReply) => {
    if (!options.readFile) throw new AppError("upload_not_found");
    const file = await options.readFile(uploadId);
    if (file.upload.purpose !== "support_image") throw new AppError("upload_not_found");
    return imageReply(reply, file);
  };
  const visitorOf = (request: FastifyRequest) => {
    const header = request.headers[supportTokenHeader];
    return support.visitor(typeof header === "string" ? header : undefined);
  };

  defineRoute(app, supportUnread, reads, ({ user }) =>
    support.unread({ kind: "user", userId: user.id }),
  );
  defineRoute(app, supportMessages, reads, ({ user, query }) =>
    support.messages(
      { kind: "user", userId: user.id },
      query.beforeId ? BigInt(query.beforeId) : null,
      query.limit,
    ),
  );
  defineRoute(app, supportSend, { bodyBytes: messageBytes }, ({ user, body }) => {
    limitSender(`user:${user.id}`);
    return support.send({ kind: "user", userId: user.id }, body);
  });
  defineRoute(app, supportRead, { bodyBytes: 1024, ...reads }, ({ user, body }) =>
    support.markRead({ kind: "user", userId: user.id }, BigInt(body.upToMessageId)),
  );
  defineRoute(app, supportImage, reads, async ({ user, params, reply }) => {
    await support.checkImageOf({ kind: "user", userId: user.id }, params.uploadId);
    return sendImage(params.uploadId, reply);
  });

  // Signed out: a few conversations per address, then the token is the key.
  defineRoute(
    app,
    supportVisitorStart,
    { bodyBytes: 1024, perIp: { max: 5, windowMs: 60 * 60_000 } },
    ({ body, request }) => support.startVisitor(body.email, request.locale),
  );
  defineRoute(app, supportVisitorMessages, reads, async ({ query, request }) =>
    support.messages(
      await visitorOf(request),
      query.beforeId ? BigInt(query.beforeId) : null,
      query.limit,
    ),
  );
  defineRoute(
    app,
    supportVisitorSend,
    { bodyBytes: messageBytes, perIp: { max: 60, windowMs: 60_000 } },
    async ({ body, request }) => {
      const visitor = await visitorOf(request);
      if (visitor.kind === "visitor") limitSender(`visitor:${visitor.conversation.id}`);
      return support.send(visitor, body);
    },
  );
  defineRoute(app, supportVisitorRead, { bodyBytes: 1024, ...reads }, async ({ body, request }) =>
    support.markRead(await visitorOf(request), BigInt(body.upToMessageId)),
  );
  defineRoute(app, supportVisitorImage, reads, async ({ params, request, reply }) => {
    await support.checkImageOf(await visitorOf(request), params.uploadId);
    return sendImage(params.uploadId, reply);
  });

  // Operators (role rule: support and admin).
  defineRoute(app, operatorSupportConversations, {}, ({ query }) =>
    support.conversations(query.limit, query.offset),
  );
  defineRoute(app, operatorSupportConversation, {}, ({ params, query }) =>
    support.conversation(
      BigInt(params.conversationId),
      query.beforeId ? BigInt(query.beforeId) : null,
      query.limit,
    ),
  );
  defineRoute(
    app,
    operatorSupportReply,
    { bodyBytes: messageBytes },
    async ({ params, body, request }) => {
      const { view, userId } = await support.reply(
        BigInt(params.conversationId),
        operatorIdOf(request),
        body,
      );
      if (userId !== null) touchesUser(request, userId);
      return view;
    },
  );
  defineRoute(app, operatorSupportRead, { bodyBytes: 2048 }, async ({ params, body, request }) => {
    const { unread, userId } = await support.operatorRead(
      BigInt(params.conversationId),
      BigInt(body.upToMessageId),
    );
    if (userId !== null) touchesUser(request, userId);
    return { unread };
  });
  defineRoute(app, operatorSupportImage, {}, async ({ params, reply }) => {
    // Support sees images attached to support messages, never identity documents.
    if (!(await support.imageAttached(params.uploadId))) throw new AppError("upload_not_found");
    return sendImage(params.uploadId, reply);
  });
};
