import {
  AssetClass,
  CandlesQuery,
  DepthQuery,
  InstrumentId,
  InstrumentsQuery,
  TradesQuery,
} from "@candor/contract";
import type { Instrument } from "@candor/market";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { AppError } from "../../http/app-error.ts";
import { ok } from "../../http/envelope.ts";
import type { MarketService } from "./market.service.ts";

const IdParams = z.object({ id: InstrumentId });
const TickersQuery = z.object({ assetClass: AssetClass.optional() });

/**
 * Public market-data endpoints under `/api/v1/market`. Reads only: nothing here changes state,
 * and every price is labelled with its `source` ("simulated" for the built-in simulator).
 */
export const marketRoutes: FastifyPluginAsync<{
  market: MarketService;
  now: () => number;
}> = async (app, { market, now }) => {
  const instrumentOf = (params: unknown): Instrument => {
    const { id } = IdParams.parse(params);
    const instrument = market.instrument(id);
    if (!instrument) throw new AppError("instrument_not_found");
    return instrument;
  };

  app.get("/market/instruments", async (request) => {
    const query = InstrumentsQuery.parse(request.query);
    return ok(market.listInstruments(query));
  });

  app.get("/market/instruments/:id", async (request) => {
    return ok(market.instrumentView(instrumentOf(request.params)));
  });

  app.get("/market/tickers", async (request) => {
    const { assetClass } = TickersQuery.parse(request.query);
    return ok(market.tickers24h(now(), assetClass));
  });

  app.get("/market/instruments/:id/ticker", async (request) => {
    const instrument = instrumentOf(request.params);
    const ticker = market.ticker(instrument, now());
    if (!ticker) throw new AppError("not_found");
    return ok(ticker);
  });

  app.get("/market/instruments/:id/status", async (request) => {
    return ok(market.status(instrumentOf(request.params), now()));
  });

  app.get("/market/status", async (request) => {
    const { assetClass } = TickersQuery.parse(request.query);
    return ok(
      market
        .listInstruments({ assetClass })
        .map((view) => market.status(market.instrument(view.id)!, now())),
    );
  });

  app.get("/market/instruments/:id/candles", async (request) => {
    const instrument = instrumentOf(request.params);
    const query = CandlesQuery.parse(request.query);
    if (query.fromMs !== undefined && query.toMs !== undefined && query.fromMs >= query.toMs) {
      throw new AppError("validation_failed", [{ path: "fromMs", message: "must be before toMs" }]);
    }
    const candles = await market.candles(instrument, query.interval, query, now());
    return ok({
      instrumentId: instrument.id,
      interval: query.interval,
      source: market.sourceOf(instrument.id),
      candles,
    });
  });

  app.get("/market/instruments/:id/depth", async (request) => {
    const instrument = instrumentOf(request.params);
    const query = DepthQuery.parse(request.query);
    return ok(market.depth(instrument, query.mode, query.levels, now()));
  });

  app.get("/market/instruments/:id/trades", async (request) => {
    const instrument = instrumentOf(request.params);
    const query = TradesQuery.parse(request.query);
    return ok(market.recentTrades(instrument, query.limit));
  });
};
