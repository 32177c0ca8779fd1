import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { loadUser } from "../auth/users.ts";
import { verifyTradePassword } from "../auth/trade-password.ts";

/**
 * SEAM (for the lead): what the spot module needs to know about a user's trade password. The
 * auth module owns the `users` table; spot never reads it. Wire this to the auth service.
 */
export interface TradePasswords {
  /** Whether the user has set a trade password. */
  isSet(userId: bigint): Promise<boolean>;
  /** Checks a trade password: `ok`, `not_set` (the user has none yet) or `invalid`. */
  verify(userId: bigint, tradePassword: string): Promise<"ok" | "not_set" | "invalid">;
}

/**
 * SEAM (for the lead): `TradePasswords` over today's auth functions, until the auth service
 * offers the same. Replace `authTradePasswords(deps.database)` in app.ts with the auth service
 * and delete this function; it is the only place the spot module touches auth.
 */
export function authTradePasswords(database: Database): TradePasswords {
  return {
    async isSet(userId) {
      return (await loadUser(database, userId)).trade_password_hash !== null;
    },
    async verify(userId, tradePassword) {
      try {
        await verifyTradePassword(database, userId, tradePassword);
        return "ok";
      } catch (error) {
        if (error instanceof AppError && error.code === "trade_password_not_set") return "not_set";
        if (error instanceof AppError && error.code === "trade_password_invalid") return "invalid";
        throw error;
      }
    },
  };
}
