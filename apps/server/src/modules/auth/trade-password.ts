import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { AuthRepository } from "./auth.repository.ts";
import { defaultPasswordCost, hashPassword, verifyPassword } from "./passwords.ts";

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
   * user to set one) or `AppError("trade_password_invalid")`. Callers rate-limit per user.
   */
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/** Trade passwords: checked for other modules, set and changed by their owner. */
export class TradePasswords implements TradePasswordService {
  constructor(
    private readonly repository: Pick<AuthRepository, "tradePasswordHash" | "setTradePasswordHash">,
    /** log2 of scrypt's N for new hashes. */
    private readonly passwordCost: number,
  ) {}

  async isSet(userId: bigint): Promise<boolean> {
    return Boolean(await this.repository.tradePasswordHash(userId));
  }

  async verify(userId: bigint, tradePassword: string): Promise<void> {
    const hash = await this.repository.tradePasswordHash(userId);
    if (!hash) throw new AppError("trade_password_not_set");
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

/**
 * @deprecated Ask the auth service instead: `AuthService.tradePassword.verify(userId, password)`
 * (a `TradePasswordService` passed to the module as an option). Kept until spot switches.
 */
export async function verifyTradePassword(
  database: Database,
  userId: bigint,
  tradePassword: string,
): Promise<void> {
  await new TradePasswords(new AuthRepository(database), defaultPasswordCost).verify(
    userId,
    tradePassword,
  );
}
