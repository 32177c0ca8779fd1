import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints the wallet calls (contract: wallet.ts). */
export const walletEndpoints = endpointTable({
  spotBalances: { method: "GET", path: "/api/v1/spot/balances", auth: "user" },
  spotStatement: { method: "GET", path: "/api/v1/spot/statement", auth: "user" },
  grantDemoFunds: { method: "POST", path: "/api/v1/spot/demo-funds", auth: "user" },
  walletAccounts: { method: "GET", path: "/api/v1/wallet/accounts", auth: "user" },
  walletAccountStatement: {
    method: "GET",
    path: "/api/v1/wallet/accounts/:wallet/statement",
    auth: "user",
  },
  transferBetweenWallets: {
    method: "POST",
    path: "/api/v1/wallet/transfers/internal",
    auth: "user",
  },
  transferRecipient: { method: "GET", path: "/api/v1/wallet/recipients/:userId", auth: "user" },
  transferToUser: { method: "POST", path: "/api/v1/wallet/transfers/user", auth: "user" },
  transferLimits: { method: "GET", path: "/api/v1/wallet/transfers/limits", auth: "user" },
  transferRecords: { method: "GET", path: "/api/v1/wallet/transfers", auth: "user" },
  exchangePairs: { method: "GET", path: "/api/v1/wallet/exchange/pairs", auth: "none" },
  requestExchangeQuote: { method: "POST", path: "/api/v1/wallet/exchange/quotes", auth: "user" },
  acceptExchangeQuote: {
    method: "POST",
    path: "/api/v1/wallet/exchange/quotes/:quoteId/accept",
    auth: "user",
  },
  exchangeRecords: { method: "GET", path: "/api/v1/wallet/exchanges", auth: "user" },
  listWithdrawAddresses: { method: "GET", path: "/api/v1/wallet/withdraw-addresses", auth: "user" },
  addWithdrawAddress: { method: "POST", path: "/api/v1/wallet/withdraw-addresses", auth: "user" },
  deleteWithdrawAddress: {
    method: "DELETE",
    path: "/api/v1/wallet/withdraw-addresses/:addressId",
    auth: "user",
  },
  withdrawalOptions: { method: "GET", path: "/api/v1/wallet/withdrawals/options", auth: "user" },
  requestWithdrawal: { method: "POST", path: "/api/v1/wallet/withdrawals", auth: "user" },
  withdrawalRecords: { method: "GET", path: "/api/v1/wallet/withdrawals", auth: "user" },
  requestBankWithdrawal: { method: "POST", path: "/api/v1/wallet/withdrawals/bank", auth: "user" },
  listBankCards: { method: "GET", path: "/api/v1/wallet/bank-cards", auth: "user" },
  addBankCard: { method: "POST", path: "/api/v1/wallet/bank-cards", auth: "user" },
  deleteBankCard: { method: "DELETE", path: "/api/v1/wallet/bank-cards/:cardId", auth: "user" },
  buyOptions: { method: "GET", path: "/api/v1/wallet/buy/options", auth: "user" },
  requestBuyQuote: { method: "POST", path: "/api/v1/wallet/buy/quotes", auth: "user" },
  acceptBuyQuote: {
    method: "POST",
    path: "/api/v1/wallet/buy/quotes/:quoteId/accept",
    auth: "user",
  },
  cancelWithdrawal: {
    method: "POST",
    path: "/api/v1/wallet/withdrawals/:withdrawalId/cancel",
    auth: "user",
  },
});
