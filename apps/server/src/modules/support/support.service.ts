import { createHash, randomBytes } from "node:crypto";
import {
  messagesByLocale,
  resolveLocale,
  type Locale,
  type SupportConversationSummary,
  type SupportMessageView,
  type SupportSide,
  type SupportUserContext,
  type WsSupportMessage,
  type WsSupportRead,
} from "@candor/contract";
import { formatAmount } from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import type {
  ConversationRow,
  MessageRow,
  SummaryRow,
  SupportRepository,
} from "./support.repository.ts";

/** Who a support event goes to: the conversation's user or visitor, and the operators. */
export interface SupportTarget {
  conversationId: string;
  /** The conversation's user; null for a visitor. */
  userId: string | null;
}

/** Sends support events on the WebSocket (the hub); absent when the app has no WebSocket. */
export interface SupportPublisher {
  publishSupport(
    target: SupportTarget,
    build: (stream: "support" | "support_operator") => WsSupportMessage | WsSupportRead,
  ): void;
}

/** What the support service needs from outside. */
export interface SupportDependencies {
  repository: SupportRepository;
  now: () => number;
  /** Sends e-mail through the app's mailer (outbox + SMTP), as the sign-in codes go. */
  mail: (message: { to: string; subject: string; text: string; locale: Locale }) => Promise<void>;
  /**
   * The upload's size when `ownerId` (a user's id, or `operator:<id>`) owns it with purpose
   * `support_image`; else undefined.
   */
  supportImage: (uploadId: string, ownerId: string) => Promise<{ width: number } | undefined>;
  publisher?: SupportPublisher;
  /** An asset's scale (decimal places), for showing deposits; 0 when unknown. */
  scaleOf?: (assetId: string) => number;
}

/** Who is writing or reading: a signed-in user or a visitor's conversation. */
export type SupportParty =
  { kind: "user"; userId: bigint } | { kind: "visitor"; conversation: ConversationRow };

export function toMessageView(row: MessageRow): SupportMessageView {
  return {
    id: String(row.id),
    conversationId: String(row.conversationId),
    side: row.side,
    text: row.text,
    image:
      row.uploadId === null
        ? null
        : { uploadId: row.uploadId, width: row.width ?? 1, height: row.height ?? 1 },
    clientMessageId: row.clientMessageId,
    sentAtMs: row.sentAtMs,
  };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The support chat: a conversation per user (opened by the first message) or per visitor
 * (opened with an e-mail, reached by a token of which only the hash is stored), messages in
 * the database, read positions per side, WebSocket events for both sides and, for visitors,
 * the operator's answer by e-mail.
 */
export class SupportService {
  constructor(private readonly deps: SupportDependencies) {}

  private async conversationOf(party: SupportParty): Promise<ConversationRow | undefined> {
    // A visitor's row was read with the token: read again for the current read positions.
    return party.kind === "visitor"
      ? this.deps.repository.byId(party.conversation.id)
      : this.deps.repository.byUser(party.userId);
  }

  /**
   * The visitor's conversation for a token. A missing or unknown token names no conversation:
   * `not_found`, as an unknown id would be (the endpoints are public; the token is the key).
   */
  async visitor(token: string | undefined): Promise<SupportParty> {
    if (!token || !/^[0-9a-f]{64}$/.test(token)) throw new AppError("not_found");
    const conversation = await this.deps.repository.byTokenHash(sha256(token));
    if (!conversation) throw new AppError("not_found");
    return { kind: "visitor", conversation };
  }

  /** The conversation id a visitor token opens, or null (WebSocket subscriptions). */
  async visitorConversationId(token: string): Promise<string | null> {
    const conversation = await this.deps.repository.byTokenHash(sha256(token));
    return conversation ? String(conversation.id) : null;
  }

  /** Opens a visitor's conversation; the token is answered once and only its hash is kept. */
  async startVisitor(email: string, locale: Locale) {
    const token = randomBytes(32).toString("hex");
    const conversation = await this.deps.repository.openForVisitor(
      email,
      sha256(token),
      locale,
      this.deps.now(),
    );
    return { conversationId: String(conversation.id), token };
  }

  async unread(party: SupportParty) {
    const conversation = await this.conversationOf(party);
    if (!conversation) return { unread: 0 };
    return {
      unread: await this.deps.repository.countAfter(
        conversation.id,
        "operator",
        conversation.userReadUpTo,
      ),
    };
  }

  async messages(party: SupportParty, beforeId: bigint | null, limit: number) {
    const conversation = await this.conversationOf(party);
    if (!conversation) return { conversationId: null, messages: [], unread: 0, more: false };
    const page = await this.deps.repository.messages(conversation.id, beforeId, limit);
    const unread = await this.deps.repository.countAfter(
      conversation.id,
      "operator",
      conversation.userReadUpTo,
    );
    return {
      conversationId: String(conversation.id),
      messages: page.messages.map(toMessageView),
      unread,
      more: page.more,
    };
  }

  /** A message from the user or visitor; an image must be the user's own `support_image`. */
  async send(
    party: SupportParty,
    input: { text?: string; uploadId?: string; clientMessageId: string },
  ): Promise<SupportMessageView> {
    if (input.uploadId !== undefined) {
      const owner = party.kind === "user" ? String(party.userId) : null;
      const image = owner ? await this.deps.supportImage(input.uploadId, owner) : undefined;
      if (!image) throw new AppError("upload_not_found");
    }
    const nowMs = this.deps.now();
    const conversation =
      party.kind === "visitor"
        ? party.conversation
        : await this.deps.repository.openForUser(party.userId, nowMs);
    const { message, created } = await this.deps.repository.insertMessage({
      conversationId: conversation.id,
      side: "user",
      text: input.text ?? null,
      uploadId: input.uploadId ?? null,
      operatorId: null,
      clientMessageId: input.clientMessageId,
      sentAtMs: nowMs,
    });
    const view = toMessageView(message);
    if (created) this.publishMessage(conversation, view);
    return view;
  }

  async markRead(party: SupportParty, upToMessageId: bigint) {
    const conversation = await this.conversationOf(party);
    if (!conversation || !(await this.deps.repository.hasMessage(conversation.id, upToMessageId))) {
      throw new AppError("not_found");
    }
    await this.deps.repository.markRead(conversation.id, "user", upToMessageId);
    this.publishRead(conversation, "user", upToMessageId);
    return this.unread(party);
  }

  // ---- operators ----

  private summaryView(row: SummaryRow): SupportConversationSummary {
    return {
      conversationId: String(row.conversation.id),
      party: {
        userId: row.conversation.userId === null ? null : String(row.conversation.userId),
        email: row.email,
        nickname: row.nickname,
      },
      last: row.last ? toMessageView(row.last) : null,
      unread: row.unread,
      updatedAtMs: row.conversation.updatedAtMs,
    };
  }

  async conversations(limit: number, offset: number) {
    const [rows, unreadConversations] = await Promise.all([
      this.deps.repository.summaries(limit, offset),
      this.deps.repository.unreadConversations(),
    ]);
    return { items: rows.map((row) => this.summaryView(row)), unreadConversations };
  }

  private async found(conversationId: bigint): Promise<SummaryRow> {
    const row = await this.deps.repository.summary(conversationId);
    if (!row) throw new AppError("not_found");
    return row;
  }

  /** One conversation with its messages and the user's context (mode, KYC, deposits). */
  async conversation(conversationId: bigint, beforeId: bigint | null, limit: number) {
    const row = await this.found(conversationId);
    const page = await this.deps.repository.messages(conversationId, beforeId, limit);
    let context: SupportUserContext | null = null;
    if (row.conversation.userId !== null) {
      const found = await this.deps.repository.userContext(row.conversation.userId);
      if (found) {
        context = {
          mode: found.mode,
          verification: found.verification,
          frozen: found.frozen,
          recentDeposits: found.deposits.map((d) => ({
            assetId: d.assetId,
            amount: formatAmount(d.amount, this.deps.scaleOf?.(d.assetId) ?? 0),
            atMs: d.atMs,
          })),
        };
      }
    }
    return {
      conversation: this.summaryView(row),
      context,
      messages: page.messages.map(toMessageView),
      more: page.more,
    };
  }

  /**
   * An operator's answer. A visitor also gets it by e-mail in the language they wrote from;
   * when the mail fails the answer stays stored and `mail_unavailable` is answered, so a retry
   * with the same `clientMessageId` sends the e-mail again without a second message. An image
   * must be the answering operator's own `support_image`; the e-mail says that one is waiting.
   */
  async reply(
    conversationId: bigint,
    operatorId: string,
    input: { text?: string; uploadId?: string; clientMessageId: string },
  ): Promise<{ view: SupportMessageView; userId: bigint | null }> {
    const { conversation } = await this.found(conversationId);
    if (
      input.uploadId !== undefined &&
      !(await this.deps.supportImage(input.uploadId, `operator:${operatorId}`))
    ) {
      throw new AppError("upload_not_found");
    }
    const { message, created } = await this.deps.repository.insertMessage({
      conversationId,
      side: "operator",
      text: input.text ?? null,
      uploadId: input.uploadId ?? null,
      operatorId,
      clientMessageId: input.clientMessageId,
      sentAtMs: this.deps.now(),
    });
    const view = toMessageView(message);
    if (created) this.publishMessage(conversation, view);
    if (conversation.visitorEmail !== null) {
      const locale = resolveLocale(conversation.visitorLocale ?? undefined, undefined);
      const texts = messagesByLocale[locale].mail;
      await this.deps.mail({
        to: conversation.visitorEmail,
        subject: texts.supportReplySubject,
        text: [
          texts.supportReplyText,
          ...(message.text === null ? [] : [message.text]),
          ...(message.uploadId === null ? [] : [texts.supportReplyImage]),
        ].join("\n\n"),
        locale,
      });
    }
    return { view, userId: conversation.userId };
  }

  async operatorRead(conversationId: bigint, upToMessageId: bigint) {
    const { conversation } = await this.found(conversationId);
    if (!(await this.deps.repository.hasMessage(conversationId, upToMessageId))) {
      throw new AppError("not_found");
    }
    await this.deps.repository.markRead(conversationId, "operator", upToMessageId);
    this.publishRead(conversation, "operator", upToMessageId);
    const after = await this.deps.repository.byId(conversationId);
    return {
      unread: await this.deps.repository.countAfter(
        conversationId,
        "user",
        after?.operatorReadUpTo ?? upToMessageId,
      ),
      userId: conversation.userId,
    };
  }

  /**
   * Checks that the party may see the upload: a message of their own conversation carries it.
   * Anything else is `upload_not_found`, as an upload that does not exist.
   */
  async checkImageOf(party: SupportParty, uploadId: string): Promise<void> {
    const conversation = await this.conversationOf(party);
    if (
      !conversation ||
      !(await this.deps.repository.uploadInConversation(uploadId, conversation.id))
    ) {
      throw new AppError("upload_not_found");
    }
  }

  /** True when operators may see the upload: it is attached to a support message. */
  async imageAttached(uploadId: string): Promise<boolean> {
    return this.deps.repository.uploadAttached(uploadId);
  }

  private target(conversation: ConversationRow): SupportTarget {
    return {
      conversationId: String(conversation.id),
      userId: conversation.userId === null ? null : String(conversation.userId),
    };
  }

  private publishMessage(conversation: ConversationRow, data: SupportMessageView): void {
    this.deps.publisher?.publishSupport(this.target(conversation), (stream) => ({
      type: "support_message",
      stream,
      data,
    }));
  }

  private publishRead(conversation: ConversationRow, side: SupportSide, upTo: bigint): void {
    this.deps.publisher?.publishSupport(this.target(conversation), (stream) => ({
      type: "support_read",
      stream,
      data: { conversationId: String(conversation.id), side, upToMessageId: String(upTo) },
    }));
  }
}
