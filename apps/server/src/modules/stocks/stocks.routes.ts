import {
  cancelStockOrder,
  estimateStockOrder,
  fundStockInventory,
  grantStockDemoFunds,
  placeStockOrder,
  setStockTpSl,
  stockDetail,
  stockFills,
  stockHoldings,
  stockOrderDetail,
  stockOrders,
  stockPageData,
} from "@candor/contract";
import type { Instrument } from "@candor/market";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import type { ProductCountryCheck } from "../../http/country-product-gate.ts";
import { StocksRepository } from "./stocks.repository.ts";
import { TradePasswordGate, type TradePasswordCheck } from "../../http/trade-password-gate.ts";
import {
  StocksService,
  type StockTerms,
  type StocksEngine,
  type StocksServiceOptions,
  type StocksSession,
} from "./stocks.service.ts";

const minute = 60_000;

export interface StocksModuleOptions {
  engine: StocksEngine;
  database: Database;
  tradePassword: TradePasswordCheck;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS): asked before opening. */
  countryGate?: ProductCountryCheck;
  tradePasswordWindowMs?: number;
  now?: () => number;
  terms?: Readonly<Record<string, StockTerms>>;
  tickAgeMaxMs?: number;
  /** How often the calendar's sessions are journaled, ms (default 15,000; 0: only on demand). */
  sessionSyncMs?: number;
  /** The catalogue (default `@candor/market`'s); STOCK_SESSIONS=always-open changes calendars. */
  instruments?: readonly Instrument[];
  /** The market service's computed history (day and year ranges before the live start). */
  computedRange?: StocksServiceOptions["computedRange"];
}

/** `/api/v1/stocks/*`: stock orders against the house at the recorded quote (issue 21). */
export const stocksModule: FastifyPluginAsync<StocksModuleOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const service = new StocksService({
    engine: options.engine,
    repository: new StocksRepository(options.database),
    now,
    terms: options.terms,
    tickAgeMaxMs: options.tickAgeMaxMs,
    instruments: options.instruments,
    computedRange: options.computedRange,
  });
  await service.setup();
  const syncMs = options.sessionSyncMs ?? 15_000;
  const timer =
    syncMs > 0
      ? setInterval(() => {
          service.syncSessions().catch((error: unknown) => {
            app.log.warn({ error: String(error) }, "stocks: session sync failed");
          });
        }, syncMs)
      : undefined;
  timer?.unref();
  app.addHook("onClose", async () => {
    if (timer) clearInterval(timer);
    service.stop();
  });
  const gate = new TradePasswordGate({
    tradePassword: options.tradePassword,
    now,
    windowMs: options.tradePasswordWindowMs ?? 15 * minute,
    allowAttempt: (userId) =>
      app.rateLimiter.hit(`stocks-trade-password|user|${userId}`, {
        max: 10,
        windowMs: 15 * minute,
      }),
  });
  const session = (user: AuthUser): StocksSession => ({
    ownerId: String(user.id),
    mode: user.mode,
  });

  defineRoute(app, stockPageData, { perIp: { max: 600, windowMs: minute } }, async ({ query }) => ({
    items: service.list(query.mode),
  }));

  defineRoute(
    app,
    stockDetail,
    { perIp: { max: 600, windowMs: minute } },
    async ({ params, query }) => service.detail(params.instrumentId, query.mode),
  );

  defineRoute(
    app,
    estimateStockOrder,
    { bodyBytes: 1_024, perUser: { max: 600, windowMs: minute } },
    async ({ body }) => ({ estimate: service.estimate(body) }),
  );

  defineRoute(
    app,
    placeStockOrder,
    { bodyBytes: 1_024, perUser: { max: 300, windowMs: minute } },
    async ({ body, user }) => {
      const { tradePassword, ...order } = body;
      // Selling a holding stays allowed where stocks are switched off for the country.
      if (order.side === "buy") await options.countryGate?.check(user.id, "stocks");
      await gate.check(user, tradePassword);
      return service.place(session(user), order);
    },
  );

  defineRoute(
    app,
    stockOrders,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({ items: await service.orders(session(user), query) }),
  );

  defineRoute(
    app,
    stockOrderDetail,
    { perUser: { max: 1_200, windowMs: minute } },
    async ({ params, user }) => service.orderDetail(session(user), Number(params.orderId)),
  );

  defineRoute(
    app,
    cancelStockOrder,
    { perUser: { max: 300, windowMs: minute } },
    async ({ params, user }) => ({
      order: await service.cancel(session(user), Number(params.orderId)),
    }),
  );

  defineRoute(
    app,
    stockFills,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({ items: await service.fills(session(user), query) }),
  );

  defineRoute(app, stockHoldings, { perUser: { max: 600, windowMs: minute } }, async ({ user }) =>
    service.holdings(session(user)),
  );

  defineRoute(
    app,
    setStockTpSl,
    { bodyBytes: 512, perUser: { max: 120, windowMs: minute } },
    async ({ params, body, user }) => ({
      holding: await service.setTpSl(session(user), params.instrumentId, body),
    }),
  );

  defineRoute(
    app,
    grantStockDemoFunds,
    { perUser: { max: 30, windowMs: minute } },
    async ({ user }) => ({ balances: await service.demoFunds(session(user)) }),
  );

  defineRoute(app, fundStockInventory, { bodyBytes: 2_048 }, async ({ body, request }) =>
    service.fundInventory(body, operatorIdOf(request)),
  );
};
