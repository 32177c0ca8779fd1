import type { AuthUser } from "../../http/authenticate.ts";
import { AppError } from "../../http/app-error.ts";

/**
 * Stops demo sessions and demo-only users from moving real money in or out, with the messages
 * of spec §8 ("Simulated accounts do not support deposits" / "… withdrawals"). Deposit and
 * withdrawal endpoints call this first.
 */
export function requireRealMoney(user: AuthUser, action: "deposit" | "withdraw"): void {
  if (user.demoOnly || user.mode === "demo") {
    throw new AppError(
      action === "deposit" ? "demo_deposit_not_allowed" : "demo_withdraw_not_allowed",
    );
  }
}
