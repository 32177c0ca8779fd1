import {
  amendSpotOrder,
  cancelAllSpotOrders,
  cancelSpotConditionalOrder,
  cancelSpotOrder,
  placeSpotConditionalOrder,
  spotConditionalOrders,
  openSpotOrders,
  placeSpotOrder,
  spotMarkets,
  spotOrderDetail,
  spotOrderHistory,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { ClientOrderIdIndex } from "./spot.client-order-ids.ts";
import { SpotConditionalService } from "./spot.conditional.ts";
import { SpotMarkets } from "./spot.markets.ts";
import { SpotQueries } from "./spot.queries.ts";
import { SpotRepository } from "./spot.repository.ts";
import { SpotService, type SpotEngine, type SpotSession } from "./spot.service.ts";
import { SpotStreams, type SpotStreamSink } from "./spot.streams.ts";
import { TradePasswordGate, type TradePasswordCheck } from "../../http/trade-password-gate.ts";

const minute = 60_000;

export interface SpotModuleOptions {
  engine: SpotEngine;
  database: Database;
  /** The auth module's trade-password check (the auth service's `tradePassword`). */
  tradePassword: TradePasswordCheck;
  /** The private `orders` and `fills` streams (the WebSocket hub), when the app has one. */
  streams?: SpotStreamSink;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /**
   * How long a session stays confirmed after a correct trade password, ms (default 15
   * minutes; 0 asks for it on every order).
   */
  tradePasswordWindowMs?: number;
  /** Warning thresholds of the order form, basis points (default 500 each). */
  priceWarningBpsUp?: number;
  priceWarningBpsDown?: number;
}

/** `/api/v1/spot/*` orders and markets of the signed-in user, and the private order streams. */
export const spotModule: FastifyPluginAsync<SpotModuleOptions> = async (app, options) => {
  const { engine } = options;
  const repository = new SpotRepository(options.database);
  const markets = new SpotMarkets(engine, {
    priceWarningBpsUp: options.priceWarningBpsUp ?? 500,
    priceWarningBpsDown: options.priceWarningBpsDown ?? 500,
  });
  const queries = new SpotQueries(engine, markets, repository);
  // Subscribed before the load: orders after this sequence come from the engine, earlier ones
  // from the read model once it has caught up (in the background; until then, the database).
  const clientOrderIds = new ClientOrderIdIndex();
  const unsubscribe = engine.subscribe((applied) => clientOrderIds.handle(applied));
  let closed = false;
  const loading = clientOrderIds
    .load(repository, engine.sequence, { stopped: () => closed })
    .catch((error: unknown) => app.log.warn({ err: error }, "spot: client order id index"));
  app.addHook("onClose", async () => {
    closed = true;
    unsubscribe();
    await loading;
  });
  const service = new SpotService(engine, markets, repository, queries, clientOrderIds);
  const conditional = new SpotConditionalService(engine, markets, repository, options.database);
  const gate = new TradePasswordGate({
    tradePassword: options.tradePassword,
    now: options.now ?? Date.now,
    windowMs: options.tradePasswordWindowMs ?? 15 * minute,
    allowAttempt: (userId) =>
      app.rateLimiter.hit(`spot-trade-password|user|${userId}`, {
        max: 10,
        windowMs: 15 * minute,
      }),
  });
  if (options.streams) {
    const streams = await SpotStreams.start(engine, repository, options.streams);
    app.addHook("onClose", async () => streams.stop());
  }
  const session = (user: AuthUser): SpotSession => ({ ownerId: String(user.id), mode: user.mode });

  defineRoute(app, spotMarkets, { perIp: { max: 600, windowMs: minute } }, () => ({
    items: markets.views(),
    tradePasswordWindowMs: gate.windowMs,
  }));

  defineRoute(
    app,
    placeSpotOrder,
    { bodyBytes: 1_024, perUser: { max: 1_200, windowMs: minute } },
    async ({ body, user }) => {
      const { tradePassword, ...order } = body;
      await gate.check(user, tradePassword);
      return service.place(session(user), order);
    },
  );

  defineRoute(
    app,
    placeSpotConditionalOrder,
    { bodyBytes: 1_024, perUser: { max: 600, windowMs: minute } },
    async ({ body, user }) => {
      const { tradePassword, ...order } = body;
      await gate.check(user, tradePassword);
      return conditional.place(session(user), order);
    },
  );

  defineRoute(
    app,
    spotConditionalOrders,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({ items: await conditional.list(session(user), query) }),
  );

  defineRoute(
    app,
    cancelSpotConditionalOrder,
    { perUser: { max: 1_200, windowMs: minute } },
    async ({ params, user }) => ({
      order: await conditional.cancel(session(user), Number(params.orderId)),
    }),
  );

  defineRoute(
    app,
    amendSpotOrder,
    { bodyBytes: 256, perUser: { max: 1_200, windowMs: minute } },
    async ({ params, body, user }) => ({
      order: await conditional.amend(session(user), Number(params.orderId), body.quantity),
    }),
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
      items: await queries.openOrders(session(user), query.instrumentId),
    }),
  );

  defineRoute(
    app,
    spotOrderHistory,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => queries.history(session(user), query),
  );

  defineRoute(
    app,
    spotOrderDetail,
    { perUser: { max: 600, windowMs: minute } },
    async ({ params, user }) => queries.detail(session(user), Number(params.orderId)),
  );
};
