import { randomBytes } from "node:crypto";
import type { AuthUser, SessionLookup } from "../../http/authenticate.ts";
import type { AuthRepository } from "./auth.repository.ts";
import { sha256Hex } from "./users.ts";

/** How long a session token works after sign-in. */
export const sessionLifetimeMs = 7 * 24 * 3_600_000;

/**
 * How long a looked-up session is trusted without asking the database again. Revocations and
 * mode switches made through `Sessions` clear the cache at once; another process sharing the
 * database hears of them over the session bus at once when there is one (`SessionBus`), and
 * sees them within this time at the latest (the bus is at-most-once). See docs/decisions.md
 * ("Session lookups are cached", "Session changes cross nodes on NATS").
 */
export const sessionCacheMs = 3_000;

const sessionCacheKeysMax = 100_000;

/**
 * A user's session change made on one node: every session of `userId` (or only `tokenHash`'s)
 * was revoked, or the session `tokenHash` switched between real and demo money.
 */
export type UserSessionChange =
  | { kind: "revoke"; userId: bigint; tokenHash?: string }
  | { kind: "mode"; userId: bigint; tokenHash: string };

/**
 * An operator (back-office) session ended on one node (sign-out): `OperatorAccounts` closes its
 * support-desk streams on every node. Operator sessions are not cached, so nothing else to do.
 */
export interface OperatorSessionChange {
  kind: "operator_revoke";
  /** SHA-256 of the operator's session token. */
  tokenHash: string;
}

/** Any change that travels on the session bus. */
export type SessionChange = UserSessionChange | OperatorSessionChange;

/**
 * How the nodes of a cluster tell each other about session changes (issue 25; the NATS
 * implementation is `cluster/session-bus.ts`). `publish` is fire-and-forget and at-most-once:
 * a lost message leaves another node's cache stale for at most `sessionCacheMs`. A subscriber
 * may also receive its own node's messages; they carry `nodeId` so it can drop them.
 */
export interface SessionBus {
  /** This node's id, sent with every message it publishes. */
  readonly nodeId: string;
  publish(change: SessionChange): void;
  /** Calls `listener` with every change published by any node; returns the unsubscribe. */
  subscribe(listener: (change: SessionChange, nodeId: string) => void): () => void;
}

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
  /**
   * The SHA-256 of tokens of sessions found valid, so a cached session costs no hash per
   * request (W6). Only tokens that named a live session get in, never a stranger's guess;
   * emptied with the cache when full, and a token leaves with its session's cache entry on
   * every change (revocation, mode switch).
   */
  private readonly tokenHashes = new Map<string, string>();
  private readonly revokeListeners: ((userId: bigint, onlyTokenHash?: string) => void)[] = [];
  private lookupListener: ((tokenHash: string) => Promise<void>) | undefined;
  // Bumped by every eviction: a lookup that began before one does not cache what it read, so a
  // database read racing a revocation cannot put the ended session back for `sessionCacheMs`.
  private generation = 0;
  private readonly unsubscribeBus: (() => void) | undefined;

  /**
   * With a `bus` (a cluster of nodes sharing the database), every local revocation and mode
   * switch is published on it, and one published by another node evicts the session here and,
   * for a revocation, runs the revoke listeners (closing that session's WebSocket streams).
   */
  constructor(
    private readonly repository: SessionRepository,
    private readonly now: () => number,
    private readonly bus?: SessionBus,
  ) {
    this.unsubscribeBus = bus?.subscribe((change, nodeId) => {
      if (nodeId === bus.nodeId) return; // Already done here, before it was published.
      if (change.kind === "operator_revoke") return; // `OperatorAccounts`'.
      this.apply(change);
    });
  }

  /** Stops listening to the session bus (the app's close). */
  close(): void {
    this.unsubscribeBus?.();
  }

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
    const change: UserSessionChange = { kind: "revoke", userId, tokenHash: onlyTokenHash };
    // Told to the other nodes first: a local listener's error must not keep it from them.
    this.bus?.publish(change);
    this.apply(change);
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
  async switchMode(userId: bigint, tokenHash: string, mode: "real" | "demo"): Promise<void> {
    await this.repository.setSessionMode(tokenHash, mode);
    const change: UserSessionChange = { kind: "mode", userId, tokenHash };
    this.bus?.publish(change);
    this.apply(change);
  }

  /**
   * A change made here or on another node: forgets the cached sessions it touches and, for a
   * revocation, tells the revoke listeners.
   */
  private apply(change: UserSessionChange): void {
    this.generation += 1;
    for (const [tokenHash, entry] of this.cache) {
      const touched =
        change.tokenHash === undefined
          ? entry.user.id === change.userId
          : tokenHash === change.tokenHash;
      if (touched) this.cache.delete(tokenHash);
    }
    // The raw tokens of the sessions touched leave memory too (a revoked one is never needed).
    for (const [token, tokenHash] of this.tokenHashes) {
      if (!this.cache.has(tokenHash)) this.tokenHashes.delete(token);
    }
    if (change.kind !== "revoke") return;
    for (const listener of this.revokeListeners) listener(change.userId, change.tokenHash);
  }

  /** The signed-in user of a bearer token; null when unknown, revoked or expired. */
  async userByToken(token: string): Promise<AuthUser | null> {
    if (token.length === 0 || token.length > 200) return null;
    const tokenHash = this.tokenHashes.get(token) ?? sha256Hex(token);
    const nowMs = this.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.untilMs > nowMs) return { ...cached.user };
    if (cached) this.cache.delete(tokenHash);
    const generation = this.generation;
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
      sessionExpiresAtMs: expiresAtMs,
      ...(row.frozen ? { frozen: true } : {}),
    };
    if (generation !== this.generation) return { ...user }; // A change raced this read.
    if (this.cache.size >= sessionCacheKeysMax) this.cache.clear();
    if (this.tokenHashes.size >= sessionCacheKeysMax) this.tokenHashes.clear();
    this.cache.set(tokenHash, { user, untilMs: Math.min(nowMs + sessionCacheMs, expiresAtMs) });
    this.tokenHashes.set(token, tokenHash);
    return { ...user };
  }
}
