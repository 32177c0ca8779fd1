import { AppError } from "../../http/app-error.ts";

/** The auth service's trade-password check (app.ts passes `auth.tradePassword`). */
export interface PerpTradePassword {
  isSet(userId: bigint): Promise<boolean>;
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/**
 * The same rule as spot orders: real-money perpetual orders and position actions need the trade password, remembered per
 * session for a window; demo sessions are never asked. (A copy of spot's gate: modules share
 * services, not helpers.)
 */
export class PerpTradePasswordGate {
  private readonly confirmedUntil = new Map<string, number>();

  constructor(
    private readonly options: {
      tradePassword: PerpTradePassword;
      now: () => number;
      windowMs: number;
      allowAttempt: (userId: bigint) => boolean;
    },
  ) {}

  async check(
    user: { id: bigint; sessionTokenHash: string; mode: "real" | "demo" },
    given: string | undefined,
  ): Promise<void> {
    if (user.mode === "demo") return;
    const at = this.options.now();
    const until = this.confirmedUntil.get(user.sessionTokenHash);
    if (until !== undefined && until > at) return;
    if (given === undefined) {
      const set = await this.options.tradePassword.isSet(user.id);
      throw new AppError(set ? "trade_password_required" : "trade_password_not_set");
    }
    if (!this.options.allowAttempt(user.id)) throw new AppError("rate_limited");
    await this.options.tradePassword.verify(user.id, given);
    if (this.options.windowMs > 0) {
      if (this.confirmedUntil.size > 100_000) {
        for (const [key, value] of this.confirmedUntil) {
          if (value <= at) this.confirmedUntil.delete(key);
        }
      }
      this.confirmedUntil.set(user.sessionTokenHash, at + this.options.windowMs);
    }
  }
}
