import type { Database } from "../../db/database.ts";
import { loadUser } from "../auth/users.ts";
import { verifyTradePassword } from "../auth/trade-password.ts";

/**
 * SEAM (for the lead): what the spot module needs to know about a user's trade password. The
 * auth module owns the `users` table; spot never reads it. The auth service's trade-password
 * check has this shape: pass it as `tradePasswords` in app.ts.
 */
export interface TradePasswords {
  /** Whether the user has set a trade password. */
  isSet(userId: bigint): Promise<boolean>;
  /**
   * Checks a trade password. Throws `AppError("trade_password_not_set")` when the user has none
   * yet, `AppError("trade_password_invalid")` when it is wrong. The caller rate-limits.
   */
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/**
 * SEAM (for the lead): `TradePasswords` over today's auth functions, until the auth service
 * is wired in. Replace `authTradePasswords(deps.database)` in app.ts with the auth service's
 * trade-password check and delete this function: it is the only place spot touches auth.
 */
export function authTradePasswords(database: Database): TradePasswords {
  return {
    async isSet(userId) {
      return (await loadUser(database, userId)).trade_password_hash !== null;
    },
    verify: (userId, tradePassword) => verifyTradePassword(database, userId, tradePassword),
  };
}
