import { createHash, timingSafeEqual } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerFactory } from "fastify";
import type { Database } from "./db/database.ts";
import { authenticatePlugin } from "./http/authenticate.ts";
import { envelopePlugin, sendError } from "./http/envelope.ts";
import { startingRetryAfterS } from "./http/starting-server.ts";
import { docsRoutes } from "./http/openapi.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { securityHeadersPlugin } from "./http/security-headers.ts";
import type { CandorEngine } from "./engine/kernel-port.ts";
import { authModule } from "./modules/auth/auth.routes.ts";
import { createAuthService, type AccountOpener } from "./modules/auth/auth.service.ts";
import type { SessionBus } from "./modules/auth/sessions.ts";
import type { SmsProvider } from "./modules/auth/sms.ts";
import { healthModule } from "./modules/health/health.routes.ts";
import { newsModule } from "./modules/news/news.routes.ts";
import { invitationsModule } from "./modules/invitations/invitations.routes.ts";
import { vipModule } from "./modules/vip/vip.routes.ts";
import { agentsModule } from "./modules/agents/agents.routes.ts";
import { activitiesModule } from "./modules/activities/activities.routes.ts";
import { noticesModule } from "./modules/notices/notices.routes.ts";
import { OperatorAccounts } from "./modules/auth/operator-accounts.ts";
import { operatorAccountsModule } from "./modules/auth/operator-accounts.routes.ts";
import { backOfficeModule } from "./modules/back-office/back-office.routes.ts";
import type { OperatorAuditInput } from "./http/operator-audit.ts";
import { operatorModule } from "./modules/operator/operator.routes.ts";
import { proofModule } from "./modules/proof/proof.routes.ts";
import { tapeModule } from "./modules/tape/tape.routes.ts";
import type { MarketModule } from "./modules/market/market.module.ts";
import { marketModule } from "./modules/market/market.routes.ts";
import { marketMakerModule } from "./modules/market-maker/market-maker.routes.ts";
import { savingsModule, type SavingsModuleOptions } from "./modules/savings/savings.routes.ts";
import { perpModule } from "./modules/perp/perp.routes.ts";
import type { PerpMarketConfig } from "./modules/perp/perp.markets.ts";
import { secondsModule } from "./modules/seconds/seconds.routes.ts";
import { loansModule } from "./modules/loans/loans.routes.ts";
import { stocksModule, type StocksModuleOptions } from "./modules/stocks/stocks.routes.ts";
import type { SecondsProductConfig } from "./modules/seconds/seconds.products.ts";
import { spotModule } from "./modules/spot/spot.routes.ts";
import { walletModule } from "./modules/wallet/wallet.routes.ts";
import { bannersModule } from "./modules/banners/banners.routes.ts";
import { LimitsStore } from "./modules/product-config/limits-store.ts";
import { productConfigModule } from "./modules/product-config/product-config.routes.ts";
import { defaultWithdrawalConfig } from "./modules/wallet/wallet.withdrawals.ts";
import { defaultUserTransferDailyLimits } from "./modules/wallet/wallet.transfers.ts";
import type { WithdrawalConfig } from "./modules/wallet/wallet.withdrawals.ts";
import { ChainDeposits } from "./modules/chain/chain-deposits.ts";
import { ChainRepository } from "./modules/chain/chain.repository.ts";
import type { LocalChain } from "./modules/chain/local/local-chain.ts";
import { ChainWithdrawals } from "./modules/chain/chain-withdrawals.ts";
import type { ChainModuleSettings } from "./modules/chain/chain-setup.ts";
import type { WithdrawalRepository } from "./modules/wallet/wallet.repository.ts";
import type { WalletWithdrawals } from "./modules/wallet/wallet.withdrawals.ts";
import { getAssets } from "@candor/kernel";
import { chainModule } from "./modules/chain/chain.routes.ts";
import { bankDepositsModule } from "./modules/bank-deposits/bank-deposits.routes.ts";
import { AppError } from "./http/app-error.ts";
import { identityModule } from "./modules/identity/identity.routes.ts";
import { IdentityService, tierCovers } from "./modules/identity/identity.service.ts";
import { operatorSupportConversations, type IdentityTier } from "@candor/contract";
import type { BankDepositSettings } from "./modules/bank-deposits/bank-deposits.service.ts";
import { OperatorService } from "./modules/operator/operator.service.ts";
import { defaultImageLimits, type ImageLimits } from "./modules/uploads/image.ts";
import { uploadsModule } from "./modules/uploads/uploads.routes.ts";
import { UploadsService } from "./modules/uploads/uploads.service.ts";
import { residenceModule } from "./modules/auth/residence.routes.ts";
import { SupportRepository } from "./modules/support/support.repository.ts";
import { supportModule } from "./modules/support/support.routes.ts";
import { SupportService } from "./modules/support/support.service.ts";
import { CountryProductGate, type CountryProductBlocks } from "./http/country-product-gate.ts";
import type { SwitchableProduct } from "@candor/contract";

/** Everything the app needs from outside; tests pass their own. */
export interface AppDeps {
  database: Database;
  /** Milliseconds since the epoch; injected so tests control time. */
  now?: () => number;
  /** Folder of the built web app to serve at `/`; omitted in API-only tests. */
  webRoot?: string;
  logLevel?: string;
  /** Largest request body accepted, in bytes. */
  bodyLimitBytes?: number;
  /** How long a new withdrawal address waits before use, ms (WITHDRAW_ADDRESS_LOCK_MS). */
  withdrawAddressLockMs?: number;
  /** Withdrawal minimums, fees and two-approval amounts (WITHDRAW_TERMS, WITHDRAW_TWO_APPROVALS_ABOVE). */
  withdrawals?: WithdrawalConfig;
  /**
   * Manual adjustments: asset → amount (whole units) above which a second, different operator
   * approves before the credit (ADJUSTMENT_TWO_APPROVALS_ABOVE). Default here: none (tests);
   * the server's configuration defaults to USDT:10000.
   */
  adjustmentTwoApprovalsAbove?: Readonly<Record<string, string>>;
  /** The identity tier a withdrawal needs (WITHDRAW_REQUIRES_IDENTITY); default none. */
  withdrawRequiresIdentity?: "none" | IdentityTier;
  /**
   * Per asset, the withdrawal amount above which the advanced tier is needed
   * (WITHDRAW_ADVANCED_ABOVE); default none.
   */
  withdrawAdvancedAbove?: Readonly<Record<string, string>>;
  /** Bearer token for operator endpoints (OPERATOR_TOKEN); unset means no operator access. */
  operatorToken?: string;
  /** The single-writer kernel engine (journal + kernel); routes that move money need it. */
  engine?: CandorEngine;
  /** Opens a user's ledger accounts for a mode (and grants demo money for "demo"); idempotent. */
  accounts?: AccountOpener;
  /** `smtp://…` URL for e-mail; unset keeps every e-mail in the operator's outbox only. */
  smtpUrl?: string;
  /** Sender of e-mails, e.g. `Candor <no-reply@example.com>`. */
  mailFrom?: string;
  /** An SMS provider's adapter (phone codes); unset keeps text messages in the outbox only. */
  smsProvider?: SmsProvider;
  /** Public origin of the app (`https://trade.example.com`): wallet sign-in domain, cookies. */
  publicUrl?: string;
  /** The configured listening port (PORT); wallet sign-in without `publicUrl` accepts only its loopback origins. */
  port?: number;
  /** log2 of scrypt's N for passwords (default 17); tests use a low cost. */
  passwordCost?: number;
  /** "off" skips captchas (scripted local use and tests); default "required". */
  captcha?: "required" | "off";
  /** Work per proof-of-work captcha (CAPTCHA_COST, the largest secret number); default 250,000. */
  captchaCost?: number;
  /** Publish a proof of liabilities every this many ms (PROOF_INTERVAL_MS); unset: on request. */
  proofIntervalMs?: number;
  /**
   * An API node (`ROLE=api`, docs/deploy.md §4): it answers requests only. The background work
   * that submits commands or writes read models on its own (stock session sync, the chain
   * watcher, timed proof publication, the perpetual market maker, settling withdrawal requests
   * at start) runs on the engine leader alone, whatever the other settings say.
   */
  apiNode?: boolean;
  /**
   * The cluster's session bus (`cluster/session-bus.ts`, docs/deploy.md §4): API nodes and the
   * engine leader tell each other about revocations and mode switches, so a session ended on
   * one node closes its WebSocket streams on every node and is refused at once. Unset in a
   * single process (nothing to tell).
   */
  sessionBus?: SessionBus;
  /** Market data (REST under /api/v1/market and the WebSocket /api/v1/ws), when built. */
  market?: MarketModule;
  /**
   * Serve on a server made outside (`main.ts` listens before the app is built and answers 503
   * until then); the caller then never calls `listen`.
   */
  serverFactory?: FastifyServerFactory;
  /**
   * Whether the read models have caught up with the journal as it was at start-up. Until
   * then, history reads (`readModelPaths`) answer 503 with Retry-After rather than stale data.
   */
  readModelsCaughtUp?: () => boolean;
  /** Savings plans and mining products: plans at start-up, demo yield top-up. */
  savings?: Pick<SavingsModuleOptions, "plans" | "yieldDemoFunding" | "enabled">;
  /** Stocks: terms per currency, quote age, session sync interval. */
  stocks?: Pick<StocksModuleOptions, "terms" | "tickAgeMaxMs" | "sessionSyncMs" | "instruments">;
  /** Seconds contracts: switch, products at start-up, development house funding. */
  seconds?: {
    enabled?: boolean;
    products?: readonly SecondsProductConfig[];
    houseDevFunding?: string;
    disclosureCacheMs?: number;
  };
  /** Perpetual contracts: switch, markets at start-up, the labelled market maker. */
  perp?: {
    enabled?: boolean;
    markets?: readonly PerpMarketConfig[];
    marketMaker?: boolean;
    disclosureCacheMs?: number;
  };
  /**
   * Uploaded images: their folder (UPLOADS_DIR, default DATA_DIR/uploads, outside the web root)
   * and limits. Unset (tests): a fresh temporary folder.
   */
  uploads?: { dir: string; limits?: Partial<ImageLimits> };
  /** The operator's bank account and the assets bank deposits credit; unset: bank deposits off. */
  bankDeposits?: BankDepositSettings;
  /** Crypto deposits (and on-chain withdrawals): the chains watched; unset: none. */
  chain?: ChainModuleSettings;
  /** The in-process chain of CHAIN_MODE=local (development and tests): its token faucet. */
  localChain?: LocalChain;
  /** Products not offered per country of residence (COUNTRY_PRODUCT_BLOCKS); default none. */
  countryProductBlocks?: CountryProductBlocks;
}

/** The chains crypto deposits arrive on (see modules/chain). */
/** GET paths answered from the read models (order history, finished orders, statements). */
const readModelPaths = [
  /^\/api\/v1\/spot\/orders\/history$/,
  /^\/api\/v1\/spot\/orders\/\d+$/,
  /^\/api\/v1\/spot\/statement$/,
  /^\/api\/v1\/seconds\/products$/,
  /^\/api\/v1\/seconds\/contracts$/,
  /^\/api\/v1\/perp\/(orders\/history|fills|liquidations|funding)$/,
  /^\/api\/v1\/savings\/subscriptions$/,
  /^\/api\/v1\/stocks\/orders$/,
  /^\/api\/v1\/stocks\/orders\/\d+$/,
  /^\/api\/v1\/stocks\/fills$/,
  /^\/api\/v1\/wallet\/accounts\/[a-z]+\/statement$/,
  /^\/api\/v1\/wallet\/statement\/export$/,
];

/**
 * Builds the whole HTTP app. It never listens: `main.ts` does, and tests use `inject`. Each
 * module is a plugin with its own typed options; nothing imports this file but `main.ts` and
 * tests. A service other modules need (auth's) is built here first and passed to them.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { database } = deps;
  const now = deps.now ?? Date.now;
  const app = Fastify({
    logger: { level: deps.logLevel ?? "silent" },
    bodyLimit: deps.bodyLimitBytes ?? 64 * 1024,
    // Behind a load balancer, set trustProxy there; the default trusts nobody.
    trustProxy: false,
    forceCloseConnections: "idle",
    // Start-up hooks read the database (settling withdrawals a crash interrupted, the chain
    // adapter's first pass) while the first start's backfill keeps it busy; on a loaded machine
    // that took longer than Fastify's default 10 s and the server exited instead of starting.
    pluginTimeout: 120_000,
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
  });
  // First, so every answer carries them: API, errors, 404s, docs, the web app's files.
  await app.register(securityHeadersPlugin, { publicUrl: deps.publicUrl });
  await app.register(envelopePlugin);
  if (deps.readModelsCaughtUp) {
    const caughtUp = deps.readModelsCaughtUp;
    app.addHook("onRequest", async (request, reply) => {
      if (request.method !== "GET" || caughtUp()) return;
      const path = request.url.split("?")[0] ?? "";
      if (!readModelPaths.some((pattern) => pattern.test(path))) return;
      reply.header("retry-after", String(startingRetryAfterS));
      return sendError(request, reply, "service_unavailable");
    });
  }
  // Contract endpoints (`defineRoute`) register here; /api/openapi.json and /api/docs list them.
  app.decorate("endpoints", []);
  app.decorate("rateLimiter", new RateLimiter(now));
  const auth = createAuthService({
    database,
    now,
    log: app.log,
    passwordCost: deps.passwordCost,
    captcha: deps.captcha,
    captchaCost: deps.captchaCost,
    smtpUrl: deps.smtpUrl,
    mailFrom: deps.mailFrom,
    smsProvider: deps.smsProvider,
    accounts: deps.accounts,
    sessionBus: deps.sessionBus,
  });
  app.addHook("onClose", async () => auth.close());
  // A socket's identity ends with its session (issue 14 item 6).
  const hub = deps.market?.hub;
  if (hub) auth.sessions.onRevoke((userId, tokenHash) => hub.endSessions(`${userId}`, tokenHash));
  const operatorAccounts = new OperatorAccounts(database, now, deps.passwordCost, deps.sessionBus);
  app.addHook("onClose", async () => operatorAccounts.close());
  await app.register(authenticatePlugin, {
    sessions: auth.sessions,
    operatorToken: deps.operatorToken,
    operatorSessions: operatorAccounts,
  });
  // The one audit hook of operator actions (define-route.ts calls it): who, what, why, whom.
  app.decorate("operatorAudit", (entry: OperatorAuditInput) =>
    operatorAccounts.audit(
      entry.operatorId,
      entry.action,
      entry.reason,
      entry.userId,
      entry.detail,
    ),
  );
  await app.register(operatorAccountsModule, { accounts: operatorAccounts });
  await app.register(backOfficeModule, {
    database,
    accounts: operatorAccounts,
    sessions: auth.sessions,
    engine: deps.engine,
    now,
  });
  await app.register(docsRoutes);

  await app.register(healthModule, { database, now });
  await app.register(tapeModule, { database });
  // The limits in force (migration 0038): the deployment's settings until an operator changes
  // them in the back office; each node reads the row again every five seconds.
  const limits = new LimitsStore(
    database,
    {
      withdrawals: deps.withdrawals ?? defaultWithdrawalConfig,
      adjustmentTwoApprovalsAbove: deps.adjustmentTwoApprovalsAbove ?? {},
      transferDailyLimits: defaultUserTransferDailyLimits,
      withdrawRequiresIdentity: deps.withdrawRequiresIdentity ?? "none",
      withdrawAdvancedAbove: deps.withdrawAdvancedAbove ?? {},
    },
    now,
  );
  await limits.start();
  app.addHook("onClose", async () => limits.stop());
  if (deps.engine) {
    await app.register(operatorModule, {
      engine: deps.engine,
      users: auth,
      database,
      now,
      twoApprovalsAbove: () => limits.current().adjustmentTwoApprovalsAbove,
    });
  }
  // Set once the uploads service exists (it needs the engine's branch below): avatars, banner
  // images and the support chat's images.
  let uploadsBuilt: UploadsService | undefined;
  await app.register(authModule, {
    auth,
    publicUrl: deps.publicUrl,
    port: deps.port,
    avatars: {
      owns: async (uploadId, ownerId) =>
        (await uploadsBuilt?.ownedBy(uploadId, ownerId))?.purpose === "avatar",
    },
  });
  // One guard for the per-country product switches (DESIGN §1.7); the deployment's own
  // switches (PERP_ENABLED, SECONDS_ENABLED, SAVINGS_ENABLED) stay where they are.
  const deploymentOff: SwitchableProduct[] = [];
  if (deps.perp?.enabled === false) deploymentOff.push("perp");
  if (deps.seconds?.enabled === false) deploymentOff.push("seconds");
  if (deps.savings?.enabled === false) deploymentOff.push("savings");
  const countryGate = new CountryProductGate({
    blocks: deps.countryProductBlocks ?? {},
    deploymentOff,
    countryOf: async (userId) => (await auth.residence?.countryOf(userId)) ?? null,
  });
  // Product configuration (issue 17): fees, leverage caps, per-country switches, limits.
  await app.register(productConfigModule, {
    database,
    gate: countryGate,
    seedBlocks: deps.countryProductBlocks ?? {},
    engine: deps.engine,
    limits,
    now,
  });
  await app.register(residenceModule, { auth, gate: countryGate });
  await app.register(noticesModule, { database, now });
  await app.register(invitationsModule, {
    database,
    publicUrl: deps.publicUrl,
    engine: deps.engine,
    now,
  });
  await app.register(vipModule, { engine: deps.engine, now });
  await app.register(agentsModule, { database, engine: deps.engine, now });
  await app.register(activitiesModule, { engine: deps.engine, now });
  await app.register(newsModule, { database, now });
  await app.register(bannersModule, { database, now, uploads: () => uploadsBuilt });
  const support = new SupportService({
    repository: new SupportRepository(database),
    now,
    mail: (message) => auth.mailer.send(message),
    supportImage: async (uploadId, ownerId) => {
      const upload = await uploadsBuilt?.ownedBy(uploadId, ownerId);
      return upload?.purpose === "support_image" ? upload : undefined;
    },
    publisher: hub,
    scaleOf: deps.engine
      ? (assetId) =>
          deps.engine!.query((s) => getAssets(s).find((a) => a.assetId === assetId)?.scale ?? 0)
      : undefined,
  });
  await app.register(supportModule, {
    support,
    readFile: (uploadId) => {
      if (!uploadsBuilt) throw new AppError("upload_not_found");
      return uploadsBuilt.forOperator(uploadId);
    },
  });
  // The WebSocket's support channels: the user's or a visitor's conversation, or (a support
  // operator, by the role rule of the conversation list) every conversation.
  if (hub) operatorAccounts.onSignOut((tokenHash) => hub.endOperatorSession(tokenHash));
  hub?.setSupportAccess(async (channel, identity) => {
    if (channel.channel === "support") {
      if (channel.token === undefined) {
        return identity ? { kind: "user", userId: identity.userId } : null;
      }
      const conversationId = await support.visitorConversationId(channel.token);
      return conversationId ? { kind: "visitor", conversationId } : null;
    }
    const account = await operatorAccounts
      .authoriseRequest(channel.token, "GET", operatorSupportConversations.path)
      .catch(() => null);
    if (account) {
      const tokenHash = createHash("sha256").update(channel.token).digest("hex");
      const endsAtMs = await operatorAccounts.sessionExpiresAtMs(channel.token);
      if (endsAtMs === null) return null;
      return { kind: "operator", operatorId: account.id, tokenHash, endsAtMs };
    }
    const given = Buffer.from(channel.token);
    const bootstrap = deps.operatorToken ? Buffer.from(deps.operatorToken) : undefined;
    if (
      bootstrap &&
      given.length === bootstrap.length &&
      timingSafeEqual(given, bootstrap) &&
      !(await operatorAccounts.anyOperator())
    ) {
      return { kind: "operator", operatorId: "bootstrap" };
    }
    return null;
  });
  if (deps.market) {
    await app.register(marketModule, { market: deps.market, now, publicUrl: deps.publicUrl });
  }
  if (deps.market?.kernel) {
    await app.register(marketMakerModule, { engine: deps.market.kernel });
  }
  if (deps.engine) {
    const streams = deps.market?.hub;
    let walletWithdrawals:
      { service: WalletWithdrawals; repository: WithdrawalRepository } | undefined;
    const uploads = new UploadsService({
      database,
      now,
      dir: deps.uploads?.dir ?? mkdtempSync(path.join(tmpdir(), "candor-uploads-")),
      limits: { ...defaultImageLimits, ...deps.uploads?.limits },
    });
    uploadsBuilt = uploads;
    const identity = new IdentityService({ database, now, uploads });
    await app.register(spotModule, {
      engine: deps.engine,
      database,
      now,
      streams,
      tradePassword: auth.tradePassword,
    });
    await app.register(walletModule, {
      engine: deps.engine,
      database,
      streams,
      now,
      tradePassword: auth.tradePassword,
      recipients: auth,
      withdrawAddressLockMs: deps.withdrawAddressLockMs,
      withdrawals: () => limits.current().withdrawals,
      userTransferDailyLimits: () => limits.current().transferDailyLimits,
      settleAtStart: !deps.apiNode,
      onWithdrawals: (service, repository) => (walletWithdrawals = { service, repository }),
      withdrawalGate: async (userId, totpCode, request) => {
        // Above the asset's WITHDRAW_ADVANCED_ABOVE amount the advanced tier is needed; at or
        // below it, WITHDRAW_REQUIRES_IDENTITY (both in the limits store).
        const { withdrawAdvancedAbove, withdrawRequiresIdentity } = limits.current();
        const advancedAbove = withdrawAdvancedAbove[request.asset];
        if (advancedAbove !== undefined && decimalAbove(request.amount, advancedAbove)) {
          if (!tierCovers(await identity.passedTier(userId), "advanced")) {
            throw new AppError("identity_advanced_required");
          }
        } else if (
          withdrawRequiresIdentity !== "none" &&
          !tierCovers(await identity.passedTier(userId), withdrawRequiresIdentity)
        ) {
          throw new AppError("identity_verification_required");
        }
        // Once two-factor sign-in is on, a withdrawal needs a code too (issue 17).
        if (auth.twoFactor && (await auth.twoFactor.enabled(userId))) {
          if (totpCode === undefined) throw new AppError("two_factor_required");
          await auth.twoFactor.verify(userId, totpCode);
        }
      },
    });
    await app.register(secondsModule, {
      engine: deps.engine,
      database,
      now,
      streams,
      tradePassword: auth.tradePassword,
      countryGate,
      ...deps.seconds,
    });
    await app.register(perpModule, {
      engine: deps.engine,
      database,
      now,
      streams,
      tradePassword: auth.tradePassword,
      countryGate,
      ...deps.perp,
      ...(deps.apiNode ? { marketMaker: false } : {}),
    });
    await app.register(savingsModule, {
      engine: deps.engine,
      database,
      now,
      countryGate,
      ...deps.savings,
    });
    await app.register(loansModule, { engine: deps.engine, countryGate });
    await app.register(stocksModule, {
      engine: deps.engine,
      database,
      now,
      tradePassword: auth.tradePassword,
      countryGate,
      computedRange: deps.market
        ? (id, interval, fromMs) => deps.market!.service.computedRange(id, interval, fromMs)
        : undefined,
      ...deps.stocks,
      ...(deps.apiNode ? { sessionSyncMs: 0 } : {}),
    });
    await app.register(uploadsModule, { uploads });
    await app.register(identityModule, {
      identity,
      // A user's own action: no operator (the audit page shows the user), reason fixed.
      auditUserAction: (userId, action, detail) =>
        operatorAccounts.audit(null, action, "by the user", userId, detail),
    });
    await app.register(bankDepositsModule, {
      database,
      engine: deps.engine,
      now,
      uploads,
      operator: new OperatorService(deps.engine, auth),
      settings: deps.bankDeposits ?? { bank: null, assets: ["USDT"] },
    });
    await app.register(chainModule, {
      deposits: deps.chain
        ? new ChainDeposits({
            engine: deps.engine,
            repository: new ChainRepository(database),
            xpub: deps.chain.xpub,
            networks: deps.chain.networks,
            now,
          })
        : undefined,
      pollMs: deps.apiNode ? 0 : deps.chain?.pollMs,
      onDeposits: deps.chain?.onDeposits,
      localChain: deps.localChain,
      onPayouts: deps.chain?.onPayouts,
      payouts:
        deps.chain && walletWithdrawals
          ? new ChainWithdrawals({
              withdrawals: walletWithdrawals.service,
              records: walletWithdrawals.repository,
              repository: new ChainRepository(database),
              networks: deps.chain.networks,
              hotKey: deps.chain.hotKey,
              scaleOf: (assetId) =>
                deps.engine!.query(
                  (s) => getAssets(s).find((a) => a.assetId === assetId)?.scale ?? 0,
                ),
              now,
            })
          : undefined,
    });
    await app.register(proofModule, {
      database,
      engine: deps.engine,
      now,
      intervalMs: deps.apiNode ? undefined : deps.proofIntervalMs,
    });
  }

  if (deps.webRoot && existsSync(deps.webRoot)) {
    await app.register(fastifyStatic, { root: deps.webRoot, prefix: "/", wildcard: false });
  }
  return app;
}

/**
 * True when the decimal text `amount` is above `limit` (both plain decimals, as the contract and
 * the configuration check them); compared as integers at a common scale, never as floats.
 */
export function decimalAbove(amount: string, limit: string): boolean {
  const [aWhole = "0", aFraction = ""] = amount.split(".");
  const [lWhole = "0", lFraction = ""] = limit.split(".");
  const scale = Math.max(aFraction.length, lFraction.length);
  const units = (whole: string, fraction: string) => BigInt(whole + fraction.padEnd(scale, "0"));
  return units(aWhole, aFraction) > units(lWhole, lFraction);
}
