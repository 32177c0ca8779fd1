import { sql } from "kysely";
import QRCode from "qrcode";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import {
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  verifyTotp,
} from "./totp.ts";

/** Wrong codes in a row before code entry is locked. */
export const twoFactorFailuresMax = 5;
/** How long code entry stays locked after too many wrong codes. */
export const twoFactorLockMs = 15 * 60_000;

interface TotpRow {
  secret: string;
  confirmed: boolean;
  lastUsedStep: bigint | undefined;
  failedAttempts: number;
  lockedUntilMs: number | undefined;
}

/**
 * Two-factor sign-in with an authenticator app (issue 17): enrolment (a secret shown once as a
 * QR code, confirmed with a code), checking a code at sign-in (TOTP with replay refusal, or a
 * single-use recovery code), and turning it off. Wrong codes count per user: after
 * `twoFactorFailuresMax` in a row code entry is locked for `twoFactorLockMs`, whatever the IP.
 * Secrets are stored as they are (an authenticator needs the secret itself); see
 * docs/security.md.
 */
export class TwoFactor {
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
  ) {}

  private get db() {
    return this.database.db;
  }

  private async row(userId: bigint): Promise<TotpRow | undefined> {
    const result = await sql<Record<string, unknown>>`
      SELECT secret, confirmed_at, last_used_step, failed_attempts, locked_until
      FROM user_totp WHERE user_id = ${userId}`.execute(this.db);
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      secret: String(row.secret),
      confirmed: row.confirmed_at !== null,
      lastUsedStep: row.last_used_step === null ? undefined : BigInt(String(row.last_used_step)),
      failedAttempts: Number(row.failed_attempts),
      lockedUntilMs:
        row.locked_until === null ? undefined : new Date(row.locked_until as string).getTime(),
    };
  }

  /** True when sign-in must ask this user for a code. */
  async enabled(userId: bigint): Promise<boolean> {
    return (await this.row(userId))?.confirmed === true;
  }

  async status(userId: bigint) {
    const enabled = await this.enabled(userId);
    const left = await sql<{ n: string }>`
      SELECT count(*) AS n FROM user_recovery_codes
      WHERE user_id = ${userId} AND used_at IS NULL`.execute(this.db);
    return { enabled, recoveryCodesLeft: enabled ? Number(left.rows[0]?.n ?? 0) : 0 };
  }

  /** A new unconfirmed secret (replacing an unconfirmed one) and its QR code. */
  async enrol(userId: bigint, account: string) {
    const existing = await this.row(userId);
    if (existing?.confirmed) throw new AppError("two_factor_already_enabled");
    const secret = newTotpSecret();
    await sql`
      INSERT INTO user_totp (user_id, secret, created_at)
      VALUES (${userId}, ${secret}, ${new Date(this.now())})
      ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, confirmed_at = NULL,
        last_used_step = NULL, failed_attempts = 0, locked_until = NULL,
        created_at = EXCLUDED.created_at`.execute(this.db);
    const uri = otpauthUri(secret, account);
    const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    return { secret, otpauthUri: uri, qrSvg };
  }

  /** Confirms enrolment with a code; answers ten recovery codes, shown this once. */
  async confirm(userId: bigint, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await this.row(userId);
    if (!row || row.confirmed) throw new AppError("two_factor_not_enrolling");
    await this.checkTotp(userId, row, code);
    const { codes, hashes } = newRecoveryCodes();
    await this.db.transaction().execute(async (trx) => {
      await sql`UPDATE user_totp SET confirmed_at = ${new Date(this.now())}
        WHERE user_id = ${userId}`.execute(trx);
      await sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`.execute(trx);
      for (const hash of hashes) {
        await sql`INSERT INTO user_recovery_codes (user_id, code_hash)
          VALUES (${userId}, ${hash})`.execute(trx);
      }
    });
    return { recoveryCodes: codes };
  }

  /**
   * Checks a sign-in code of a user with two-factor on: a 6-digit TOTP code (not one already
   * used: its step must be newer than the last used one) or an unused recovery code, which is
   * then spent. Throws `two_factor_invalid`, or `rate_limited` while locked.
   */
  async verify(userId: bigint, code: string): Promise<void> {
    const row = await this.row(userId);
    if (!row?.confirmed) throw new AppError("two_factor_not_enabled");
    if (/^\d{6}$/.test(code)) {
      await this.checkTotp(userId, row, code);
      return;
    }
    this.refuseWhileLocked(row);
    const spent = await sql`
      UPDATE user_recovery_codes SET used_at = ${new Date(this.now())}
      WHERE user_id = ${userId} AND code_hash = ${hashRecoveryCode(code)} AND used_at IS NULL
      RETURNING code_hash`.execute(this.db);
    if (spent.rows.length === 0) {
      await this.recordFailure(userId);
      throw new AppError("two_factor_invalid");
    }
    await sql`UPDATE user_totp SET failed_attempts = 0, locked_until = NULL
      WHERE user_id = ${userId}`.execute(this.db);
  }

  /** Turns two-factor off after a valid code (TOTP or recovery). */
  async disable(userId: bigint, code: string): Promise<void> {
    await this.verify(userId, code);
    await this.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM user_recovery_codes WHERE user_id = ${userId}`.execute(trx);
      await sql`DELETE FROM user_totp WHERE user_id = ${userId}`.execute(trx);
    });
  }

  private refuseWhileLocked(row: TotpRow): void {
    if (row.lockedUntilMs !== undefined && row.lockedUntilMs > this.now()) {
      throw new AppError("rate_limited");
    }
  }

  private async checkTotp(userId: bigint, row: TotpRow, code: string): Promise<void> {
    this.refuseWhileLocked(row);
    const step = verifyTotp(row.secret, code, this.now(), row.lastUsedStep);
    if (step === undefined) {
      await this.recordFailure(userId);
      throw new AppError("two_factor_invalid");
    }
    // Only moves forward, so two requests racing with one code cannot both pass.
    const claimed = await sql`
      UPDATE user_totp SET last_used_step = ${step}, failed_attempts = 0, locked_until = NULL
      WHERE user_id = ${userId} AND (last_used_step IS NULL OR last_used_step < ${step})
      RETURNING user_id`.execute(this.db);
    if (claimed.rows.length === 0) throw new AppError("two_factor_invalid");
  }

  /** Counts a wrong code in the database itself, so parallel guesses all count. */
  private async recordFailure(userId: bigint): Promise<void> {
    const counted = await sql<{ failed_attempts: number }>`
      UPDATE user_totp SET failed_attempts = failed_attempts + 1
      WHERE user_id = ${userId} RETURNING failed_attempts`.execute(this.db);
    if (Number(counted.rows[0]?.failed_attempts ?? 0) >= twoFactorFailuresMax) {
      await sql`
        UPDATE user_totp SET failed_attempts = 0,
          locked_until = ${new Date(this.now() + twoFactorLockMs)}
        WHERE user_id = ${userId}`.execute(this.db);
    }
  }
}
