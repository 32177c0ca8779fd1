import type { WalletName, WithdrawNetwork } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api-client.ts";
import { walletEndpoints } from "./endpoints.ts";
import { walletKeys } from "./wallet-api.ts";

/*
 * Accounts, transfers and quick exchange (contract: packages/contract/src/wallet.ts, issue 16).
 * Amounts stay decimal strings from the API to the screen.
 */

/** Query keys of accounts, transfers and exchanges (under the wallet's keys). */
export const accountKeys = {
  accounts: () => [...walletKeys.all, "accounts"] as const,
  statement: (wallet: WalletName) => [...walletKeys.all, "account-statement", wallet] as const,
  transfers: () => [...walletKeys.all, "transfers"] as const,
  limits: () => [...walletKeys.all, "transfer-limits"] as const,
  exchanges: () => [...walletKeys.all, "exchanges"] as const,
  pairs: () => [...walletKeys.all, "exchange-pairs"] as const,
  addresses: () => [...walletKeys.all, "withdraw-addresses"] as const,
  withdrawalOptions: () => [...walletKeys.all, "withdrawal-options"] as const,
  withdrawals: () => [...walletKeys.all, "withdrawals"] as const,
  bankCards: () => [...walletKeys.all, "bank-cards"] as const,
  buyOptions: () => [...walletKeys.all, "buy-options"] as const,
};

/** The user's bound bank cards (numbers masked by the server). */
export function useBankCards(enabled = true) {
  return useQuery({
    queryKey: accountKeys.bankCards(),
    queryFn: () => callEndpoint(walletEndpoints.listBankCards),
    enabled,
  });
}

export function addBankCard(body: {
  cardholder: string;
  bankName: string;
  branch: string;
  cardNumber: string;
}) {
  return callEndpoint(walletEndpoints.addBankCard, { body });
}

export function deleteBankCard(cardId: string) {
  return callEndpoint(walletEndpoints.deleteBankCard, { params: { cardId } });
}

export function requestBankWithdrawal(body: {
  requestId: string;
  cardId: string;
  asset: string;
  amount: string;
  tradePassword: string;
  totpCode?: string;
}) {
  return callEndpoint(walletEndpoints.requestBankWithdrawal, { body });
}

/** What Buy offers: the pay asset, the fiat wallet's available balance, the assets and prices. */
export function useBuyOptions() {
  return useQuery({
    queryKey: accountKeys.buyOptions(),
    queryFn: () => callEndpoint(walletEndpoints.buyOptions),
  });
}

export function requestBuyQuote(body: { requestId: string; asset: string; amount: string }) {
  return callEndpoint(walletEndpoints.requestBuyQuote, { body });
}

export function acceptBuyQuote(quoteId: string) {
  return callEndpoint(walletEndpoints.acceptBuyQuote, { params: { quoteId } });
}

export function useWithdrawalOptions() {
  return useQuery({
    queryKey: accountKeys.withdrawalOptions(),
    queryFn: () => callEndpoint(walletEndpoints.withdrawalOptions),
  });
}

export function useWithdrawals() {
  return useQuery({
    queryKey: accountKeys.withdrawals(),
    queryFn: () => callEndpoint(walletEndpoints.withdrawalRecords, { query: { limit: 50 } }),
  });
}

export function requestWithdrawal(body: {
  requestId: string;
  addressId: string;
  asset: string;
  amount: string;
  tradePassword: string;
  /** Once two-factor sign-in is on: the authenticator or a recovery code. */
  totpCode?: string;
}) {
  return callEndpoint(walletEndpoints.requestWithdrawal, { body });
}

export function cancelWithdrawal(withdrawalId: string) {
  return callEndpoint(walletEndpoints.cancelWithdrawal, { params: { withdrawalId } });
}

export function useWithdrawAddresses() {
  return useQuery({
    queryKey: accountKeys.addresses(),
    queryFn: () => callEndpoint(walletEndpoints.listWithdrawAddresses),
  });
}

export function addWithdrawAddress(body: {
  network: WithdrawNetwork;
  address: string;
  remark: string;
}) {
  return callEndpoint(walletEndpoints.addWithdrawAddress, { body });
}

export function deleteWithdrawAddress(addressId: string) {
  return callEndpoint(walletEndpoints.deleteWithdrawAddress, { params: { addressId } });
}

export function useAccounts() {
  return useQuery({
    queryKey: accountKeys.accounts(),
    queryFn: () => callEndpoint(walletEndpoints.walletAccounts),
  });
}

export function useAccountStatement(wallet: WalletName) {
  return useQuery({
    queryKey: accountKeys.statement(wallet),
    queryFn: () =>
      callEndpoint(walletEndpoints.walletAccountStatement, {
        params: { wallet },
        query: { limit: 50 },
      }),
  });
}

export function useTransferRecords() {
  return useQuery({
    queryKey: accountKeys.transfers(),
    queryFn: () => callEndpoint(walletEndpoints.transferRecords, { query: { limit: 50 } }),
  });
}

export function useTransferLimits(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.limits(),
    queryFn: () => callEndpoint(walletEndpoints.transferLimits),
    enabled,
  });
}

export function useExchangeRecords() {
  return useQuery({
    queryKey: accountKeys.exchanges(),
    queryFn: () => callEndpoint(walletEndpoints.exchangeRecords, { query: { limit: 50 } }),
  });
}

export function useExchangePairs() {
  return useQuery({
    queryKey: accountKeys.pairs(),
    queryFn: () => callEndpoint(walletEndpoints.exchangePairs),
  });
}

export function lookUpRecipient(userId: string) {
  return callEndpoint(walletEndpoints.transferRecipient, { params: { userId } });
}

export function transferBetweenWallets(body: {
  requestId: string;
  asset: string;
  amount: string;
  sourceWallet: WalletName;
  targetWallet: WalletName;
}) {
  return callEndpoint(walletEndpoints.transferBetweenWallets, { body });
}

export function transferToUser(body: {
  requestId: string;
  recipientId: string;
  asset: string;
  amount: string;
  tradePassword: string;
  confirmIrreversible: boolean;
}) {
  return callEndpoint(walletEndpoints.transferToUser, { body });
}

export function requestQuote(body: {
  requestId: string;
  sourceAsset: string;
  targetAsset: string;
  sourceAmount: string;
}) {
  return callEndpoint(walletEndpoints.requestExchangeQuote, { body });
}

export function acceptQuote(quoteId: string) {
  return callEndpoint(walletEndpoints.acceptExchangeQuote, { params: { quoteId } });
}
