import type { Insertable } from "kysely";
import type { Database } from "../../db/database.ts";
import type { UserTables } from "../../db/user-tables.ts";

/** A new user row as the sign-in flows insert it. */
export type NewUser = Insertable<UserTables["users"]>;

/** One e-mailed code that is still usable. */
export interface LiveEmailCode {
  id: bigint;
  codeHash: string;
  attempts: number;
}

/** A session joined with its user, as a bearer-token lookup needs it. */
export interface SessionRecord {
  userId: bigint;
  kind: "email" | "phone" | "wallet" | "demo";
  demoOnly: boolean;
  mode: "real" | "demo";
  expiresAt: Date;
  /** True while an operator has frozen the user (migration 0025). */
  frozen?: boolean;
}

/** The columns of a user that `toUserInfo` shows (`UserRow` in users.ts). */
const userInfoColumns = [
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
  "country",
  "anti_phishing_code",
  "avatar_upload_id",
] as const;

/**
 * The only file of the auth module that speaks SQL: users, sessions, used captchas, e-mailed codes,
 * login failures, wallet nonces and the e-mail outbox (migration 0003). Each method is one
 * statement; what to do with the rows is the service's business.
 */
export class AuthRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  // Users.

  /** The user's profile columns; throws when the user does not exist. */
  async user(userId: bigint) {
    return this.db
      .selectFrom("users")
      .select(userInfoColumns)
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
  }

  /** The user, or undefined for an unknown id. */
  async findUser(userId: bigint) {
    return this.db
      .selectFrom("users")
      .select(userInfoColumns)
      .where("id", "=", userId)
      .executeTakeFirst();
  }

  async userIdByEmail(email: string): Promise<bigint | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirst();
    return row?.id;
  }

  async userIdByInviteCode(inviteCode: string): Promise<bigint | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where("invite_code", "=", inviteCode)
      .executeTakeFirst();
    return row?.id;
  }

  async userIdByWallet(address: string): Promise<bigint | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where("wallet_address", "=", address)
      .executeTakeFirst();
    return row?.id;
  }

  /** The demo-only user whose `demo_name` is `demoName` (the SHA-256 of a resume key). */
  async demoUserIdByName(demoName: string): Promise<bigint | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where("demo_name", "=", demoName)
      .where("demo_only", "=", true)
      .executeTakeFirst();
    return row?.id;
  }

  /** The user an e-mail address or phone number signs in as, with its password hash. */
  async loginAccount(by: "email" | "phone", account: string) {
    return this.db
      .selectFrom("users")
      .select(["id", "password_hash"])
      .where(by, "=", account)
      .executeTakeFirst();
  }

  /** Inserts a user; null when a unique column (e-mail, phone, wallet, invite code) is taken. */
  async insertUser(user: NewUser): Promise<bigint | null> {
    try {
      const row = await this.db
        .insertInto("users")
        .values(user)
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** The login password hash; throws when the user does not exist. */
  async passwordHash(userId: bigint): Promise<string | null> {
    const row = await this.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  }

  async setPasswordHash(userId: bigint, passwordHash: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ password_hash: passwordHash })
      .where("id", "=", userId)
      .execute();
  }

  /** The trade password hash: null when none is set, undefined when the user does not exist. */
  async tradePasswordHash(userId: bigint): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("trade_password_hash")
      .where("id", "=", userId)
      .executeTakeFirst();
    return row?.trade_password_hash;
  }

  async setTradePasswordHash(userId: bigint, tradePasswordHash: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ trade_password_hash: tradePasswordHash })
      .where("id", "=", userId)
      .execute();
  }

  async updateProfile(userId: bigint, profile: { nickname?: string; avatar?: number }) {
    await this.db.updateTable("users").set(profile).where("id", "=", userId).execute();
  }

  async setAvatarUpload(userId: bigint, uploadId: string | null) {
    await this.db
      .updateTable("users")
      .set({ avatar_upload_id: uploadId })
      .where("id", "=", userId)
      .execute();
  }

  async setAntiPhishingCode(userId: bigint, code: string | null) {
    await this.db
      .updateTable("users")
      .set({ anti_phishing_code: code })
      .where("id", "=", userId)
      .execute();
  }

  /** The anti-phishing code of the user with this e-mail address, if one is set. */
  async antiPhishingCodeFor(email: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("users")
      .select("anti_phishing_code")
      .where("email", "=", email.toLowerCase())
      .executeTakeFirst();
    return row?.anti_phishing_code ?? null;
  }

  // Sessions.

  async insertSession(session: {
    tokenHash: string;
    userId: bigint;
    mode: "real" | "demo";
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto("sessions")
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        mode: session.mode,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        revoked_at: null,
      })
      .execute();
  }

  async deleteSessionsExpiredBefore(userId: bigint, before: Date): Promise<void> {
    await this.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("expires_at", "<", before)
      .execute();
  }

  /** Revokes the user's live sessions, or only the one with `onlyTokenHash`. */
  async revokeSessions(userId: bigint, at: Date, onlyTokenHash?: string): Promise<void> {
    let query = this.db
      .updateTable("sessions")
      .set({ revoked_at: at })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null);
    if (onlyTokenHash) query = query.where("token_hash", "=", onlyTokenHash);
    await query.execute();
  }

  async setSessionMode(tokenHash: string, mode: "real" | "demo"): Promise<void> {
    await this.db
      .updateTable("sessions")
      .set({ mode })
      .where("token_hash", "=", tokenHash)
      .execute();
  }

  /** The unrevoked session with this token hash and its user (expiry is the caller's check). */
  /** True while an operator has frozen the user. */
  async isFrozen(userId: bigint): Promise<boolean> {
    const row = await this.db
      .selectFrom("users")
      .select("frozen_at")
      .where("id", "=", userId)
      .executeTakeFirst();
    return row?.frozen_at !== null && row?.frozen_at !== undefined;
  }

  async sessionByTokenHash(tokenHash: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select([
        "users.id",
        "users.kind",
        "users.demo_only",
        "users.frozen_at",
        "sessions.mode",
        "sessions.expires_at",
      ])
      .where("sessions.token_hash", "=", tokenHash)
      .where("sessions.revoked_at", "is", null)
      .executeTakeFirst();
    return row
      ? {
          userId: BigInt(row.id),
          kind: row.kind,
          demoOnly: row.demo_only,
          mode: row.mode,
          expiresAt: row.expires_at,
          frozen: row.frozen_at !== null,
        }
      : undefined;
  }

  // Captchas.

  /**
   * Records a proof-of-work captcha as used (keyed by its salt); false when it already was,
   * so of two requests racing with one solution only one gets true.
   */
  async insertUsedCaptcha(salt: string, expiresAt: Date, at: Date): Promise<boolean> {
    const row = await this.db
      .insertInto("captchas")
      .values({ id: salt, answer_hash: "proof-of-work", expires_at: expiresAt, used_at: at })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteCaptchasExpiredBefore(before: Date): Promise<void> {
    await this.db.deleteFrom("captchas").where("expires_at", "<", before).execute();
  }

  // E-mailed codes.

  /** The newest unused, unexpired code for an address and purpose. */
  async liveEmailCode(
    email: string,
    purpose: "register" | "reset_password",
    at: Date,
  ): Promise<LiveEmailCode | undefined> {
    const row = await this.db
      .selectFrom("email_codes")
      .select(["id", "code_hash", "attempts"])
      .where("email", "=", email)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("expires_at", ">", at)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    return row ? { id: row.id, codeHash: row.code_hash, attempts: row.attempts } : undefined;
  }

  /** Stores a code's attempt count, and when it was used up (a right guess). */
  async recordEmailCodeAttempt(codeId: bigint, attempts: number, usedAt?: Date): Promise<void> {
    await this.db
      .updateTable("email_codes")
      .set({ attempts, ...(usedAt ? { used_at: usedAt } : {}) })
      .where("id", "=", codeId)
      .execute();
  }

  async deleteEmailCodesExpiredBefore(email: string, before: Date): Promise<void> {
    await this.db
      .deleteFrom("email_codes")
      .where("email", "=", email)
      .where("expires_at", "<", before)
      .execute();
  }

  async insertEmailCode(code: {
    email: string;
    purpose: "register" | "reset_password";
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto("email_codes")
      .values({
        email: code.email,
        purpose: code.purpose,
        code_hash: code.codeHash,
        created_at: code.createdAt,
        expires_at: code.expiresAt,
        used_at: null,
      })
      .execute();
  }

  // Login failures.

  async loginFailureCount(account: string, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom("login_failures")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("account", "=", account)
      .where("at", ">", since)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Records a login attempt (a failure until it succeeds); its id. */
  async insertLoginFailure(account: string, at: Date): Promise<bigint> {
    const row = await this.db
      .insertInto("login_failures")
      .values({ account, at })
      .returning("id")
      .executeTakeFirstOrThrow();
    return BigInt(row.id);
  }

  /**
   * Forgets an account's failures: all of them, those at or before `atOrBefore`, or those with
   * an id up to `upToId` (an attempt and the ones recorded before it).
   */
  async deleteLoginFailures(
    account: string,
    which: { atOrBefore?: Date; upToId?: bigint } = {},
  ): Promise<void> {
    let query = this.db.deleteFrom("login_failures").where("account", "=", account);
    if (which.atOrBefore) query = query.where("at", "<=", which.atOrBefore);
    if (which.upToId !== undefined) query = query.where("id", "<=", which.upToId);
    await query.execute();
  }

  // Wallet nonces.

  async insertWalletNonce(nonce: {
    nonce: string;
    address: string;
    chainId: number;
    issuedAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto("wallet_nonces")
      .values({
        nonce: nonce.nonce,
        address: nonce.address,
        chain_id: nonce.chainId,
        issued_at: nonce.issuedAt,
        expires_at: nonce.expiresAt,
        used_at: null,
      })
      .execute();
  }

  async deleteWalletNoncesExpiredBefore(before: Date): Promise<void> {
    await this.db.deleteFrom("wallet_nonces").where("expires_at", "<", before).execute();
  }

  /**
   * Uses up a nonce in one statement, only when it is unused, unexpired at `at` and was issued
   * for exactly this address, chain and issued-at time; true when it was.
   */
  async useWalletNonce(nonce: {
    nonce: string;
    address: string;
    chainId: number;
    issuedAt: Date;
    at: Date;
  }): Promise<boolean> {
    const row = await this.db
      .updateTable("wallet_nonces")
      .set({ used_at: nonce.at })
      .where("nonce", "=", nonce.nonce)
      .where("used_at", "is", null)
      .where("expires_at", ">", nonce.at)
      .where("address", "=", nonce.address)
      .where("chain_id", "=", nonce.chainId)
      .where("issued_at", "=", nonce.issuedAt)
      .returning("nonce")
      .executeTakeFirst();
    return row !== undefined;
  }

  // The e-mail outbox.

  async insertOutboxEmail(email: {
    to: string;
    subject: string;
    text: string;
    delivery: "outbox" | "smtp" | "sms";
    createdAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto("outbox_emails")
      .values({
        to_address: email.to,
        subject: email.subject,
        body_text: email.text,
        delivery: email.delivery,
        created_at: email.createdAt,
      })
      .execute();
  }

  /** The newest `limit` e-mails, to one address when `to` is given. */
  async outboxEmails(limit: number, to?: string) {
    let select = this.db.selectFrom("outbox_emails").selectAll().orderBy("id", "desc").limit(limit);
    if (to) select = select.where("to_address", "=", to);
    return select.execute();
  }
}

/** Whether an error is a unique-constraint violation (PostgreSQL 23505) on either engine. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "23505" || /duplicate key|unique constraint/i.test(String(error));
}
