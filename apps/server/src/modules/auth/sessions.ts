import { randomBytes } from "node:crypto";
import type { AuthUser, SessionLookup } from "../../http/authenticate.ts";
import type { AuthRepository } from "./auth.repository.ts";
import { sha256Hex } from "./users.ts";

/** How long a session token works after sign-in. */
export const sessionLifetimeMs = 7 * 24 * 3_600_000;

/**
 * How long a looked-up session is trusted without asking the database again. Revocations and
 * mode switches made through `Sessions` clear the cache at once; another process sharing the
 * database sees them within this time. See docs/decisions.md ("Session lookups are cached").
 */
export const sessionCacheMs = 3_000;

const sessionCacheKeysMax = 100_000;

/** The queries sessions need (a slice of `AuthRepository`, so tests can fake it). */
export type SessionRepository = Pick<
  AuthRepository,
  | "deleteSessionsExpiredBefore"
  | "insertSession"
  | "revokeSessions"
  | "setSessionMode"
  | "sessionByTokenHash"
>;

/**
 * Sessions: opens them (a 256-bit random token, of which only the SHA-256 is stored), looks
 * bearer tokens up for `authenticatePlugin` (cached briefly, so order placement does not query
 * PGlite on every request), revokes them and switches their mode.
 */
export class Sessions implements SessionLookup {
  private readonly cache = new Map<string, { user: AuthUser; untilMs: number }>();
  private readonly revokeListeners: ((userId: bigint, onlyTokenHash?: string) => void)[] = [];
  private lookupListener: ((tokenHash: string) => Promise<void>) | undefined;

  constructor(
    private readonly repository: SessionRepository,
    private readonly now: () => number,
  ) {}

  /** Opens a session for `userId` in `mode`; the token is returned once and never stored. */
  async open(userId: bigint, mode: "real" | "demo") {
    const nowMs = this.now();
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(nowMs + sessionLifetimeMs);
    // A day after they end, a user's old sessions serve no one: drop them at the next sign-in.
    await this.repository.deleteSessionsExpiredBefore(userId, new Date(nowMs - 24 * 3_600_000));
    await this.repository.insertSession({
      tokenHash: sha256Hex(token),
      userId,
      mode,
      createdAt: new Date(nowMs),
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** Revokes every live session of a user, or only the one with `onlyTokenHash`. */
  async revoke(userId: bigint, onlyTokenHash?: string): Promise<void> {
    await this.repository.revokeSessions(userId, new Date(this.now()), onlyTokenHash);
    this.cache.clear();
    for (const listener of this.revokeListeners) listener(userId, onlyTokenHash);
  }

  /**
   * Calls `listener` after every revocation (logout, password change and reset): the app
   * closes the WebSocket streams of the ended sessions with it.
   */
  onRevoke(listener: (userId: bigint, onlyTokenHash?: string) => void): void {
    this.revokeListeners.push(listener);
  }

  /**
   * Calls `listener` when a token is looked up in the database (a cache miss, so at most every
   * `sessionCacheMs` per session): the security centre records the session's last use with it.
   */
  onLookup(listener: (tokenHash: string) => Promise<void>): void {
    this.lookupListener = listener;
  }

  /** Moves one session to real or demo money. */
  async switchMode(tokenHash: string, mode: "real" | "demo"): Promise<void> {
    await this.repository.setSessionMode(tokenHash, mode);
    this.cache.clear();
  }

  /** The signed-in user of a bearer token; null when unknown, revoked or expired. */
  async userByToken(token: string): Promise<AuthUser | null> {
    if (token.length === 0 || token.length > 200) return null;
    const tokenHash = sha256Hex(token);
    const nowMs = this.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.untilMs > nowMs) return { ...cached.user };
    if (cached) this.cache.delete(tokenHash);
    const row = await this.repository.sessionByTokenHash(tokenHash);
    const expiresAtMs = row?.expiresAt.getTime() ?? 0;
    if (!row || expiresAtMs <= this.now()) return null;
    await this.lookupListener?.(tokenHash);
    const user: AuthUser = {
      id: row.userId,
      kind: row.kind,
      mode: row.demoOnly ? "demo" : row.mode,
      demoOnly: row.demoOnly,
      sessionTokenHash: tokenHash,
      ...(row.frozen ? { frozen: true } : {}),
    };
    if (this.cache.size >= sessionCacheKeysMax) this.cache.clear();
    this.cache.set(tokenHash, { user, untilMs: Math.min(nowMs + sessionCacheMs, expiresAtMs) });
    return { ...user };
  }
}
