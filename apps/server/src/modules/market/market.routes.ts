import {
  getCandlesEndpoint,
  getDepthEndpoint,
  getInstrumentEndpoint,
  getMarketStatusEndpoint,
  getTickerEndpoint,
  listInstrumentsEndpoint,
  listMarketStatusEndpoint,
  listTickersEndpoint,
  listTradesEndpoint,
} from "@candor/contract";
import type { Instrument } from "@candor/market";
import type { FastifyPluginAsync } from "fastify";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import type { MarketModule } from "./market.module.ts";
import { attachWebSocket } from "./ws-endpoint.ts";

/** Reads are cheap but public: a generous per-IP limit keeps one client from hogging the API. */
const perIp = { max: 600, windowMs: 60_000 };

export interface MarketModuleOptions {
  /** The market runtime built by `createMarketModule` (service, WebSocket hub, market maker). */
  market: MarketModule;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** The public origin (`PUBLIC_URL`): the only `Origin` WebSocket upgrades may come from. */
  publicUrl?: string;
}

/**
 * Public market-data endpoints (`/api/v1/market/...`, see packages/contract/src/market.ts) and
 * the WebSocket endpoint (`/api/v1/ws`, see packages/contract/src/ws.ts). Reads only: nothing
 * here changes state, and every price carries its `source`.
 */
export const marketModule: FastifyPluginAsync<MarketModuleOptions> = async (app, options) => {
  const market = options.market.service;
  const now = options.now ?? Date.now;
  attachWebSocket(app, options.market.hub, {
    hubAuthenticates: options.market.hasAuthenticate,
    publicUrl: options.publicUrl,
  });

  const instrumentOf = (id: string): Instrument => {
    const instrument = market.instrument(id);
    if (!instrument) throw new AppError("instrument_not_found");
    return instrument;
  };

  defineRoute(app, listInstrumentsEndpoint, { perIp }, ({ query }) =>
    market.listInstruments(query),
  );

  defineRoute(app, getInstrumentEndpoint, { perIp }, ({ params }) =>
    market.instrumentView(instrumentOf(params.id)),
  );

  defineRoute(app, listTickersEndpoint, { perIp }, ({ query }) =>
    market.tickers24h(now(), query.assetClass),
  );

  defineRoute(app, getTickerEndpoint, { perIp }, ({ params }) => {
    const ticker = market.ticker(instrumentOf(params.id), now());
    if (!ticker) throw new AppError("not_found");
    return ticker;
  });

  defineRoute(app, getMarketStatusEndpoint, { perIp }, ({ params }) =>
    market.status(instrumentOf(params.id), now()),
  );

  defineRoute(app, listMarketStatusEndpoint, { perIp }, ({ query }) =>
    market
      .listInstruments({ assetClass: query.assetClass })
      .map((view) => market.status(market.instrument(view.id)!, now())),
  );

  defineRoute(app, getCandlesEndpoint, { perIp }, async ({ params, query }) => {
    const instrument = instrumentOf(params.id);
    if (query.fromMs !== undefined && query.toMs !== undefined && query.fromMs >= query.toMs) {
      throw new AppError("validation_failed", [
        { path: "query.fromMs", message: "must be before toMs" },
      ]);
    }
    return {
      instrumentId: instrument.id,
      interval: query.interval,
      source: market.sourceOf(instrument.id),
      candles: await market.candles(instrument, query.interval, query, now()),
    };
  });

  defineRoute(app, getDepthEndpoint, { perIp }, ({ params, query }) =>
    market.depth(instrumentOf(params.id), query.mode, query.levels, now()),
  );

  defineRoute(app, listTradesEndpoint, { perIp }, ({ params, query }) =>
    market.recentTrades(instrumentOf(params.id), query.limit),
  );
};
