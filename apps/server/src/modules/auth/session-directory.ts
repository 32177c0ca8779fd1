import { sql } from "kysely";
import type { SessionView } from "@candor/contract";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import type { Sessions } from "./sessions.ts";

/** The public handle of a session: a prefix of its token's hash (never the token). */
export function sessionIdOf(tokenHash: string): string {
  return tokenHash.slice(0, 24);
}

/** A User-Agent as stored and shown: printable characters only, at most 200. */
export function cleanUserAgent(value: string | undefined): string | null {
  const clean = (value ?? "")
    .replace(/[^\x20-\x7e]/g, "")
    .slice(0, 200)
    .trim();
  return clean.length > 0 ? clean : null;
}

/**
 * The security centre's list of a user's active sessions (device, IP, last use) and signing
 * out one of them or all the others. Sign-in records the device and IP (`describe`); a lookup
 * that misses the session cache records the last use (`touch`, at most once a minute).
 */
export class SessionDirectory {
  /** When each session's last use was last written: at most once a minute per session. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly sessions: Sessions,
    private readonly now: () => number,
  ) {}

  private get db() {
    return this.database.db;
  }

  async describe(tokenHash: string, client: { ip: string; userAgent: string | undefined }) {
    await sql`
      UPDATE sessions SET ip = ${client.ip.slice(0, 64)},
        user_agent = ${cleanUserAgent(client.userAgent)}, last_seen_at = ${new Date(this.now())}
      WHERE token_hash = ${tokenHash}`.execute(this.db);
  }

  async touch(tokenHash: string): Promise<void> {
    const nowMs = this.now();
    if ((this.touched.get(tokenHash) ?? -Infinity) > nowMs - 60_000) return;
    if (this.touched.size >= 100_000) this.touched.clear();
    this.touched.set(tokenHash, nowMs);
    await sql`UPDATE sessions SET last_seen_at = ${new Date(this.now())}
      WHERE token_hash = ${tokenHash}`.execute(this.db);
  }

  private async live(userId: bigint) {
    const rows = await sql<Record<string, unknown>>`
      SELECT token_hash, mode, user_agent, ip, created_at, last_seen_at, expires_at
      FROM sessions
      WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${new Date(this.now())}
      ORDER BY created_at DESC LIMIT 100`.execute(this.db);
    return rows.rows;
  }

  async list(user: AuthUser): Promise<SessionView[]> {
    const iso = (value: unknown) => new Date(value as string).toISOString();
    return (await this.live(user.id)).map((row) => ({
      sessionId: sessionIdOf(String(row.token_hash)),
      current: row.token_hash === user.sessionTokenHash,
      mode: row.mode as "real" | "demo",
      userAgent: row.user_agent === null ? null : String(row.user_agent),
      ip: row.ip === null ? null : String(row.ip),
      createdAt: iso(row.created_at),
      lastSeenAt: row.last_seen_at === null ? null : iso(row.last_seen_at),
      expiresAt: iso(row.expires_at),
    }));
  }

  /** Signs out one live session of the user; another user's session is "not found". */
  async revokeOne(user: AuthUser, sessionId: string): Promise<void> {
    const match = (await this.live(user.id)).find(
      (row) => sessionIdOf(String(row.token_hash)) === sessionId,
    );
    if (!match) throw new AppError("session_not_found");
    await this.sessions.revoke(user.id, String(match.token_hash));
  }

  /** Signs out every live session of the user but the calling one. */
  async revokeOthers(user: AuthUser): Promise<number> {
    const others = (await this.live(user.id)).filter(
      (row) => row.token_hash !== user.sessionTokenHash,
    );
    for (const row of others) await this.sessions.revoke(user.id, String(row.token_hash));
    return others.length;
  }
}
