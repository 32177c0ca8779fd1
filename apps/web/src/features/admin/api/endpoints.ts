import { endpointTable } from "../../../lib/api-endpoints.ts";

/**
 * The endpoints the back office (`#/admin`) calls: the named-operator contract
 * (operators.ts) and the operator endpoints of each product, plus the public product lists
 * whose current values the configuration pages show.
 */
export const adminEndpoints = endpointTable({
  // Operator accounts and sessions (operators.ts).
  operatorBootstrap: { method: "POST", path: "/api/v1/operator/bootstrap", auth: "operator" },
  operatorConfirmTotp: { method: "POST", path: "/api/v1/operator/totp/confirm", auth: "none" },
  operatorSignIn: { method: "POST", path: "/api/v1/operator/sign-in", auth: "none" },
  operatorSignOut: { method: "POST", path: "/api/v1/operator/sign-out", auth: "operator" },
  operatorMe: { method: "GET", path: "/api/v1/operator/me", auth: "operator" },
  operatorListAccounts: { method: "GET", path: "/api/v1/operator/accounts", auth: "operator" },
  operatorCreateAccount: { method: "POST", path: "/api/v1/operator/accounts", auth: "operator" },
  operatorDisableAccount: {
    method: "POST",
    path: "/api/v1/operator/accounts/:operatorId/disable",
    auth: "operator",
  },
  operatorEnableAccount: {
    method: "POST",
    path: "/api/v1/operator/accounts/:operatorId/enable",
    auth: "operator",
  },
  operatorAuditLog: { method: "GET", path: "/api/v1/operator/audit", auth: "operator" },
  // Users.
  operatorSearchUsers: { method: "GET", path: "/api/v1/operator/users", auth: "operator" },
  operatorUserDetail: { method: "GET", path: "/api/v1/operator/users/:userId", auth: "operator" },
  operatorFreezeUser: {
    method: "POST",
    path: "/api/v1/operator/users/:userId/freeze",
    auth: "operator",
  },
  operatorUnfreezeUser: {
    method: "POST",
    path: "/api/v1/operator/users/:userId/unfreeze",
    auth: "operator",
  },
  operatorSystemAccounts: {
    method: "GET",
    path: "/api/v1/operator/system-accounts",
    auth: "operator",
  },
  // Identity reviews and the documents viewer.
  operatorListIdentityEndpoint: {
    method: "GET",
    path: "/api/v1/operator/identity",
    auth: "operator",
  },
  operatorIdentityDetailEndpoint: {
    method: "GET",
    path: "/api/v1/operator/identity/:submissionId",
    auth: "operator",
  },
  operatorApproveIdentityEndpoint: {
    method: "POST",
    path: "/api/v1/operator/identity/:submissionId/approve",
    auth: "operator",
  },
  operatorRejectIdentityEndpoint: {
    method: "POST",
    path: "/api/v1/operator/identity/:submissionId/reject",
    auth: "operator",
  },
  operatorUploadFileEndpoint: {
    method: "GET",
    path: "/api/v1/operator/uploads/:uploadId",
    auth: "operator",
  },
  operatorUploadImageEndpoint: {
    method: "POST",
    path: "/api/v1/operator/uploads",
    auth: "operator",
  },
  // Bank deposits.
  operatorListBankDepositsEndpoint: {
    method: "GET",
    path: "/api/v1/operator/bank-deposits",
    auth: "operator",
  },
  operatorCreditBankDepositEndpoint: {
    method: "POST",
    path: "/api/v1/operator/bank-deposits/:depositId/credit",
    auth: "operator",
  },
  operatorRejectBankDepositEndpoint: {
    method: "POST",
    path: "/api/v1/operator/bank-deposits/:depositId/reject",
    auth: "operator",
  },
  // Withdrawals.
  operatorWithdrawals: { method: "GET", path: "/api/v1/operator/withdrawals", auth: "operator" },
  approveWithdrawal: {
    method: "POST",
    path: "/api/v1/operator/withdrawals/:withdrawalId/approve",
    auth: "operator",
  },
  markWithdrawalSent: {
    method: "POST",
    path: "/api/v1/operator/withdrawals/:withdrawalId/sent",
    auth: "operator",
  },
  completeWithdrawal: {
    method: "POST",
    path: "/api/v1/operator/withdrawals/:withdrawalId/complete",
    auth: "operator",
  },
  rejectWithdrawal: {
    method: "POST",
    path: "/api/v1/operator/withdrawals/:withdrawalId/reject",
    auth: "operator",
  },
  // Loans.
  pendingLoans: { method: "GET", path: "/api/v1/operator/loans/pending", auth: "operator" },
  decideLoan: { method: "POST", path: "/api/v1/operator/loans/:loanId/decision", auth: "operator" },
  fundLoanPool: { method: "POST", path: "/api/v1/operator/loans/pool", auth: "operator" },
  configureLoanProduct: {
    method: "PUT",
    path: "/api/v1/operator/loans/products",
    auth: "operator",
  },
  loanProducts: { method: "GET", path: "/api/v1/loans/products", auth: "none" },
  // Content.
  listNews: { method: "GET", path: "/api/v1/news", auth: "none" },
  publishNews: { method: "POST", path: "/api/v1/operator/news", auth: "operator" },
  listNotices: { method: "GET", path: "/api/v1/notices", auth: "none" },
  publishNotice: { method: "POST", path: "/api/v1/operator/notices", auth: "operator" },
  operatorBanners: { method: "GET", path: "/api/v1/operator/banners", auth: "operator" },
  publishBanner: { method: "POST", path: "/api/v1/operator/banners", auth: "operator" },
  withdrawBanner: {
    method: "POST",
    path: "/api/v1/operator/banners/:bannerId/withdraw",
    auth: "operator",
  },
  // Product configuration.
  secondsProducts: { method: "GET", path: "/api/v1/seconds/products", auth: "none" },
  configureSecondsProduct: {
    method: "PUT",
    path: "/api/v1/operator/seconds/products",
    auth: "operator",
  },
  savingsPlans: { method: "GET", path: "/api/v1/savings/plans", auth: "none" },
  defineSavingsPlan: { method: "PUT", path: "/api/v1/operator/savings/plans", auth: "operator" },
  // Market fees, leverage caps, per-country switches and limits (product-config.ts).
  operatorMarketTerms: { method: "GET", path: "/api/v1/operator/market-terms", auth: "operator" },
  operatorSetSpotFees: {
    method: "PUT",
    path: "/api/v1/operator/spot/markets/:marketId/fees",
    auth: "operator",
  },
  operatorSetPerpTerms: {
    method: "PUT",
    path: "/api/v1/operator/perp/markets/:marketId/terms",
    auth: "operator",
  },
  operatorCountryProducts: {
    method: "GET",
    path: "/api/v1/operator/country-products",
    auth: "operator",
  },
  operatorSetCountryProducts: {
    method: "PUT",
    path: "/api/v1/operator/country-products/:country",
    auth: "operator",
  },
  operatorLimits: { method: "GET", path: "/api/v1/operator/limits", auth: "operator" },
  operatorSetLimit: { method: "POST", path: "/api/v1/operator/limits", auth: "operator" },
  // Programmes: VIP levels and deposit-bonus activities (vip.ts, activities.ts).
  operatorVipLevels: { method: "GET", path: "/api/v1/operator/vip/levels", auth: "operator" },
  configureVipLevel: { method: "PUT", path: "/api/v1/operator/vip/levels", auth: "operator" },
  operatorAgentLevels: { method: "GET", path: "/api/v1/operator/agents/levels", auth: "operator" },
  configureAgentLevel: { method: "PUT", path: "/api/v1/operator/agents/levels", auth: "operator" },
  operatorListActivities: { method: "GET", path: "/api/v1/operator/activities", auth: "operator" },
  defineActivity: { method: "PUT", path: "/api/v1/operator/activities", auth: "operator" },
  fundPromotion: { method: "POST", path: "/api/v1/operator/activities/fund", auth: "operator" },
  // Funding of system accounts.
  fundSavingsYield: { method: "POST", path: "/api/v1/operator/savings/yield", auth: "operator" },
  fundHouse: { method: "POST", path: "/api/v1/operator/house/deposits", auth: "operator" },
  marketMakerFundingEndpoint: {
    method: "POST",
    path: "/api/v1/operator/market-maker/funding",
    auth: "operator",
  },
  fundStockInventory: {
    method: "POST",
    path: "/api/v1/operator/stocks/inventory",
    auth: "operator",
  },
  operatorListAdjustments: {
    method: "GET",
    path: "/api/v1/operator/adjustments",
    auth: "operator",
  },
  operatorApproveAdjustment: {
    method: "POST",
    path: "/api/v1/operator/adjustments/:adjustmentId/approve",
    auth: "operator",
  },
  operatorRejectAdjustment: {
    method: "POST",
    path: "/api/v1/operator/adjustments/:adjustmentId/reject",
    auth: "operator",
  },
  operatorDepositEndpoint: { method: "POST", path: "/api/v1/operator/deposits", auth: "operator" },
  // The support chat (issue 23).
  operatorSupportConversations: {
    method: "GET",
    path: "/api/v1/operator/support/conversations",
    auth: "operator",
  },
  operatorSupportConversation: {
    method: "GET",
    path: "/api/v1/operator/support/conversations/:conversationId",
    auth: "operator",
  },
  operatorSupportReply: {
    method: "POST",
    path: "/api/v1/operator/support/conversations/:conversationId/messages",
    auth: "operator",
  },
  operatorSupportRead: {
    method: "POST",
    path: "/api/v1/operator/support/conversations/:conversationId/read",
    auth: "operator",
  },
  operatorSupportImage: {
    method: "GET",
    path: "/api/v1/operator/support/uploads/:uploadId",
    auth: "operator",
  },
});
