import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { newTotpSecret, otpauthUri, verifyTotp } from "./totp.ts";
import { operatorRoles, roleMayCall, type OperatorRole } from "./operator-roles.ts";
import type { SessionBus } from "./sessions.ts";

/** How long an operator session works (short: operators sign in each shift). */
export const operatorSessionMs = 8 * 60 * 60 * 1000;

/** A named operator as the rest of the server sees it. */
export interface Operator {
  id: string;
  email: string;
  displayName: string;
  role: OperatorRole;
}

/** What enrolment returns once: the TOTP secret and the otpauth:// URI for the QR code. */
export interface OperatorEnrolment {
  operator: Operator;
  totpSecret: string;
  otpauthUri: string;
}

/** One audit log entry. */
export interface AuditEntry {
  id: string;
  operatorId: string | null;
  action: string;
  reason: string;
  userId: string | null;
  detail: string;
  atMs: number;
}

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

function toOperator(row: Record<string, unknown>): Operator {
  return {
    id: String(row.id),
    email: String(row.email),
    displayName: String(row.display_name),
    role: row.role as OperatorRole,
  };
}

/**
 * Named operators (issue 17): accounts with a role, a password and a mandatory TOTP secret,
 * their own sessions, and the audit log. The bootstrap token (OPERATOR_TOKEN) may only create
 * the first admin; every later operator is created by an admin, with a reason, in the log.
 */
export class OperatorAccounts {
  /** Operators are never deleted: once one exists, the answer stays true. */
  private someOperatorExists = false;

  private readonly unsubscribeBus: (() => void) | undefined;

  /**
   * With a session `bus` (a cluster of nodes, issue 25), each sign-out is published on it, and
   * one made on another node runs the sign-out listeners here too (closing the session's
   * support-desk streams on this node).
   */
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
    private readonly passwordCost?: number,
    private readonly bus?: SessionBus,
  ) {
    this.unsubscribeBus = bus?.subscribe((change, nodeId) => {
      if (nodeId === bus.nodeId || change.kind !== "operator_revoke") return;
      this.signedOut(change.tokenHash);
    });
  }

  /** Stops listening to the session bus (the app's close). */
  close(): void {
    this.unsubscribeBus?.();
  }

  private get db() {
    return this.database.db;
  }

  /**
   * True once any named operator exists; from then on the bootstrap token is retired. Cached
   * once true (operators are disabled, never deleted).
   */
  async anyOperator(): Promise<boolean> {
    if (this.someOperatorExists) return true;
    const existing = await sql<{ n: string }>`SELECT count(*) AS n FROM operators`.execute(this.db);
    this.someOperatorExists = Number(existing.rows[0]?.n ?? 0) > 0;
    return this.someOperatorExists;
  }

  /**
   * Creates the first admin; refused once any operator exists. Over HTTP the audit hook records
   * it (operator id null: the bootstrap token).
   */
  async bootstrapAdmin(input: {
    email: string;
    displayName: string;
    password: string;
  }): Promise<OperatorEnrolment> {
    if (await this.anyOperator()) throw new AppError("forbidden");
    const enrolment = await this.insert({ ...input, role: "admin" }, null);
    this.someOperatorExists = true;
    return enrolment;
  }

  /** An admin creates an operator; over HTTP the audit hook records it with the reason. */
  async create(
    actor: { id: string; role: string },
    input: { email: string; displayName: string; password: string; role: OperatorRole },
    reason: string,
  ): Promise<OperatorEnrolment> {
    if (actor.role !== "admin") throw new AppError("forbidden");
    if (!operatorRoles.includes(input.role)) throw new AppError("validation_failed");
    requireReason(reason);
    return this.insert(input, actor.id);
  }

  /** Every named operator, oldest first. */
  async list(): Promise<(Operator & { disabled: boolean; createdAtMs: number })[]> {
    const result = await sql<Record<string, unknown>>`
      SELECT id, email, display_name, role, disabled_at, created_at FROM operators
      ORDER BY id`.execute(this.db);
    return result.rows.map((row) => ({
      ...toOperator(row),
      disabled: row.disabled_at !== null,
      createdAtMs: new Date(row.created_at as string | Date).getTime(),
    }));
  }

  /**
   * An admin disables another operator: `disabled_at` is set (the row is kept: the audit log
   * names it), and every live session of theirs is revoked and told to the sign-out listeners
   * (here and, through the session bus, on every node), so their open desk streams end at once.
   * An admin cannot disable themselves, so an admin always remains.
   */
  async disable(
    actor: { id: string; role: string },
    operatorId: string,
  ): Promise<{
    operator: Operator & { disabled: boolean; createdAtMs: number };
    sessionsEnded: number;
  }> {
    if (actor.role !== "admin") throw new AppError("forbidden");
    if (actor.id === operatorId) throw new AppError("operator_disable_self");
    const now = new Date(this.now());
    const updated = await sql<Record<string, unknown>>`
      UPDATE operators SET disabled_at = COALESCE(disabled_at, ${now})
      WHERE id = ${operatorId}
      RETURNING id, email, display_name, role, created_at`.execute(this.db);
    const row = updated.rows[0];
    if (!row) throw new AppError("operator_not_found");
    const revoked = await sql<{ token_hash: string }>`
      UPDATE operator_sessions SET revoked_at = ${now}
      WHERE operator_id = ${operatorId} AND revoked_at IS NULL AND expires_at > ${now}
      RETURNING token_hash`.execute(this.db);
    for (const { token_hash: tokenHash } of revoked.rows) {
      this.bus?.publish({ kind: "operator_revoke", tokenHash });
      this.signedOut(tokenHash);
    }
    return {
      operator: {
        ...toOperator(row),
        disabled: true,
        createdAtMs: new Date(row.created_at as string | Date).getTime(),
      },
      sessionsEnded: revoked.rows.length,
    };
  }

  /**
   * An admin lets a disabled operator back in under the same id and e-mail (the audit log,
   * approvals and statements keep naming one person). They come back with a new password from
   * the admin and a new authenticator secret, confirmed before their first sign-in: the password
   * and authenticator they held when they left open nothing.
   */
  async enable(
    actor: { id: string; role: string },
    operatorId: string,
    password: string,
    reason: string,
  ): Promise<OperatorEnrolment> {
    if (actor.role !== "admin") throw new AppError("forbidden");
    requireReason(reason);
    const { secret, passwordHash } = await this.newCredentials(password);
    const updated = await sql<Record<string, unknown>>`
      UPDATE operators SET disabled_at = NULL, password_hash = ${passwordHash},
        totp_secret = ${secret}, totp_confirmed_at = NULL, totp_last_used_step = NULL
      WHERE id = ${operatorId} AND disabled_at IS NOT NULL
      RETURNING id, email, display_name, role`.execute(this.db);
    const row = updated.rows[0];
    if (!row) {
      const found = await sql`SELECT 1 FROM operators WHERE id = ${operatorId}`.execute(this.db);
      throw new AppError(found.rows.length > 0 ? "operator_not_disabled" : "operator_not_found");
    }
    const operator = toOperator(row);
    return {
      operator,
      totpSecret: secret,
      otpauthUri: otpauthUri(secret, operator.email, "Candor operator"),
    };
  }

  /** A password's hash and a fresh authenticator secret, for a new or returning operator. */
  private async newCredentials(password: string) {
    if (password.length < 12) throw new AppError("validation_failed");
    return {
      secret: newTotpSecret(),
      passwordHash: await hashPassword(password, this.passwordCost),
    };
  }

  private async insert(
    input: { email: string; displayName: string; password: string; role: OperatorRole },
    createdBy: string | null,
  ): Promise<OperatorEnrolment> {
    const email = input.email.trim().toLowerCase();
    const taken = await sql`SELECT 1 FROM operators WHERE email = ${email}`.execute(this.db);
    if (taken.rows.length > 0) throw new AppError("validation_failed");
    const { secret, passwordHash } = await this.newCredentials(input.password);
    const result = await sql<Record<string, unknown>>`
      INSERT INTO operators (email, display_name, role, password_hash, totp_secret, created_by, created_at)
      VALUES (${email}, ${input.displayName}, ${input.role}, ${passwordHash}, ${secret},
              ${createdBy}, ${new Date(this.now())})
      RETURNING id, email, display_name, role`.execute(this.db);
    const operator = toOperator(result.rows[0]!);
    return {
      operator,
      totpSecret: secret,
      otpauthUri: otpauthUri(secret, email, "Candor operator"),
    };
  }

  /** Confirms TOTP enrolment with the operator's password and a first code. */
  async confirmTotp(email: string, password: string, code: string): Promise<Operator> {
    const row = await this.checkPassword(email, password);
    if (row.totp_confirmed_at !== null) throw new AppError("two_factor_already_enabled");
    const step = verifyTotp(String(row.totp_secret), code, this.now(), undefined);
    if (step === undefined) throw new AppError("two_factor_invalid");
    await sql`UPDATE operators SET totp_confirmed_at = ${new Date(this.now())},
              totp_last_used_step = ${step.toString()} WHERE id = ${String(row.id)}`.execute(
      this.db,
    );
    const operator = toOperator(row);
    await this.audit(operator.id, "operator.totp_enrolled", "enrolment", null, "");
    return operator;
  }

  /** Signs in with password and a TOTP code (mandatory); returns a bearer token once. */
  async signIn(
    email: string,
    password: string,
    code: string,
  ): Promise<{ token: string; expiresAtMs: number; operator: Operator }> {
    const row = await this.checkPassword(email, password);
    if (row.totp_confirmed_at === null) throw new AppError("two_factor_not_enabled");
    const last =
      row.totp_last_used_step === null ? undefined : BigInt(String(row.totp_last_used_step));
    const step = verifyTotp(String(row.totp_secret), code, this.now(), last);
    if (step === undefined) throw new AppError("two_factor_invalid");
    await sql`UPDATE operators SET totp_last_used_step = ${step.toString()}
              WHERE id = ${String(row.id)}`.execute(this.db);
    const token = randomBytes(32).toString("base64url");
    const expiresAtMs = this.now() + operatorSessionMs;
    await sql`INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at)
              VALUES (${sha256Hex(token)}, ${String(row.id)}, ${new Date(this.now())},
                      ${new Date(expiresAtMs)})`.execute(this.db);
    const operator = toOperator(row);
    await this.audit(operator.id, "operator.sign_in", "sign-in", null, "");
    return { token, expiresAtMs, operator };
  }

  /** The operator of a session token; null when unknown, revoked, expired or disabled. */
  async byToken(token: string): Promise<Operator | null> {
    const result = await sql<Record<string, unknown>>`
      SELECT o.id, o.email, o.display_name, o.role FROM operator_sessions s
      JOIN operators o ON o.id = s.operator_id
      WHERE s.token_hash = ${sha256Hex(token)} AND s.revoked_at IS NULL
        AND s.expires_at > ${new Date(this.now())} AND o.disabled_at IS NULL`.execute(this.db);
    const row = result.rows[0];
    return row ? toOperator(row) : null;
  }

  /** When the session of `token` expires (epoch ms); null when it is unknown or revoked. */
  async sessionExpiresAtMs(token: string): Promise<number | null> {
    const result = await sql<{ expires_at: Date | string }>`
      SELECT expires_at FROM operator_sessions
      WHERE token_hash = ${sha256Hex(token)} AND revoked_at IS NULL`.execute(this.db);
    const row = result.rows[0];
    return row ? new Date(row.expires_at).getTime() : null;
  }

  private readonly signOutListeners: ((tokenHash: string) => void)[] = [];

  /**
   * Calls `listener` with the SHA-256 of each session token that signs out, here or (with a
   * session bus) on another node: open sockets end.
   */
  onSignOut(listener: (tokenHash: string) => void): void {
    this.signOutListeners.push(listener);
  }

  /** Ends a session, on every node of a cluster (the session bus). */
  async signOut(token: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    await sql`UPDATE operator_sessions SET revoked_at = ${new Date(this.now())}
              WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`.execute(this.db);
    // Told to the other nodes first: a local listener's error must not keep it from them.
    this.bus?.publish({ kind: "operator_revoke", tokenHash });
    this.signedOut(tokenHash);
  }

  private signedOut(tokenHash: string): void {
    for (const listener of this.signOutListeners) listener(tokenHash);
  }

  /** The operator of `token` if their role may call `METHOD path`; throws otherwise. */
  async authorise(token: string, method: string, path: string): Promise<Operator> {
    const operator = await this.byToken(token);
    if (!operator) throw new AppError("unauthorized");
    if (!roleMayCall(operator.role, method, path)) throw new AppError("forbidden");
    return operator;
  }

  /**
   * For the authenticate plugin: the operator of `token` when their role may call the route,
   * null when `token` is not a live operator session, `forbidden` when the role may not.
   */
  async authoriseRequest(token: string, method: string, routePath: string) {
    const operator = await this.byToken(token);
    if (!operator) return null;
    if (!roleMayCall(operator.role, method, routePath)) throw new AppError("forbidden");
    return operator;
  }

  /** Records an operator action. `operatorId` null only for the bootstrap token. */
  async audit(
    operatorId: string | null,
    action: string,
    reason: string,
    userId: string | null,
    detail: string,
  ): Promise<void> {
    await sql`INSERT INTO operator_audit (operator_id, action, reason, user_id, detail, created_at)
              VALUES (${operatorId}, ${action}, ${reason}, ${userId}, ${detail},
                      ${new Date(this.now())})`.execute(this.db);
  }

  /** The audit log, newest first, optionally of one user or one operator. */
  async auditLog(filter: { userId?: string; operatorId?: string; limit?: number }) {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
    const result = await sql<Record<string, unknown>>`
      SELECT id, operator_id, action, reason, user_id, detail, created_at FROM operator_audit
      WHERE (${filter.userId ?? null}::bigint IS NULL OR user_id = ${filter.userId ?? null}::bigint)
        AND (${filter.operatorId ?? null}::bigint IS NULL
             OR operator_id = ${filter.operatorId ?? null}::bigint)
      ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map((row): AuditEntry => ({
      id: String(row.id),
      operatorId: row.operator_id === null ? null : String(row.operator_id),
      action: String(row.action),
      reason: String(row.reason),
      userId: row.user_id === null ? null : String(row.user_id),
      detail: String(row.detail),
      atMs: new Date(row.created_at as string | Date).getTime(),
    }));
  }

  private async checkPassword(email: string, password: string) {
    const result = await sql<Record<string, unknown>>`
      SELECT * FROM operators WHERE email = ${email.trim().toLowerCase()}
        AND disabled_at IS NULL`.execute(this.db);
    const row = result.rows[0];
    // Hash anyway when the e-mail is unknown, so timing does not tell who exists.
    const ok = await verifyPassword(
      password,
      row ? String(row.password_hash) : "scrypt$10$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAA",
    );
    if (!row || !ok) throw new AppError("invalid_credentials");
    return row;
  }
}

/** Every operator action needs a reason a reviewer can read. */
export function requireReason(reason: string): void {
  if (reason.trim().length < 3 || reason.length > 500) throw new AppError("validation_failed");
}

/**
 * The two-person rule: above `thresholdMinor`, an action needs two approvals by two different
 * operators. Returns whether the approvals so far suffice; throws when the same operator tries
 * to approve twice.
 */
export function twoPersonRule(
  amountMinor: bigint,
  thresholdMinor: bigint,
  approvals: readonly string[],
): "approved" | "needs_second" {
  if (new Set(approvals).size !== approvals.length) throw new AppError("withdrawal_same_operator");
  if (approvals.length === 0) return "needs_second";
  if (amountMinor <= thresholdMinor) return "approved";
  return approvals.length >= 2 ? "approved" : "needs_second";
}
