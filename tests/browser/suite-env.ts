/** The operator token of the trading suite's servers (the bootstrap token; no named operator). */
export const operatorToken = "operator-token-for-browser-tests";
/** The suite server's withdrawal-address lock. */
export const withdrawAddressLockMs = 3_000;

/** The settings of a trading suite's server, the shared one's included. */
export const suiteEnv: Record<string, string> = {
  OPERATOR_TOKEN: operatorToken,
  CAPTCHA: "off",
  PASSWORD_COST: "12",
  // Saved withdrawal addresses wait 3 s instead of 24 h, so a test can pass the lock.
  WITHDRAW_ADDRESS_LOCK_MS: String(withdrawAddressLockMs),
  BANK_ACCOUNT_NUMBER: "DE89 3704 0044 0532 0130 00",
  BANK_ACCOUNT_NAME: "Candor Test Ltd",
  BANK_NAME: "Example Bank",
  // Test deposits come from the one bootstrap token; the two-operator rule for manual
  // adjustments (USDT:10000 by default) is tested in admin and operator tests.
  ADJUSTMENT_TWO_APPROVALS_ABOVE: "none",
};

/**
 * The shared server's settings beyond `suiteEnv`: stock sessions always open (the stocks file
 * trades at any hour; the other files that share the server do not look at sessions).
 */
export const sharedEnv: Record<string, string> = {
  ...suiteEnv,
  STOCK_SESSIONS: "always-open",
};
