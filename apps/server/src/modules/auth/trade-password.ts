import { AppError } from "../../http/app-error.ts";
import { RateLimiter, type RateRule } from "../../http/rate-limit.ts";
import type { AuthRepository } from "./auth.repository.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

/**
 * What other modules may ask the auth module about a user's trade password (the second
 * password the spec asks for before money moves). Get it as `AuthService.tradePassword`.
 */
export interface TradePasswordService {
  /** Whether the user has set a trade password; false for an unknown user. */
  isSet(userId: bigint): Promise<boolean>;
  /**
   * Checks a user's trade password before money moves (withdrawals, transfers, orders where a
   * module asks for it). Throws `AppError("trade_password_not_set")` (the app then asks the
   * user to set one), `AppError("trade_password_invalid")`, or `AppError("rate_limited")` once
   * the user's one guess budget (`tradePasswordGuesses`, shared by every caller) is spent.
   */
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/**
 * Guesses of one user's trade password, wherever they come from (the verify endpoint, a change,
 * an order, a withdrawal): one budget, so three endpoints do not make three times the tries.
 */
export const tradePasswordGuesses: RateRule = { max: 10, windowMs: 15 * 60_000 };

/** Trade passwords: checked for other modules, set and changed by their owner. */
export class TradePasswords implements TradePasswordService {
  private readonly guesses: RateLimiter;

  constructor(
    private readonly repository: Pick<AuthRepository, "tradePasswordHash" | "setTradePasswordHash">,
    /** log2 of scrypt's N for new hashes. */
    private readonly passwordCost: number,
    /** Milliseconds since the epoch, for the guess budget's window. */
    now: () => number = Date.now,
  ) {
    this.guesses = new RateLimiter(now);
  }

  async isSet(userId: bigint): Promise<boolean> {
    return Boolean(await this.repository.tradePasswordHash(userId));
  }

  async verify(userId: bigint, tradePassword: string): Promise<void> {
    const hash = await this.repository.tradePasswordHash(userId);
    if (!hash) throw new AppError("trade_password_not_set");
    // Counted before the (slow) check, synchronously: parallel guesses cannot overtake it.
    if (!this.guesses.hit(String(userId), tradePasswordGuesses)) {
      throw new AppError("rate_limited");
    }
    if (!(await verifyPassword(tradePassword, hash))) {
      throw new AppError("trade_password_invalid");
    }
  }

  /** Sets the trade password; changing one that exists needs the current one. */
  async set(userId: bigint, tradePassword: string, current: string | undefined): Promise<void> {
    if (await this.isSet(userId)) {
      if (!current) throw new AppError("trade_password_invalid");
      await this.verify(userId, current);
    }
    await this.repository.setTradePasswordHash(
      userId,
      await hashPassword(tradePassword, this.passwordCost),
    );
  }
}
