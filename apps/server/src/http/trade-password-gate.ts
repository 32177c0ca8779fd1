import { AppError } from "./app-error.ts";

/**
 * What a product module needs to know about a user's trade password. The auth module owns the
 * `users` table and the check; products never read it. app.ts passes the auth service's
 * `tradePassword` (same shape), and tests may pass a fake.
 */
export interface TradePasswordCheck {
  /** Whether the user has set a trade password. */
  isSet(userId: bigint): Promise<boolean>;
  /**
   * Checks a trade password. Throws `AppError("trade_password_not_set")` when the user has none
   * yet, `AppError("trade_password_invalid")` when it is wrong. The caller rate-limits.
   */
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/** Sessions remembered at most; past this, expired entries are swept on the next confirmation. */
const confirmedSessionsMax = 100_000;

export interface TradePasswordGateOptions {
  tradePassword: TradePasswordCheck;
  now: () => number;
  /** How long a session stays confirmed after a correct trade password, ms (0: every order). */
  windowMs: number;
  /** Counts one trade-password attempt of a user; false when the user is over the limit. */
  allowAttempt: (userId: bigint) => boolean;
}

/**
 * The spec's rule: no trading without a trade password. A session that gave the right one
 * within the window is not asked again (scrypt on every order would cost ~100 ms each).
 * Demo sessions are never asked (issue 18): demo money never becomes real, so the password
 * protects nothing there and only stands between a new user and the first simulated order.
 */
export class TradePasswordGate {
  /** Sessions that confirmed the trade password recently: session token hash → until (ms). */
  private readonly confirmedUntil = new Map<string, number>();

  constructor(private readonly options: TradePasswordGateOptions) {}

  get windowMs(): number {
    return this.options.windowMs;
  }

  /**
   * Passes a demo session, a session confirmed within the window, or one that gives the right
   * password now. Throws `trade_password_required`, `trade_password_not_set`, `trade_password_invalid` or
   * `rate_limited`.
   */
  async check(
    user: { id: bigint; sessionTokenHash: string; mode: "real" | "demo" },
    given: string | undefined,
  ): Promise<void> {
    if (user.mode === "demo") return;
    const { tradePassword, now, windowMs } = this.options;
    const at = now();
    const until = this.confirmedUntil.get(user.sessionTokenHash);
    if (until !== undefined && until > at) return;
    if (given === undefined) {
      const set = await tradePassword.isSet(user.id);
      throw new AppError(set ? "trade_password_required" : "trade_password_not_set");
    }
    if (!this.options.allowAttempt(user.id)) throw new AppError("rate_limited");
    await tradePassword.verify(user.id, given);
    if (windowMs > 0) {
      if (this.confirmedUntil.size > confirmedSessionsMax) {
        for (const [key, value] of this.confirmedUntil) {
          if (value <= at) this.confirmedUntil.delete(key);
        }
      }
      this.confirmedUntil.set(user.sessionTokenHash, at + windowMs);
    }
  }
}
