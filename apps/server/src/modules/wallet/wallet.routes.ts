import {
  acceptBuyQuote,
  addBankCard,
  buyOptions,
  deleteBankCard,
  listBankCards,
  markWithdrawalPaid,
  requestBankWithdrawal,
  requestBuyQuote,
  approveWithdrawal,
  cancelWithdrawal,
  completeWithdrawal,
  markWithdrawalSent,
  operatorWithdrawals,
  rejectWithdrawal,
  requestWithdrawal,
  withdrawalDetail,
  withdrawalOptions,
  withdrawalRecords,
  acceptExchangeQuote,
  addWithdrawAddress,
  deleteWithdrawAddress,
  editWithdrawAddress,
  listWithdrawAddresses,
  exchangePairs,
  exportStatement,
  exchangeRecords,
  fundHouse,
  grantDemoFunds,
  requestExchangeQuote,
  resetDemoFunds,
  spotBalances,
  spotStatement,
  transferBetweenWallets,
  transferLimits,
  transferRecipient,
  transferRecords,
  transferToUser,
  walletAccounts,
  walletAccountStatement,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import { FileReply } from "../../http/file-reply.ts";
import { statementCsv } from "./wallet.statement-csv.ts";
import { QuickExchange, type QuickExchangeOptions } from "./wallet.exchange.ts";
import { WithdrawAddressBook } from "./wallet.addresses.ts";
import { BankCards } from "./wallet.bank-cards.ts";
import { WalletBuy } from "./wallet.buy.ts";
import {
  BankCardRepository,
  WalletRecordsRepository,
  WalletRepository,
  WithdrawAddressRepository,
  WithdrawalRepository,
} from "./wallet.repository.ts";
import {
  defaultWithdrawalConfig,
  WalletWithdrawals,
  type WithdrawalConfig,
} from "./wallet.withdrawals.ts";
import {
  defaultUserTransferDailyLimits,
  WalletTransfers,
  type RecipientDirectory,
  type WalletTradePassword,
} from "./wallet.transfers.ts";
import { WalletService, type WalletEngine, type WalletSession } from "./wallet.service.ts";
import { WalletStreams, type WalletStreamEngine, type WalletStreamSink } from "./wallet.streams.ts";

const minute = 60_000;

export interface WalletModuleOptions {
  engine: WalletEngine & WalletStreamEngine;
  database: Database;
  /** Settle withdrawal requests a crash left unheld when the app is ready (default true). */
  settleAtStart?: boolean;
  /** The private `balances` stream (the WebSocket hub), when the app has one. */
  streams?: WalletStreamSink;
  /** Largest demo grant per request, in whole units of the value asset (default 100,000). */
  demoGrantValueMax?: bigint;
  /** The auth service's trade-password check (`auth.tradePassword`). */
  tradePassword: WalletTradePassword;
  /** Who a transfer reaches (the auth service). */
  recipients: RecipientDirectory;
  now?: () => number;
  /** Per-asset 24-hour limits of transfers to other users, whole units (see wallet.transfers). */
  userTransferDailyLimits?: () => Readonly<Record<string, string>>;
  /** Quick exchange: spread, quote lifetime, tick age and demo house funding. */
  exchange?: Omit<QuickExchangeOptions, "engine" | "records">;
  /** How long a new withdrawal address waits before use, ms (default 24 h). */
  withdrawAddressLockMs?: number;
  /** Withdrawal minimums, fees and the two-approval amounts (default: USDT on three chains). */
  withdrawals?: () => WithdrawalConfig;
  /** Receives the withdrawals service once built (the chain module pays out and completes). */
  onWithdrawals?: (withdrawals: WalletWithdrawals, repository: WithdrawalRepository) => void;
  /**
   * Checked before a withdrawal request; throws to refuse it (identity verification tier,
   * WITHDRAW_REQUIRES_IDENTITY, and the two-factor code once 2FA is on; issue 17). Unset: no
   * such check.
   */
  withdrawalGate?: (
    userId: bigint,
    totpCode: string | undefined,
    request: { asset: string; amount: string },
  ) => Promise<void>;
}

/** Balances, statement and demo funds of the signed-in user, and the private balances stream. */
export const walletModule: FastifyPluginAsync<WalletModuleOptions> = async (app, options) => {
  const service = new WalletService({
    engine: options.engine,
    repository: new WalletRepository(options.database),
    demoGrantValueMax: options.demoGrantValueMax,
  });
  if (options.streams) {
    const streams = new WalletStreams(options.engine, options.streams);
    app.addHook("onClose", async () => streams.stop());
  }
  const records = new WalletRecordsRepository(options.database);
  // One budget of trade-password attempts per user for transfers and withdrawals alike.
  const allowTradePasswordAttempt = (userId: bigint) =>
    app.rateLimiter.hit(`wallet-trade-password|user|${userId}`, {
      max: 10,
      windowMs: 15 * minute,
    });
  const transfers = new WalletTransfers({
    engine: options.engine,
    records,
    recipients: options.recipients,
    tradePassword: options.tradePassword,
    allowTradePasswordAttempt,
    now: options.now ?? Date.now,
    userTransferDailyLimits:
      options.userTransferDailyLimits ?? (() => defaultUserTransferDailyLimits),
  });
  const exchange = new QuickExchange({ engine: options.engine, records, ...options.exchange });
  const addressRepository = new WithdrawAddressRepository(options.database);
  const withdrawalRepository = new WithdrawalRepository(options.database);
  const bankCardRepository = new BankCardRepository(options.database);
  const withdrawals = new WalletWithdrawals({
    engine: options.engine,
    repository: withdrawalRepository,
    addresses: addressRepository,
    bankCards: bankCardRepository,
    tradePassword: options.tradePassword,
    allowTradePasswordAttempt,
    now: options.now ?? Date.now,
    config: options.withdrawals ?? (() => defaultWithdrawalConfig),
  });
  options.onWithdrawals?.(withdrawals, withdrawalRepository);
  // A request a crash left between its record and the kernel's hold is settled at start (by
  // the engine leader only: an API node starting would remove another node's request in flight).
  if (options.settleAtStart ?? true) app.addHook("onReady", async () => withdrawals.settleAll());
  const bankCards = new BankCards({
    repository: bankCardRepository,
    now: options.now ?? Date.now,
  });
  const buy = new WalletBuy({
    engine: options.engine,
    exchange,
    transfers,
    now: options.now ?? Date.now,
  });
  // Payments of buy quotes still standing are moved back before the engine stops.
  app.addHook("onClose", async () => buy.stop());
  const addresses = new WithdrawAddressBook({
    repository: addressRepository,
    now: options.now ?? Date.now,
    lockMs: options.withdrawAddressLockMs,
  });
  const addressSession = (user: AuthUser) => ({
    userId: user.id,
    mode: user.mode,
    demoOnly: user.demoOnly,
  });
  const session = (user: AuthUser): WalletSession => ({
    ownerId: String(user.id),
    mode: user.mode,
  });

  defineRoute(app, spotBalances, { perUser: { max: 600, windowMs: minute } }, ({ user }) =>
    service.balances(session(user)),
  );

  defineRoute(
    app,
    spotStatement,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => service.statement(session(user), query),
  );

  defineRoute(
    app,
    grantDemoFunds,
    { bodyBytes: 512, perUser: { max: 20, windowMs: minute } },
    async ({ body, user }) => ({ items: await service.grantDemo(session(user), body) }),
  );

  defineRoute(app, resetDemoFunds, { perUser: { max: 10, windowMs: minute } }, async ({ user }) =>
    service.resetDemo(session(user)),
  );

  // The whole statement, chained by hash, for the user to check (issue 24); heavy, so rarer.
  defineRoute(
    app,
    exportStatement,
    { perUser: { max: 20, windowMs: minute } },
    async ({ query, user }) => {
      const statement = await service.exportStatement(session(user));
      if (query.format === "json") return statement;
      const name = `candor-statement-${statement.mode}-${statement.sequence}.csv`;
      return new FileReply("text/csv; charset=utf-8", name, statementCsv(statement));
    },
  );

  // Accounts (issue 16): the three wallets, valued at tape prices, and each one's postings.
  defineRoute(app, walletAccounts, { perUser: { max: 600, windowMs: minute } }, ({ user }) =>
    service.accounts(session(user)),
  );

  defineRoute(
    app,
    walletAccountStatement,
    { perUser: { max: 600, windowMs: minute } },
    ({ params, query, user }) =>
      service.statement(session(user), { ...query, wallet: params.wallet }),
  );

  // Transfers.
  defineRoute(
    app,
    transferBetweenWallets,
    { bodyBytes: 1024, perUser: { max: 60, windowMs: minute } },
    ({ body, user }) => transfers.betweenWallets(session(user), body),
  );

  defineRoute(
    app,
    transferRecipient,
    // A directory of users must not be walked: few look-ups per user.
    { perUser: { max: 30, windowMs: minute } },
    ({ params, user }) => transfers.recipient(session(user), params.userId),
  );

  defineRoute(
    app,
    transferToUser,
    { bodyBytes: 1024, perUser: { max: 20, windowMs: minute } },
    ({ body, user }) => transfers.toUser({ ...session(user), userId: user.id }, body),
  );

  defineRoute(app, transferLimits, { perUser: { max: 120, windowMs: minute } }, ({ user }) =>
    transfers.limits(session(user)),
  );

  defineRoute(
    app,
    transferRecords,
    { perUser: { max: 600, windowMs: minute } },
    ({ query, user }) => transfers.list(session(user), query),
  );

  // Quick exchange.
  defineRoute(app, exchangePairs, { perIp: { max: 600, windowMs: minute } }, () =>
    exchange.pairs(),
  );

  defineRoute(
    app,
    requestExchangeQuote,
    { bodyBytes: 1024, perUser: { max: 60, windowMs: minute } },
    ({ body, user }) => exchange.quote(session(user), body),
  );

  defineRoute(
    app,
    acceptExchangeQuote,
    { bodyBytes: 256, perUser: { max: 60, windowMs: minute } },
    ({ params, user }) => exchange.accept(session(user), params.quoteId),
  );

  defineRoute(
    app,
    exchangeRecords,
    { perUser: { max: 600, windowMs: minute } },
    ({ query, user }) => exchange.list(session(user), query),
  );

  // Buy (index/buy): crypto for the fiat wallet's balance, at a quick-exchange quote.
  defineRoute(app, buyOptions, { perUser: { max: 300, windowMs: minute } }, ({ user }) =>
    buy.options_(session(user)),
  );
  defineRoute(
    app,
    requestBuyQuote,
    { bodyBytes: 1024, perUser: { max: 60, windowMs: minute } },
    ({ body, user }) => buy.quote(session(user), body),
  );
  defineRoute(
    app,
    acceptBuyQuote,
    { bodyBytes: 256, perUser: { max: 60, windowMs: minute } },
    ({ params, user }) => buy.accept(session(user), params.quoteId),
  );

  // The operator funds the real house with money actually put in: a journaled deposit credit.
  defineRoute(app, fundHouse, { bodyBytes: 2_048 }, ({ body, request }) =>
    exchange.fundHouse(body, operatorIdOf(request)),
  );

  // Withdrawal address book.
  defineRoute(app, listWithdrawAddresses, { perUser: { max: 300, windowMs: minute } }, ({ user }) =>
    addresses.list(addressSession(user)),
  );
  defineRoute(
    app,
    addWithdrawAddress,
    { bodyBytes: 512, perUser: { max: 20, windowMs: minute } },
    ({ body, user }) => addresses.add(addressSession(user), body),
  );
  defineRoute(
    app,
    editWithdrawAddress,
    { bodyBytes: 512, perUser: { max: 20, windowMs: minute } },
    ({ body, params, user }) => addresses.edit(addressSession(user), params.addressId, body),
  );
  defineRoute(
    app,
    deleteWithdrawAddress,
    { perUser: { max: 20, windowMs: minute } },
    ({ params, user }) => addresses.remove(addressSession(user), params.addressId),
  );

  // Bank cards.
  defineRoute(app, listBankCards, { perUser: { max: 300, windowMs: minute } }, ({ user }) =>
    bankCards.list(addressSession(user)),
  );
  defineRoute(
    app,
    addBankCard,
    { bodyBytes: 1024, perUser: { max: 20, windowMs: minute } },
    ({ body, user }) => bankCards.add(addressSession(user), body),
  );
  defineRoute(app, deleteBankCard, { perUser: { max: 20, windowMs: minute } }, ({ params, user }) =>
    bankCards.remove(addressSession(user), params.cardId),
  );

  // Withdrawals.
  const withdrawalSession = (user: AuthUser) => ({
    ...addressSession(user),
    ownerId: String(user.id),
  });
  defineRoute(app, withdrawalOptions, { perUser: { max: 300, windowMs: minute } }, () =>
    withdrawals.terms(),
  );
  defineRoute(
    app,
    requestWithdrawal,
    { bodyBytes: 1024, perUser: { max: 20, windowMs: minute } },
    async ({ body, user }) => {
      if (!user.demoOnly && user.mode === "real") {
        await options.withdrawalGate?.(user.id, body.totpCode, body);
      }
      return withdrawals.request(withdrawalSession(user), body);
    },
  );
  defineRoute(
    app,
    requestBankWithdrawal,
    { bodyBytes: 1024, perUser: { max: 20, windowMs: minute } },
    async ({ body, user }) => {
      if (!user.demoOnly && user.mode === "real") {
        await options.withdrawalGate?.(user.id, body.totpCode, body);
      }
      return withdrawals.requestBank(withdrawalSession(user), body);
    },
  );
  defineRoute(
    app,
    withdrawalRecords,
    { perUser: { max: 600, windowMs: minute } },
    ({ query, user }) => withdrawals.list(withdrawalSession(user), query),
  );
  defineRoute(
    app,
    withdrawalDetail,
    { perUser: { max: 600, windowMs: minute } },
    ({ params, user }) => withdrawals.detail(withdrawalSession(user), params.withdrawalId),
  );
  defineRoute(
    app,
    cancelWithdrawal,
    { perUser: { max: 30, windowMs: minute } },
    ({ params, user }) => withdrawals.cancel(withdrawalSession(user), params.withdrawalId),
  );

  // The operator's withdrawal steps, each recording the operator's id.
  defineRoute(app, operatorWithdrawals, {}, ({ query }) =>
    withdrawals.pending(query.status, query.limit),
  );
  // Each names the user it touched, for the audit entry and the user's own history.
  const touched = <T extends { userId: string }>(request: FastifyRequest, view: T): T => {
    touchesUser(request, view.userId);
    return view;
  };
  defineRoute(app, approveWithdrawal, { bodyBytes: 2_048 }, async ({ params, request }) =>
    touched(request, await withdrawals.approve(params.withdrawalId, operatorIdOf(request))),
  );
  defineRoute(app, markWithdrawalSent, { bodyBytes: 2_048 }, async ({ params, body, request }) =>
    touched(
      request,
      await withdrawals.markSent(params.withdrawalId, operatorIdOf(request), body.txHash),
    ),
  );
  defineRoute(app, markWithdrawalPaid, { bodyBytes: 2_048 }, async ({ params, body, request }) =>
    touched(
      request,
      await withdrawals.markPaid(
        params.withdrawalId,
        operatorIdOf(request),
        body.bankReference,
        body.reason,
      ),
    ),
  );
  defineRoute(app, completeWithdrawal, { bodyBytes: 2_048 }, async ({ params, request }) =>
    touched(request, await withdrawals.complete(params.withdrawalId, operatorIdOf(request))),
  );
  defineRoute(app, rejectWithdrawal, { bodyBytes: 2_048 }, async ({ params, body, request }) =>
    touched(
      request,
      await withdrawals.reject(params.withdrawalId, operatorIdOf(request), body.reason),
    ),
  );
};
