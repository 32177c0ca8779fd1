/**
 * The operator actions a user's account history names (issue 17), by a key made from the
 * operator endpoint (`POST /api/v1/operator/users/:userId/freeze` → `users_freeze`). An action
 * not listed shows as a general "operator action" with its endpoint.
 */
export const accountHistoryActions = [
  "users_freeze",
  "users_unfreeze",
  "deposits",
  "adjustments_approve",
  "adjustments_reject",
  "identity_approve",
  "identity_reject",
  "bank-deposits_credit",
  "bank-deposits_reject",
  "withdrawals_approve",
  "withdrawals_reject",
  "withdrawals_sent",
  "withdrawals_paid",
  "withdrawals_complete",
  "withdrawals_broadcast",
  "loans_decision",
] as const;
export type AccountHistoryAction = (typeof accountHistoryActions)[number];

/** The key of an audit action (`METHOD path`), or null when the history has no text for it. */
export function accountHistoryActionOf(action: string): AccountHistoryAction | null {
  const path = action.split(" ")[1] ?? "";
  const prefix = "/api/v1/operator/";
  if (!path.startsWith(prefix)) return null;
  const key = path
    .slice(prefix.length)
    .split("/")
    .filter((part) => part !== "" && !part.startsWith(":"))
    .join("_");
  return (accountHistoryActions as readonly string[]).includes(key)
    ? (key as AccountHistoryAction)
    : null;
}
