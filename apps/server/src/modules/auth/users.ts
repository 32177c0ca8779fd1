import { createHash, randomBytes, randomInt } from "node:crypto";
import type { UserInfo } from "@candor/contract";
import type { Database } from "../../db/database.ts";
import { invalidateSessionCache } from "../../http/authenticate.ts";

export const sessionLifetimeMs = 7 * 24 * 3_600_000;

type UserRow = {
  id: bigint;
  kind: "email" | "phone" | "wallet" | "demo";
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
  nickname: string;
  avatar: number;
  demo_only: boolean;
  email_verified: boolean;
  verification: "unverified" | "under_review" | "passed" | "not_approved";
  trade_password_hash: string | null;
  invite_code: string;
  created_at: Date;
};

export function toUserInfo(row: UserRow, mode: "real" | "demo"): UserInfo {
  const sessionMode = row.demo_only ? "demo" : mode;
  return {
    id: String(row.id),
    username: row.email ?? row.phone ?? row.wallet_address ?? `demo-${row.id}`,
    kind: row.kind,
    email: row.email,
    phone: row.phone,
    walletAddress: row.wallet_address,
    nickname: row.nickname,
    avatar: row.avatar,
    isVirtual: sessionMode === "demo",
    mode: sessionMode,
    demoOnly: row.demo_only,
    emailVerified: row.email_verified,
    verification: row.verification,
    tradePasswordSet: row.trade_password_hash !== null,
    inviteCode: row.invite_code,
    createdAt: row.created_at.toISOString(),
  };
}

export async function loadUser(database: Database, userId: bigint) {
  return database.db
    .selectFrom("users")
    .select([
      "id",
      "kind",
      "email",
      "phone",
      "wallet_address",
      "nickname",
      "avatar",
      "demo_only",
      "email_verified",
      "verification",
      "trade_password_hash",
      "invite_code",
      "created_at",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}

/** Eight characters from an alphabet without look-alikes (0/O, 1/I). */
export function newInviteCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: 8 }, () => alphabet[randomInt(0, alphabet.length)]).join("");
}

export function sha256Hex(text: string) {
  return createHash("sha256").update(text).digest("hex");
}

/** Opens a session: a 256-bit random token, of which only the SHA-256 is stored. */
export async function createSession(
  database: Database,
  nowMs: number,
  userId: bigint,
  mode: "real" | "demo",
) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(nowMs + sessionLifetimeMs);
  // A day after they end, a user's old sessions serve no one: drop them at the next sign-in.
  await database.db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where("expires_at", "<", new Date(nowMs - 24 * 3_600_000))
    .execute();
  await database.db
    .insertInto("sessions")
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      mode,
      created_at: new Date(nowMs),
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  return { token, expiresAt };
}

export async function revokeSessions(
  database: Database,
  nowMs: number,
  userId: bigint,
  onlyTokenHash?: string,
) {
  let query = database.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(nowMs) })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (onlyTokenHash) query = query.where("token_hash", "=", onlyTokenHash);
  await query.execute();
  invalidateSessionCache(database);
}

/** Whether an error is a unique-constraint violation (PostgreSQL 23505) on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "23505" || /duplicate key|unique constraint/i.test(String(error));
}
