import { sql } from "kysely";
import type { SupportSide } from "@candor/contract";
import type { Database } from "../../db/database.ts";

/** A conversation as stored. */
export interface ConversationRow {
  id: bigint;
  userId: bigint | null;
  visitorEmail: string | null;
  visitorLocale: string | null;
  userReadUpTo: bigint;
  operatorReadUpTo: bigint;
  updatedAtMs: number;
}

/** A message as stored, with its image's size when it has one. */
export interface MessageRow {
  id: bigint;
  conversationId: bigint;
  side: SupportSide;
  text: string | null;
  uploadId: string | null;
  width: number | null;
  height: number | null;
  clientMessageId: string;
  sentAtMs: number;
}

/** A conversation in the operator's list: who, the newest message and the unread count. */
export interface SummaryRow {
  conversation: ConversationRow;
  email: string | null;
  nickname: string | null;
  last: MessageRow | null;
  /** User messages after the operators' read position. */
  unread: number;
}

const conversationColumns = sql`c.id, c.user_id, c.visitor_email, c.visitor_locale,
  c.user_read_up_to, c.operator_read_up_to, c.updated_at_ms`;

function toConversation(r: Record<string, unknown>): ConversationRow {
  return {
    id: BigInt(String(r.id)),
    userId: r.user_id === null ? null : BigInt(String(r.user_id)),
    visitorEmail: (r.visitor_email as string | null) ?? null,
    visitorLocale: (r.visitor_locale as string | null) ?? null,
    userReadUpTo: BigInt(String(r.user_read_up_to)),
    operatorReadUpTo: BigInt(String(r.operator_read_up_to)),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

const messageColumns = sql`m.id, m.conversation_id, m.side, m.text, m.upload_id, u.width,
  u.height, m.client_message_id, m.sent_at_ms`;

function toMessage(r: Record<string, unknown>): MessageRow {
  return {
    id: BigInt(String(r.id)),
    conversationId: BigInt(String(r.conversation_id)),
    side: r.side as SupportSide,
    text: (r.text as string | null) ?? null,
    uploadId: (r.upload_id as string | null) ?? null,
    width: r.width === null || r.width === undefined ? null : Number(r.width),
    height: r.height === null || r.height === undefined ? null : Number(r.height),
    clientMessageId: String(r.client_message_id),
    sentAtMs: Number(r.sent_at_ms),
  };
}

/** The only file of the support module that speaks SQL. */
/**
 * A conversation with its e-mail, the operators' unread count and its last message. The list
 * takes conversations with a message (`JOIN`); one conversation is read even when empty
 * (`LEFT JOIN`).
 */
function summarySelect(lastMessageJoin: "JOIN" | "LEFT JOIN") {
  return sql`SELECT ${conversationColumns},
        coalesce(us.email, c.visitor_email) AS email, us.nickname,
        (SELECT count(*) FROM support_messages x WHERE x.conversation_id = c.id
          AND x.side = 'user' AND x.id > c.operator_read_up_to)::text AS unread,
        lm.id AS lm_id, lm.conversation_id AS lm_conversation_id, lm.side AS lm_side,
        lm.text AS lm_text, lm.upload_id AS lm_upload_id, lm.width AS lm_width,
        lm.height AS lm_height, lm.client_message_id AS lm_client_message_id,
        lm.sent_at_ms AS lm_sent_at_ms
      FROM support_conversations c
      LEFT JOIN users us ON us.id = c.user_id
      ${sql.raw(lastMessageJoin)} LATERAL (SELECT ${messageColumns} FROM support_messages m
        LEFT JOIN uploads u ON u.id = m.upload_id
        WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1) lm ON true`;
}

export class SupportRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async byUser(userId: bigint): Promise<ConversationRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT ${conversationColumns}
      FROM support_conversations c WHERE c.user_id = ${userId}`.execute(this.db);
    return result.rows[0] ? toConversation(result.rows[0]) : undefined;
  }

  async byId(id: bigint): Promise<ConversationRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT ${conversationColumns}
      FROM support_conversations c WHERE c.id = ${id}`.execute(this.db);
    return result.rows[0] ? toConversation(result.rows[0]) : undefined;
  }

  async byTokenHash(tokenHash: string): Promise<ConversationRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT ${conversationColumns}
      FROM support_conversations c WHERE c.visitor_token_hash = ${tokenHash}`.execute(this.db);
    return result.rows[0] ? toConversation(result.rows[0]) : undefined;
  }

  /** The user's conversation, opened on first use (two first messages at once open one). */
  async openForUser(userId: bigint, nowMs: number): Promise<ConversationRow> {
    await sql`INSERT INTO support_conversations (user_id, created_at_ms, updated_at_ms)
      VALUES (${userId}, ${nowMs}, ${nowMs}) ON CONFLICT (user_id) DO NOTHING`.execute(this.db);
    return (await this.byUser(userId))!;
  }

  async openForVisitor(
    email: string,
    tokenHash: string,
    locale: string,
    nowMs: number,
  ): Promise<ConversationRow> {
    const result = await sql<Record<string, unknown>>`INSERT INTO support_conversations AS c
        (visitor_email, visitor_token_hash, visitor_locale, created_at_ms, updated_at_ms)
      VALUES (${email}, ${tokenHash}, ${locale}, ${nowMs}, ${nowMs})
      RETURNING ${conversationColumns}`.execute(this.db);
    return toConversation(result.rows[0]!);
  }

  /**
   * Adds a message (or finds the one already sent with the same client id) and moves the
   * conversation's time; the sender has read everything up to its own message.
   */
  async insertMessage(message: {
    conversationId: bigint;
    side: SupportSide;
    text: string | null;
    uploadId: string | null;
    operatorId: string | null;
    clientMessageId: string;
    sentAtMs: number;
  }): Promise<{ message: MessageRow; created: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await sql<{ id: string }>`INSERT INTO support_messages
          (conversation_id, side, text, upload_id, operator_id, client_message_id, sent_at_ms)
        VALUES (${message.conversationId}, ${message.side}, ${message.text}, ${message.uploadId},
          ${message.operatorId}, ${message.clientMessageId}, ${message.sentAtMs})
        ON CONFLICT (conversation_id, side, client_message_id) DO NOTHING
        RETURNING id::text AS id`.execute(trx);
      const created = inserted.rows.length > 0;
      if (created) {
        const id = BigInt(inserted.rows[0]!.id);
        const readColumn =
          message.side === "user" ? sql`user_read_up_to` : sql`operator_read_up_to`;
        await sql`UPDATE support_conversations SET updated_at_ms = ${message.sentAtMs},
            ${readColumn} = GREATEST(${readColumn}, ${id})
          WHERE id = ${message.conversationId}`.execute(trx);
      }
      const row = await sql<Record<string, unknown>>`SELECT ${messageColumns}
        FROM support_messages m LEFT JOIN uploads u ON u.id = m.upload_id
        WHERE m.conversation_id = ${message.conversationId} AND m.side = ${message.side}
          AND m.client_message_id = ${message.clientMessageId}`.execute(trx);
      return { message: toMessage(row.rows[0]!), created };
    });
  }

  /** The newest `limit` messages before `beforeId` (all when null), oldest first. */
  async messages(conversationId: bigint, beforeId: bigint | null, limit: number) {
    const result = await sql<Record<string, unknown>>`SELECT ${messageColumns}
      FROM support_messages m LEFT JOIN uploads u ON u.id = m.upload_id
      WHERE m.conversation_id = ${conversationId}
        AND (${beforeId}::bigint IS NULL OR m.id < ${beforeId}::bigint)
      ORDER BY m.id DESC LIMIT ${limit + 1}`.execute(this.db);
    const rows = result.rows.map(toMessage);
    return { messages: rows.slice(0, limit).reverse(), more: rows.length > limit };
  }

  /** Messages of `side` after `afterId`: the other side's unread count. */
  async countAfter(conversationId: bigint, side: SupportSide, afterId: bigint): Promise<number> {
    const result = await sql<{ count: string }>`SELECT count(*)::text AS count
      FROM support_messages WHERE conversation_id = ${conversationId} AND side = ${side}
        AND id > ${afterId}`.execute(this.db);
    return Number(result.rows[0]!.count);
  }

  /** True when the message belongs to the conversation. */
  async hasMessage(conversationId: bigint, messageId: bigint): Promise<boolean> {
    const result = await sql`SELECT 1 FROM support_messages
      WHERE conversation_id = ${conversationId} AND id = ${messageId}`.execute(this.db);
    return result.rows.length > 0;
  }

  /** Moves a side's read position forward (never back). */
  async markRead(conversationId: bigint, reader: SupportSide, upTo: bigint): Promise<void> {
    const column = reader === "user" ? sql`user_read_up_to` : sql`operator_read_up_to`;
    await sql`UPDATE support_conversations SET ${column} = GREATEST(${column}, ${upTo})
      WHERE id = ${conversationId}`.execute(this.db);
  }

  /** Conversations with at least one message, most recent first, for the operators. */
  async summaries(limit: number, offset: number): Promise<SummaryRow[]> {
    const result = await sql<Record<string, unknown>>`${summarySelect("JOIN")}
      ORDER BY c.updated_at_ms DESC, c.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(this.db);
    return result.rows.map((r) => summaryOf(r));
  }

  async summary(conversationId: bigint): Promise<SummaryRow | undefined> {
    const result = await sql<Record<string, unknown>>`${summarySelect("LEFT JOIN")}
      WHERE c.id = ${conversationId}`.execute(this.db);
    return result.rows[0] ? summaryOf(result.rows[0]) : undefined;
  }

  /** Conversations with user messages the operators have not read. */
  async unreadConversations(): Promise<number> {
    const result = await sql<{ count: string }>`SELECT count(*)::text AS count
      FROM support_conversations c WHERE EXISTS (SELECT 1 FROM support_messages m
        WHERE m.conversation_id = c.id AND m.side = 'user' AND m.id > c.operator_read_up_to)`.execute(
      this.db,
    );
    return Number(result.rows[0]!.count);
  }

  /** True when the upload is attached to some support message (operators may see it). */
  async uploadAttached(uploadId: string): Promise<boolean> {
    const result = await sql`SELECT 1 FROM support_messages WHERE upload_id = ${uploadId}
      LIMIT 1`.execute(this.db);
    return result.rows.length > 0;
  }

  /** True when a message of the conversation (either side) carries the upload. */
  async uploadInConversation(uploadId: string, conversationId: bigint): Promise<boolean> {
    const result = await sql`SELECT 1 FROM support_messages
      WHERE conversation_id = ${conversationId} AND upload_id = ${uploadId} LIMIT 1`.execute(
      this.db,
    );
    return result.rows.length > 0;
  }

  /** What an operator sees beside a user's conversation. */
  async userContext(userId: bigint) {
    const user = await sql<Record<string, unknown>>`SELECT kind, verification, frozen_at,
        (SELECT s.mode FROM sessions s WHERE s.user_id = users.id
          ORDER BY coalesce(s.last_seen_at, s.created_at) DESC LIMIT 1) AS mode
      FROM users WHERE id = ${userId}`.execute(this.db);
    const row = user.rows[0];
    if (!row) return undefined;
    const deposits = await sql<Record<string, unknown>>`SELECT asset_id, amount::text AS amount,
        at_ms FROM rm_statement_lines
      WHERE owner_id = ${String(userId)} AND mode = 'real' AND reason = 'deposit'
      ORDER BY posting_seq DESC LIMIT 5`.execute(this.db);
    return {
      mode: (row.kind === "demo" ? "demo" : (row.mode ?? "real")) as "real" | "demo",
      verification: String(row.verification),
      frozen: row.frozen_at !== null,
      deposits: deposits.rows.map((d) => ({
        assetId: String(d.asset_id),
        amount: BigInt(String(d.amount)),
        atMs: Number(d.at_ms),
      })),
    };
  }
}

function summaryOf(r: Record<string, unknown>): SummaryRow {
  const last =
    r.lm_id === null || r.lm_id === undefined
      ? null
      : toMessage({
          id: r.lm_id,
          conversation_id: r.lm_conversation_id,
          side: r.lm_side,
          text: r.lm_text,
          upload_id: r.lm_upload_id,
          width: r.lm_width,
          height: r.lm_height,
          client_message_id: r.lm_client_message_id,
          sent_at_ms: r.lm_sent_at_ms,
        });
  return {
    conversation: toConversation(r),
    email: (r.email as string | null) ?? null,
    nickname: (r.nickname as string | null) ?? null,
    last,
    unread: Number(r.unread),
  };
}
