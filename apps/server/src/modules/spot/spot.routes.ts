import {
  cancelAllSpotOrders,
  cancelSpotOrder,
  grantDemoFunds,
  openSpotOrders,
  placeSpotOrder,
  resetDemoFunds,
  spotBalances,
  spotMarkets,
  spotOrderDetail,
  spotOrderHistory,
  spotStatement,
} from "@candor/contract";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { verifyTradePassword } from "../auth/trade-password.ts";
import { SpotRepository } from "./spot.repository.ts";
import { SpotService, type SpotEngine, type SpotSession } from "./spot.service.ts";

const minute = 60_000;

export interface SpotModuleOptions {
  engine: SpotEngine;
  database: Database;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /**
   * How long a session stays confirmed after a correct trade password, ms (default 15
   * minutes; 0 asks for it on every order).
   */
  tradePasswordWindowMs?: number;
  priceWarningBpsUp?: number;
  priceWarningBpsDown?: number;
}

/** `/api/v1/spot/*`: orders, fund balances, statement and demo funds of the signed-in user. */
export async function registerSpot(app: FastifyInstance, options: SpotModuleOptions) {
  const { database } = options;
  const now = options.now ?? Date.now;
  const service = new SpotService({
    engine: options.engine,
    repository: new SpotRepository(database),
    now,
    priceWarningBpsUp: options.priceWarningBpsUp,
    priceWarningBpsDown: options.priceWarningBpsDown,
  });
  const windowMs = options.tradePasswordWindowMs ?? 15 * minute;
  // Sessions that confirmed the trade password recently: session token hash → until (ms).
  const confirmedUntil = new Map<string, number>();
  const session = (user: AuthUser): SpotSession => ({ ownerId: String(user.id), mode: user.mode });

  /**
   * The spec's rule: no trading without a trade password. A session that gave the right one
   * within the window is not asked again (scrypt on every order would cost ~100 ms each).
   */
  async function checkTradePassword(user: AuthUser, given: string | undefined) {
    const at = now();
    const until = confirmedUntil.get(user.sessionTokenHash);
    if (until !== undefined && until > at) return;
    if (given === undefined) {
      const row = await sql<{ set: boolean }>`
        SELECT trade_password_hash IS NOT NULL AS set FROM users WHERE id = ${user.id}`.execute(
        database.db,
      );
      throw new AppError(row.rows[0]?.set ? "trade_password_required" : "trade_password_not_set");
    }
    if (
      !app.rateLimiter.hit(`spot-trade-password|user|${user.id}`, {
        max: 10,
        windowMs: 15 * minute,
      })
    ) {
      throw new AppError("rate_limited");
    }
    await verifyTradePassword(database, user.id, given);
    if (windowMs > 0) {
      if (confirmedUntil.size > 100_000) {
        for (const [key, value] of confirmedUntil) if (value <= at) confirmedUntil.delete(key);
      }
      confirmedUntil.set(user.sessionTokenHash, at + windowMs);
    }
  }

  defineRoute(app, spotMarkets, { perIp: { max: 600, windowMs: minute } }, () => ({
    items: service.markets(),
    tradePasswordWindowMs: windowMs,
  }));

  defineRoute(
    app,
    placeSpotOrder,
    { bodyBytes: 1_024, perUser: { max: 1_200, windowMs: minute } },
    async ({ body, user }) => {
      const { tradePassword, ...order } = body;
      await checkTradePassword(user, tradePassword);
      return service.place(session(user), order);
    },
  );

  defineRoute(
    app,
    cancelAllSpotOrders,
    { bodyBytes: 256, perUser: { max: 120, windowMs: minute } },
    async ({ body, user }) => ({
      cancelledCount: await service.cancelAll(session(user), body.instrumentId),
    }),
  );

  defineRoute(
    app,
    cancelSpotOrder,
    { perUser: { max: 1_200, windowMs: minute } },
    async ({ params, user }) => ({
      order: await service.cancel(session(user), Number(params.orderId)),
    }),
  );

  defineRoute(
    app,
    openSpotOrders,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({
      items: await service.openOrders(session(user), query.instrumentId),
    }),
  );

  defineRoute(
    app,
    spotOrderHistory,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => service.history(session(user), query),
  );

  defineRoute(
    app,
    spotOrderDetail,
    { perUser: { max: 600, windowMs: minute } },
    async ({ params, user }) => service.detail(session(user), Number(params.orderId)),
  );

  defineRoute(app, spotBalances, { perUser: { max: 600, windowMs: minute } }, async ({ user }) => {
    const s = session(user);
    // Demo accounts open with their demo money the first time they are looked at.
    if (s.mode === "demo") await service.ensureAccounts(s);
    return service.balances(s);
  });

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

  return service;
}
