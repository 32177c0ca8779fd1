import { describe, expect, it } from "vitest";
import type { SessionRecord } from "./auth.repository.ts";
import { sessionCacheMs, Sessions, type SessionRepository } from "./sessions.ts";

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

  it("sees a mode switch at once, and refuses expired and malformed tokens", async () => {
    let nowMs = 1_000_000;
    const { repository } = fakeRepository();
    const sut = new Sessions(repository, () => nowMs);
    const { token } = await sut.open(8n, "real");
    const user = await sut.userByToken(token);
    await sut.switchMode(user!.sessionTokenHash, "demo");
    expect((await sut.userByToken(token))?.mode).toBe("demo");
    expect(await sut.userByToken("")).toBeNull();
    expect(await sut.userByToken("x".repeat(201))).toBeNull();
    nowMs += 7 * 24 * 3_600_000;
    expect(await sut.userByToken(token)).toBeNull();
  });
});
