import {
  configureSecondsProduct,
  purchaseSecondsContract,
  secondsContractDetail,
  secondsContracts,
  secondsProducts,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { defaultSecondsProducts, type SecondsProductConfig } from "./seconds.products.ts";
import { SecondsRepository } from "./seconds.repository.ts";
import {
  SecondsService,
  type SecondsEngine,
  type SecondsSession,
  type SecondsStreamSink,
} from "./seconds.service.ts";
import type { ProductCountryCheck } from "../../http/country-product-gate.ts";
import { TradePasswordGate, type TradePasswordCheck } from "../../http/trade-password-gate.ts";

const minute = 60_000;

export interface SecondsModuleOptions {
  engine: SecondsEngine;
  database: Database;
  tradePassword: TradePasswordCheck;
  /** The private `seconds` stream (the WebSocket hub), when the app has one. */
  streams?: SecondsStreamSink;
  now?: () => number;
  /** False switches the product off for this deployment (SECONDS_ENABLED=false). Default true. */
  enabled?: boolean;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS): asked before opening. */
  countryGate?: ProductCountryCheck;
  /** Products configured at start-up when the kernel does not have them (default: BTC, ETH). */
  products?: readonly SecondsProductConfig[];
  /** The open tick may be at most this old at purchase, ms (default 5,000). */
  tickAgeMaxMs?: number;
  /** Development only: whole USDT credited once to the real house (SECONDS_HOUSE_DEV_FUNDING). */
  houseDevFunding?: string;
  tradePasswordWindowMs?: number;
  /** How long the disclosure figures are reused, ms (default 10,000). */
  disclosureCacheMs?: number;
}

/** `/api/v1/seconds/*`: up/down contracts settled on the recorded tape (issue 20). */
export const secondsModule: FastifyPluginAsync<SecondsModuleOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const service = new SecondsService({
    engine: options.engine,
    repository: new SecondsRepository(options.database),
    now,
    enabled: options.enabled ?? true,
    tickAgeMaxMs: options.tickAgeMaxMs,
    streams: options.streams,
    disclosureCacheMs: options.disclosureCacheMs,
  });
  app.addHook("onClose", async () => service.stop());
  await service.setup(options.products ?? defaultSecondsProducts);
  if (options.houseDevFunding) await service.devFundRealHouse("USDT", options.houseDevFunding);
  const gate = new TradePasswordGate({
    tradePassword: options.tradePassword,
    now,
    windowMs: options.tradePasswordWindowMs ?? 15 * minute,
    allowAttempt: (userId) =>
      app.rateLimiter.hit(`seconds-trade-password|user|${userId}`, {
        max: 10,
        windowMs: 15 * minute,
      }),
  });
  const session = (user: AuthUser): SecondsSession => ({
    ownerId: String(user.id),
    mode: user.mode,
  });

  defineRoute(
    app,
    secondsProducts,
    { perIp: { max: 600, windowMs: minute } },
    async ({ query }) => ({
      enabled: service.enabled,
      items: service.enabled ? service.products() : [],
      disclosure: await service.disclosure(query.mode),
    }),
  );

  defineRoute(
    app,
    purchaseSecondsContract,
    { bodyBytes: 1_024, perUser: { max: 300, windowMs: minute } },
    async ({ body, user }) => {
      const { tradePassword, ...purchase } = body;
      if (!service.enabled) return service.purchase(session(user), purchase);
      await options.countryGate?.check(user.id, "seconds");
      await gate.check(user, tradePassword);
      return service.purchase(session(user), purchase);
    },
  );

  defineRoute(
    app,
    secondsContracts,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => service.list(session(user), query),
  );

  defineRoute(
    app,
    secondsContractDetail,
    { perUser: { max: 1_200, windowMs: minute } },
    async ({ params, user }) => ({
      contract: await service.detail(session(user), params.contractId),
    }),
  );

  defineRoute(app, configureSecondsProduct, { bodyBytes: 2_048 }, async ({ body, request }) => ({
    product: await service.configure(body, operatorIdOf(request)),
  }));
};
