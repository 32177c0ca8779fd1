import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { verifyPassword } from "./passwords.ts";

/**
 * Checks a user's trade password before money moves (withdrawals, transfers, orders where a
 * module asks for it). Throws `trade_password_not_set` (the app then asks the user to set one)
 * or `trade_password_invalid`. Callers should rate-limit per user.
 */
export async function verifyTradePassword(
  database: Database,
  userId: bigint,
  tradePassword: string,
): Promise<void> {
  const row = await database.db
    .selectFrom("users")
    .select("trade_password_hash")
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row?.trade_password_hash) throw new AppError("trade_password_not_set");
  if (!(await verifyPassword(tradePassword, row.trade_password_hash))) {
    throw new AppError("trade_password_invalid");
  }
}
