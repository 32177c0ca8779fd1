/**
 * What the spot module needs to know about a user's trade password. The auth module owns the
 * `users` table and the check; spot never reads it. app.ts passes the auth service's
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
