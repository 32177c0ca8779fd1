import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** A user as the back office lists them. */
export interface BackOfficeUserRow {
  id: string;
  kind: "email" | "phone" | "wallet" | "demo";
  email: string | null;
  phone: string | null;
  walletAddress: string | null;
  nickname: string | null;
  /** Country of residence (ISO 3166-1 alpha-2), null while none is chosen. */
  country: string | null;
  verification: string;
  frozenAtMs: number | null;
  createdAtMs: number;
}

function toUser(r: Record<string, unknown>): BackOfficeUserRow {
  const ms = (value: unknown) =>
    value === null ? null : new Date(value as string | Date).getTime();
  return {
    id: String(r.id),
    kind: r.kind as BackOfficeUserRow["kind"],
    email: (r.email as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    walletAddress: (r.wallet_address as string | null) ?? null,
    nickname: (r.nickname as string | null) ?? null,
    country: (r.country as string | null) ?? null,
    verification: String(r.verification),
    frozenAtMs: ms(r.frozen_at),
    createdAtMs: ms(r.created_at)!,
  };
}

const userColumns = sql`id, kind, email, phone, wallet_address, nickname, country, verification,
  frozen_at, created_at`;

/** The back office's SQL: users, their recent statement lines and sessions, freezing. */
export class BackOfficeRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Users whose id is `q`, or whose e-mail, phone, wallet or nickname contains it. */
  async search(q: string, limit: number): Promise<BackOfficeUserRow[]> {
    const text = q.trim().toLowerCase();
    const id = /^\d{1,18}$/.test(text) ? text : null;
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const result = await sql<Record<string, unknown>>`SELECT ${userColumns} FROM users
      WHERE ${text} = ''
         OR id = ${id}::bigint
         OR lower(coalesce(email, '')) LIKE ${like}
         OR coalesce(phone, '') LIKE ${like}
         OR lower(coalesce(wallet_address, '')) LIKE ${like}
         OR lower(nickname) LIKE ${like}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toUser);
  }

  async user(id: string): Promise<BackOfficeUserRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT ${userColumns} FROM users
      WHERE id = ${id}::bigint`.execute(this.db);
    return result.rows[0] ? toUser(result.rows[0]) : undefined;
  }

  /** Sets or clears the freeze; the user afterwards (undefined when there is no such user). */
  async setFrozen(
    id: string,
    frozen: { atMs: number; by: string; reason: string } | null,
  ): Promise<BackOfficeUserRow | undefined> {
    const result = await sql<Record<string, unknown>>`UPDATE users SET
        frozen_at = ${frozen ? new Date(frozen.atMs) : null},
        frozen_by = ${frozen?.by ?? null}, frozen_reason = ${frozen?.reason ?? null}
      WHERE id = ${id}::bigint RETURNING ${userColumns}`.execute(this.db);
    return result.rows[0] ? toUser(result.rows[0]) : undefined;
  }

  /** The user's latest statement lines (the projected postings), newest first. */
  async statement(ownerId: string, limit: number) {
    const result = await sql<Record<string, unknown>>`SELECT posting_seq, at_ms, reason, asset_id,
        amount::text AS amount, operator_id FROM rm_statement_lines
      WHERE owner_id = ${ownerId} ORDER BY posting_seq DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map((r) => ({
      seq: String(r.posting_seq),
      atMs: Number(r.at_ms),
      reason: String(r.reason),
      assetId: String(r.asset_id),
      amount: BigInt(String(r.amount)),
      operatorId: (r.operator_id as string | null) ?? null,
    }));
  }

  /** The user's live sessions, most recently used first. */
  async sessions(userId: string, nowMs: number) {
    const result = await sql<Record<string, unknown>>`SELECT user_agent, last_seen_at, created_at
      FROM sessions WHERE user_id = ${userId}::bigint AND revoked_at IS NULL
        AND expires_at > ${new Date(nowMs)}
      ORDER BY coalesce(last_seen_at, created_at) DESC LIMIT 50`.execute(this.db);
    return result.rows.map((r) => {
      const created = new Date(r.created_at as string | Date);
      const lastUsed =
        r.last_seen_at === null ? created : new Date(r.last_seen_at as string | Date);
      return {
        device: (r.user_agent as string | null) ?? "",
        lastUsedAt: lastUsed.toISOString(),
        createdAt: created.toISOString(),
      };
    });
  }
}
