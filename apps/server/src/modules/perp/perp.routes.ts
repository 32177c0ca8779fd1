import {
  amendPerpOrder,
  cancelPerpConditionalOrder,
  cancelPerpOrder,
  cancelPerpTpSl,
  changePerpMargin,
  closeAllPerpPositions,
  closePerpPosition,
  perpFills,
  perpForcedEvents,
  perpFundingHistory,
  perpBook,
  perpConditionalOrders,
  placePerpConditionalOrder,
  placePerpOcoOrder,
  perpMarkets,
  perpOpenOrders,
  perpOrderHistory,
  perpMarketMakerFundingEndpoint,
  perpPositions,
  placePerpOrder,
  reversePerpPosition,
  setPerpLeverage,
  setPerpMarginMode,
  setPerpTpSl,
} from "@candor/contract";
import { getNowMs } from "@candor/kernel";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { submit } from "../../engine/submit.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import {
  defaultPerpMarkets,
  perpSetupCommands,
  PerpMarketMaker,
  type PerpMarketConfig,
} from "./perp.markets.ts";
import { PerpRepository } from "./perp.repository.ts";
import { PerpMarketMakerFunding } from "../market-maker/market-maker.service.ts";
import {
  PerpService,
  type PerpEngine,
  type PerpSession,
  type PerpStreamSink,
} from "./perp.service.ts";
import type { ProductCountryCheck } from "../../http/country-product-gate.ts";
import { TradePasswordGate, type TradePasswordCheck } from "../../http/trade-password-gate.ts";

const minute = 60_000;

export interface PerpModuleOptions {
  engine: PerpEngine;
  database: Database;
  tradePassword: TradePasswordCheck;
  streams?: PerpStreamSink;
  now?: () => number;
  /** False switches perpetuals off for this deployment (PERP_ENABLED=false). Default true. */
  enabled?: boolean;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS): asked before opening. */
  countryGate?: ProductCountryCheck;
  /** Markets defined at start-up when the kernel does not have them (default: BTC, ETH). */
  markets?: readonly PerpMarketConfig[];
  /** The labelled market maker quoting the perpetual books on each new mark (serve.ts: on). */
  marketMaker?: boolean;
  tradePasswordWindowMs?: number;
  disclosureCacheMs?: number;
}

/** `/api/v1/perp/*`: perpetual contracts (issue 19). */
export const perpModule: FastifyPluginAsync<PerpModuleOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const enabled = options.enabled ?? true;
  const engine = options.engine;
  // Rejections (market_exists on later starts, a missing asset) change nothing.
  for (const command of perpSetupCommands(options.markets ?? defaultPerpMarkets)) {
    await submit(engine, command);
  }
  const service = new PerpService({
    engine,
    repository: new PerpRepository(options.database),
    now,
    enabled,
    streams: options.streams,
    disclosureCacheMs: options.disclosureCacheMs,
  });
  app.addHook("onClose", async () => service.stop());
  if (enabled && options.marketMaker === true) {
    const maker = new PerpMarketMaker(engine);
    const stop = engine.subscribe((applied) => {
      // Marks follow the index ticks (the kernel emits perp_mark only once a book has traders).
      if (applied.replay || applied.command.type !== "record_tick") return;
      void maker.refresh(engine.query((s) => getNowMs(s)));
    });
    app.addHook("onClose", async () => stop());
  }
  const gate = new TradePasswordGate({
    tradePassword: options.tradePassword,
    now,
    windowMs: options.tradePasswordWindowMs ?? 15 * minute,
    allowAttempt: (userId) =>
      app.rateLimiter.hit(`perp-trade-password|user|${userId}`, { max: 10, windowMs: 15 * minute }),
  });
  const session = (user: AuthUser): PerpSession => ({ ownerId: String(user.id), mode: user.mode });
  /** Real money moves only after the trade password (remembered for a window), as spot. */
  const confirmed = async (user: AuthUser, tradePassword: string | undefined) => {
    if (!service.enabled) return;
    await gate.check(user, tradePassword);
  };
  const trade = { bodyBytes: 1_024, perUser: { max: 600, windowMs: minute } };
  const read = { perUser: { max: 1_200, windowMs: minute } };

  defineRoute(app, perpMarkets, { perIp: { max: 600, windowMs: minute } }, async ({ query }) => ({
    enabled,
    items: enabled ? service.markets(query.mode) : [],
    disclosure: await service.disclosure(),
  }));

  defineRoute(app, perpBook, { perIp: { max: 600, windowMs: minute } }, async ({ params, query }) =>
    service.book(query.mode, params.marketId, query.levels),
  );

  defineRoute(app, perpPositions, read, async ({ user }) => {
    if (!enabled) return { items: [], wallet: [] };
    return { items: service.positions(session(user)), wallet: service.wallet(session(user)) };
  });

  defineRoute(app, placePerpOrder, trade, async ({ body, user }) => {
    const { tradePassword, ...order } = body;
    // Reducing a position stays allowed where the product is switched off for the country.
    if (!order.reduceOnly) await options.countryGate?.check(user.id, "perp");
    await confirmed(user, tradePassword);
    return service.placeOrder(session(user), order);
  });

  defineRoute(app, amendPerpOrder, trade, async ({ params, body, user }) =>
    service.amendOrder(session(user), Number(params.orderId), body.contracts),
  );
  defineRoute(app, cancelPerpOrder, trade, async ({ params, user }) =>
    service.cancelOrder(session(user), Number(params.orderId)),
  );

  defineRoute(app, placePerpConditionalOrder, trade, async ({ body, user }) => {
    const { tradePassword, ...order } = body;
    if (!order.reduceOnly) await options.countryGate?.check(user.id, "perp");
    await confirmed(user, tradePassword);
    return service.placeConditional(session(user), order);
  });
  defineRoute(app, placePerpOcoOrder, trade, async ({ body, user }) => {
    const { tradePassword, ...order } = body;
    if (!order.reduceOnly) await options.countryGate?.check(user.id, "perp");
    await confirmed(user, tradePassword);
    return service.placeOco(session(user), order);
  });
  defineRoute(app, cancelPerpConditionalOrder, trade, async ({ params, user }) =>
    service.cancelConditional(session(user), Number(params.orderId)),
  );
  defineRoute(app, perpConditionalOrders, read, async ({ query, user }) => ({
    items: service.conditionalOrders(session(user), query.marketId),
  }));

  defineRoute(app, perpOpenOrders, read, async ({ query, user }) => ({
    items: service.openOrders(session(user), query.marketId),
  }));
  defineRoute(app, perpOrderHistory, read, async ({ query, user }) =>
    service.orderHistory(session(user), query),
  );
  defineRoute(app, perpFills, read, async ({ query, user }) => service.fills(session(user), query));
  defineRoute(app, perpForcedEvents, read, async ({ query, user }) =>
    service.forced(session(user), query),
  );
  defineRoute(app, perpFundingHistory, read, async ({ query, user }) =>
    service.funding(session(user), query),
  );

  defineRoute(app, setPerpLeverage, trade, async ({ params, body, user }) =>
    service.setLeverage(session(user), params.marketId, body.leverage),
  );
  defineRoute(app, setPerpMarginMode, trade, async ({ params, body, user }) =>
    service.setMarginMode(session(user), params.marketId, body.marginMode),
  );
  defineRoute(app, changePerpMargin, trade, async ({ params, body, user }) => {
    await confirmed(user, body.tradePassword);
    return service.changeMargin(session(user), params.marketId, body.direction, body.amount);
  });
  defineRoute(app, setPerpTpSl, trade, async ({ params, body, user }) => {
    await confirmed(user, body.tradePassword);
    return service.setTpSl(
      session(user),
      params.marketId,
      body.takeProfitPrice ?? null,
      body.stopLossPrice ?? null,
    );
  });
  defineRoute(app, cancelPerpTpSl, trade, async ({ params, user }) =>
    service.cancelTpSl(session(user), params.marketId),
  );
  defineRoute(app, closePerpPosition, trade, async ({ params, body, user }) => {
    await confirmed(user, body.tradePassword);
    return service.positionAction(session(user), params.marketId, "close", body.requestId);
  });
  defineRoute(app, reversePerpPosition, trade, async ({ params, body, user }) => {
    // A reversal opens the opposite position: only where the product is offered.
    await options.countryGate?.check(user.id, "perp");
    await confirmed(user, body.tradePassword);
    return service.positionAction(session(user), params.marketId, "reverse", body.requestId);
  });
  defineRoute(app, closeAllPerpPositions, trade, async ({ body, user }) => {
    await confirmed(user, body.tradePassword);
    return service.closeAll(session(user), body.requestId);
  });
  // The operator's margin for the market maker's real quotes (kernel type 42, journaled).
  const makerFunding = new PerpMarketMakerFunding(engine);
  defineRoute(app, perpMarketMakerFundingEndpoint, { bodyBytes: 2_048 }, ({ body, request }) =>
    makerFunding.fund(body, request.operatorAccount?.id ?? null),
  );
};
