/** The roles a named operator can have (issue 17). */
export const operatorRoles = ["support", "compliance", "finance", "admin"] as const;
export type OperatorRole = (typeof operatorRoles)[number];

const finance: readonly OperatorRole[] = ["finance", "admin"];
const compliance: readonly OperatorRole[] = ["compliance", "admin"];
const content: readonly OperatorRole[] = ["support", "admin"];
const userCare: readonly OperatorRole[] = ["support", "compliance", "admin"];
const admin: readonly OperatorRole[] = ["admin"];
const anyRole: readonly OperatorRole[] = operatorRoles;

/**
 * Which roles may call each operator endpoint, keyed by `METHOD path` as the contract spells
 * it. Admin may do everything. A test fails when an operator endpoint exists without a rule,
 * and `rolesFor` refuses an endpoint it does not know (deny by default).
 */
export const operatorEndpointRoles: Readonly<Record<string, readonly OperatorRole[]>> = {
  // Money in and out: finance.
  "POST /api/v1/operator/deposits": finance,
  "POST /api/v1/operator/house/deposits": finance,
  "POST /api/v1/operator/market-maker/funding": finance,
  "POST /api/v1/operator/market-maker/perp-funding": finance,
  "POST /api/v1/operator/savings/yield": finance,
  "POST /api/v1/operator/activities/fund": finance,
  "POST /api/v1/operator/stocks/inventory": finance,
  // Loans: finance decides applications and funds the pool; products are configuration.
  "GET /api/v1/operator/loans/pending": anyRole,
  "POST /api/v1/operator/loans/:loanId/decision": finance,
  "POST /api/v1/operator/loans/pool": finance,
  "PUT /api/v1/operator/loans/products": admin,
  "GET /api/v1/operator/withdrawals": anyRole,
  "POST /api/v1/operator/withdrawals/:withdrawalId/approve": finance,
  "POST /api/v1/operator/withdrawals/:withdrawalId/reject": finance,
  "POST /api/v1/operator/withdrawals/:withdrawalId/sent": finance,
  "POST /api/v1/operator/withdrawals/:withdrawalId/paid": finance,
  "POST /api/v1/operator/withdrawals/:withdrawalId/complete": finance,
  "POST /api/v1/operator/withdrawals/:withdrawalId/broadcast": finance,
  // The local test chain's faucet: valueless tokens, development deployments only.
  "POST /api/v1/operator/local-chain/mint": admin,
  "GET /api/v1/operator/bank-deposits": anyRole,
  "POST /api/v1/operator/bank-deposits/:depositId/credit": finance,
  "POST /api/v1/operator/bank-deposits/:depositId/reject": finance,
  // Identity documents: compliance only (documents are visible to the owner and compliance).
  "GET /api/v1/operator/identity": compliance,
  "GET /api/v1/operator/identity/:submissionId": compliance,
  "POST /api/v1/operator/identity/:submissionId/approve": compliance,
  "POST /api/v1/operator/identity/:submissionId/reject": compliance,
  "GET /api/v1/operator/uploads/:uploadId": compliance,
  // A user's country of residence history (issue 17): support answers questions about it,
  // compliance checks it against the per-country product switches.
  "GET /api/v1/operator/users/:userId/country-history": ["support", "compliance", "admin"],
  // Content: support.
  "POST /api/v1/operator/news": content,
  "POST /api/v1/operator/notices": content,
  "GET /api/v1/operator/banners": anyRole,
  "POST /api/v1/operator/banners": content,
  "POST /api/v1/operator/banners/:bannerId/withdraw": content,
  "POST /api/v1/operator/uploads": content,
  // The support chat (issue 23): support answers users and visitors; admin may too. Images are
  // served only when attached to a support message (never identity documents).
  "GET /api/v1/operator/support/conversations": content,
  "GET /api/v1/operator/support/conversations/:conversationId": content,
  "POST /api/v1/operator/support/conversations/:conversationId/messages": content,
  "POST /api/v1/operator/support/conversations/:conversationId/read": content,
  "GET /api/v1/operator/support/uploads/:uploadId": content,
  // Product configuration, proofs and the outbox: admin.
  "PUT /api/v1/operator/seconds/products": admin,
  "PUT /api/v1/operator/savings/plans": admin,
  "PUT /api/v1/operator/referral/rebates": admin,
  "PUT /api/v1/operator/vip/levels": admin,
  "PUT /api/v1/operator/agents/levels": admin,
  "PUT /api/v1/operator/activities": admin,
  // The programmes' current terms and the promotion balances: every role reads (the back office).
  "GET /api/v1/operator/vip/levels": anyRole,
  "GET /api/v1/operator/agents/levels": anyRole,
  "GET /api/v1/operator/activities": anyRole,
  "POST /api/v1/operator/proof/liabilities": admin,
  // Market fees and leverage caps (journaled kernel commands, later orders only): admin sets,
  // every role reads. Per-country product switches are a legal matter: compliance and admin.
  // The limits (withdrawal terms, approval amounts, transfer limits, the identity a withdrawal
  // needs): every role reads, admin changes.
  "GET /api/v1/operator/market-terms": anyRole,
  "PUT /api/v1/operator/spot/markets/:marketId/fees": admin,
  "PUT /api/v1/operator/perp/markets/:marketId/terms": admin,
  "GET /api/v1/operator/country-products": anyRole,
  "PUT /api/v1/operator/country-products/:country": compliance,
  "GET /api/v1/operator/limits": anyRole,
  "POST /api/v1/operator/limits": admin,
  "GET /api/v1/operator/outbox": admin,
  // Manual adjustments above the two-person limit: finance asks, a second finance approves.
  "GET /api/v1/operator/adjustments": finance,
  "POST /api/v1/operator/adjustments/:adjustmentId/approve": finance,
  "POST /api/v1/operator/adjustments/:adjustmentId/reject": finance,
  // Users: any role looks; support, compliance and admin freeze and unfreeze.
  "GET /api/v1/operator/users": anyRole,
  "GET /api/v1/operator/users/:userId": anyRole,
  "POST /api/v1/operator/users/:userId/freeze": userCare,
  "POST /api/v1/operator/users/:userId/unfreeze": userCare,
  // System accounts' balances: finance.
  "GET /api/v1/operator/system-accounts": finance,
  // Operator accounts themselves.
  "GET /api/v1/operator/me": anyRole,
  "POST /api/v1/operator/sign-out": anyRole,
  "GET /api/v1/operator/accounts": admin,
  "POST /api/v1/operator/accounts": admin,
  "POST /api/v1/operator/accounts/:operatorId/disable": admin,
  "POST /api/v1/operator/accounts/:operatorId/enable": admin,
  "GET /api/v1/operator/audit": ["compliance", "admin"],
};

/**
 * Endpoints only the bootstrap token (OPERATOR_TOKEN) may call, never a named operator: the
 * first admin's creation. They need no role rule; every role is refused.
 */
export const bootstrapTokenOnly: readonly string[] = ["POST /api/v1/operator/bootstrap"];

/** The roles allowed on `METHOD path`; empty (deny) for an endpoint without a rule. */
export function rolesFor(method: string, path: string): readonly OperatorRole[] {
  return operatorEndpointRoles[`${method.toUpperCase()} ${path}`] ?? [];
}

/** True when `role` may call `METHOD path`. */
export function roleMayCall(role: OperatorRole, method: string, path: string): boolean {
  return rolesFor(method, path).includes(role);
}
