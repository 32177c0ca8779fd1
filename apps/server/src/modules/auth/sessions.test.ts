import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "./auth.repository.ts";
import {
  sessionCacheMs,
  Sessions,
  type SessionBus,
  type SessionChange,
  type SessionRepository,
} from "./sessions.ts";

/** Sessions in memory, counting lookups, so the cache can be watched. */
function fakeRepository() {
  const rows = new Map<string, SessionRecord & { revoked: boolean; tokenHash: string }>();
  const counts = { lookups: 0 };
  const repository: SessionRepository = {
    async deleteSessionsExpiredBefore() {},
    async insertSession(session) {
      rows.set(session.tokenHash, {
        tokenHash: session.tokenHash,
        userId: session.userId,
        kind: "email",
        demoOnly: false,
        mode: session.mode,
        expiresAt: session.expiresAt,
        revoked: false,
      });
    },
    async revokeSessions(userId, _at, onlyTokenHash) {
      for (const row of rows.values()) {
        if (row.userId === userId && (!onlyTokenHash || row.tokenHash === onlyTokenHash)) {
          row.revoked = true;
        }
      }
    },
    async setSessionMode(tokenHash, mode) {
      const row = rows.get(tokenHash);
      if (row) row.mode = mode;
    },
    async sessionByTokenHash(tokenHash) {
      counts.lookups += 1;
      const row = rows.get(tokenHash);
      return row && !row.revoked ? { ...row } : undefined;
    },
  };
  return { repository, counts };
}

describe("sessions", () => {
  it("caches a lookup briefly, and forgets it at once on revocation", async () => {
    let nowMs = 1_000_000;
    const { repository, counts } = fakeRepository();
    const sut = new Sessions(repository, () => nowMs);
    const { token } = await sut.open(7n, "real");
    expect((await sut.userByToken(token))?.id).toBe(7n);
    expect((await sut.userByToken(token))?.mode).toBe("real");
    expect(counts.lookups).toBe(1);
    nowMs += sessionCacheMs;
    await sut.userByToken(token);
    expect(counts.lookups).toBe(2);
    await sut.revoke(7n);
    expect(await sut.userByToken(token)).toBeNull();
  });

  it("remembers the hash of live sessions' tokens only, and drops a revoked one's", async () => {
    const nowMs = 1_000_000;
    const { repository, counts } = fakeRepository();
    const sut = new Sessions(repository, () => nowMs);
    const remembered = () => (sut as unknown as { tokenHashes: Map<string, string> }).tokenHashes;
    const a = await sut.open(11n, "real");
    const b = await sut.open(12n, "real");
    expect(await sut.userByToken("not-a-session")).toBeNull();
    expect(remembered().size).toBe(0);
    const first = await sut.userByToken(a.token);
    const cached = await sut.userByToken(a.token);
    expect(cached?.sessionTokenHash).toBe(first?.sessionTokenHash);
    expect(first?.sessionTokenHash).toBe(createHash("sha256").update(a.token).digest("hex"));
    await sut.userByToken(b.token);
    expect([...remembered().keys()].sort()).toEqual([a.token, b.token].sort());
    await sut.revoke(11n);
    expect([...remembered().keys()]).toEqual([b.token]);
    expect(await sut.userByToken(a.token)).toBeNull();
    const lookups = counts.lookups;
    expect((await sut.userByToken(b.token))?.id).toBe(12n);
    expect(counts.lookups).toBe(lookups);
  });

  it("sees a mode switch at once, and refuses expired and malformed tokens", async () => {
    let nowMs = 1_000_000;
    const { repository } = fakeRepository();
    const sut = new Sessions(repository, () => nowMs);
    const { token } = await sut.open(8n, "real");
    const user = await sut.userByToken(token);
    await sut.switchMode(8n, user!.sessionTokenHash, "demo");
    expect((await sut.userByToken(token))?.mode).toBe("demo");
    expect(await sut.userByToken("")).toBeNull();
    expect(await sut.userByToken("x".repeat(201))).toBeNull();
    nowMs += 7 * 24 * 3_600_000;
    expect(await sut.userByToken(token)).toBeNull();
  });

  it("hears of another node's revocations and mode switches at once, and not of its own", async () => {
    const nowMs = 1_000_000;
    // Two nodes on one database and one bus that, like NATS, echoes a node's own messages.
    const { repository, counts } = fakeRepository();
    const wire = fakeBus();
    const nodeA = new Sessions(repository, () => nowMs, wire.node("a"));
    const nodeB = new Sessions(repository, () => nowMs, wire.node("b"));
    const revokedOnB: [bigint, string | undefined][] = [];
    nodeB.onRevoke((userId, tokenHash) => revokedOnB.push([userId, tokenHash]));
    const revokedOnA: [bigint, string | undefined][] = [];
    nodeA.onRevoke((userId, tokenHash) => revokedOnA.push([userId, tokenHash]));

    const first = await nodeA.open(9n, "real");
    const second = await nodeA.open(9n, "real");
    const other = await nodeA.open(10n, "real");
    const userB = await nodeB.userByToken(first.token);
    await nodeB.userByToken(second.token);
    await nodeB.userByToken(other.token);
    expect(counts.lookups).toBe(3);

    // A mode switch on A: B's cached session is forgotten (well before `sessionCacheMs`).
    await nodeA.switchMode(9n, userB!.sessionTokenHash, "demo");
    expect((await nodeB.userByToken(first.token))?.mode).toBe("demo");
    expect(counts.lookups).toBe(4);
    expect(revokedOnB).toEqual([]); // A mode switch ends no session.
    // The other sessions stay cached on B.
    await nodeB.userByToken(second.token);
    await nodeB.userByToken(other.token);
    expect(counts.lookups).toBe(4);

    // One session signed out on A: B refuses it and its revoke listeners run (streams close).
    await nodeA.revoke(9n, userB!.sessionTokenHash);
    expect(await nodeB.userByToken(first.token)).toBeNull();
    expect(revokedOnB).toEqual([[9n, userB!.sessionTokenHash]]);
    // A ran its own listeners once, when it revoked, and not again for its own echoed message.
    expect(revokedOnA).toEqual([[9n, userB!.sessionTokenHash]]);
    expect((await nodeB.userByToken(second.token))?.id).toBe(9n);

    // Every session of the user, revoked on A: gone on B too; user 10's stays cached.
    await nodeA.revoke(9n);
    expect(await nodeB.userByToken(second.token)).toBeNull();
    expect(revokedOnB).toEqual([
      [9n, userB!.sessionTokenHash],
      [9n, undefined],
    ]);
    expect(revokedOnA).toHaveLength(2);
    const lookups = counts.lookups;
    expect((await nodeB.userByToken(other.token))?.id).toBe(10n);
    expect(counts.lookups).toBe(lookups);
    expect(wire.published).toEqual([
      { nodeId: "a", change: { kind: "mode", userId: 9n, tokenHash: userB!.sessionTokenHash } },
      { nodeId: "a", change: { kind: "revoke", userId: 9n, tokenHash: userB!.sessionTokenHash } },
      { nodeId: "a", change: { kind: "revoke", userId: 9n, tokenHash: undefined } },
    ]);

    // An operator's sign-out on the bus is not a user's: B's user sessions and listeners stay.
    wire.node("c").publish({ kind: "operator_revoke", tokenHash: "ab".repeat(32) });
    expect(revokedOnB).toHaveLength(2);
    expect((await nodeB.userByToken(other.token))?.id).toBe(10n);
    expect(counts.lookups).toBe(lookups);

    // After close, B no longer listens.
    nodeB.close();
    await nodeA.revoke(10n);
    expect(revokedOnB).toHaveLength(2);
  });

  it("does not cache a lookup that raced a change (a revocation heard mid-read)", async () => {
    const { repository } = fakeRepository();
    const wire = fakeBus();
    const nodeA = new Sessions(repository, () => 1_000_000, wire.node("a"));
    const { token } = await nodeA.open(11n, "real");
    // Node B reads the session from the database; the revocation lands before B caches it.
    let releaseRead: (() => void) | undefined;
    let slow = true;
    const slowRepository: SessionRepository = {
      ...repository,
      async sessionByTokenHash(tokenHash) {
        const row = await repository.sessionByTokenHash(tokenHash);
        if (slow) await new Promise<void>((resolve) => (releaseRead = resolve));
        slow = false;
        return row;
      },
    };
    const nodeB = new Sessions(slowRepository, () => 1_000_000, wire.node("b"));
    const read = nodeB.userByToken(token);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await nodeA.revoke(11n);
    releaseRead!();
    expect((await read)?.id).toBe(11n); // Read before the revocation: answered as it was.
    expect(await nodeB.userByToken(token)).toBeNull(); // But not cached past it.
  });
});

/** An in-memory bus: delivers every message to every node, the sender included (as NATS does). */
function fakeBus() {
  const listeners = new Set<(change: SessionChange, nodeId: string) => void>();
  const published: { nodeId: string; change: SessionChange }[] = [];
  return {
    published,
    node(nodeId: string): SessionBus {
      return {
        nodeId,
        publish(change) {
          published.push({ nodeId, change });
          for (const listener of listeners) listener(change, nodeId);
        },
        subscribe(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      };
    },
  };
}
