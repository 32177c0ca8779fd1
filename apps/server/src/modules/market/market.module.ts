import { wsClientMessageBytesMax, wsPath, type Channel } from "@candor/contract";
import type { FastifyInstance } from "fastify";
import { WebSocketServer } from "ws";
import type { Database } from "../../db/database.ts";
import { instruments as catalogue, type FeedSource } from "@candor/market";
import { BinanceFeed } from "./binance-feed.ts";
import { sqlCandleRepository } from "./market.repository.ts";
import { marketRoutes } from "./market.routes.ts";
import { MarketService, type MarketServiceOptions } from "./market.service.ts";
import { WsHub, type WsIdentity } from "./ws-hub.ts";

/** The market module as the app uses it: the service, the hub and a clock to drive them. */
export interface MarketModule {
  service: MarketService;
  hub: WsHub;
  /** Starts the real-time loop (ticks, candle writes, heartbeat sweep); returns a stopper. */
  startClock(now: () => number): () => Promise<void>;
}

export interface MarketModuleOptions extends Omit<MarketServiceOptions, "repository"> {
  database: Database;
  now: () => number;
  authenticate?: (token: string) => Promise<WsIdentity | null>;
  sendQueueBytesMax?: number;
  heartbeatMs?: number;
  /** How often completed candles are written (default 5 s). */
  flushIntervalMs?: number;
  /** Instruments to price from Binance's public stream instead of the simulator. */
  binance?: { baseUrl: string; instrumentIds: readonly string[] };
}

/** Builds the service (backfilled up to now) and the hub wired to it. */
export async function createMarketModule(options: MarketModuleOptions): Promise<MarketModule> {
  const sourceByInstrument = new Map<string, FeedSource>();
  const binanceInstruments = catalogue.filter(
    (i) => i.binanceSymbol && options.binance?.instrumentIds.includes(i.id),
  );
  for (const instrument of binanceInstruments) sourceByInstrument.set(instrument.id, "binance");
  const service = new MarketService({
    ...options,
    sourceByInstrument,
    repository: sqlCandleRepository(options.database),
  });
  await service.start(options.now());
  const hub = new WsHub({
    now: options.now,
    authenticate: options.authenticate,
    sendQueueBytesMax: options.sendQueueBytesMax,
    heartbeatMs: options.heartbeatMs,
    validate: (channel) =>
      "instrumentId" in channel && !service.instrument(channel.instrumentId)
        ? "instrument_not_found"
        : null,
    initialMessages: (channel) => initialMessages(service, channel, options.now()),
  });
  service.attachPublisher(hub);
  const tickIntervalMs = options.tickIntervalMs ?? 1_000;
  return {
    service,
    hub,
    startClock(now) {
      const feed =
        options.binance && binanceInstruments.length > 0
          ? new BinanceFeed({ baseUrl: options.binance.baseUrl, instruments: binanceInstruments })
          : undefined;
      const pumping = feed
        ? (async () => {
            for await (const tick of feed.ticks()) service.ingest(tick);
          })()
        : Promise.resolve();
      const ticker = setInterval(() => {
        service.step(now());
        hub.sweep(now());
      }, tickIntervalMs);
      let flushing: Promise<void> = Promise.resolve();
      const flusher = setInterval(() => {
        flushing = flushing.then(() => service.flush()).catch(() => {});
      }, options.flushIntervalMs ?? 5_000);
      return async () => {
        await feed?.close();
        await pumping;
        clearInterval(ticker);
        clearInterval(flusher);
        await flushing;
        await service.flush();
      };
    },
  };
}

function initialMessages(service: MarketService, channel: Channel, nowMs: number): unknown[] {
  if (!("instrumentId" in channel)) return [];
  const instrument = service.instrument(channel.instrumentId);
  if (!instrument) return [];
  switch (channel.channel) {
    case "ticker": {
      const data = service.ticker(instrument, nowMs);
      return data ? [{ type: "ticker", stream: `ticker:${instrument.id}`, data }] : [];
    }
    case "depth": {
      const stream = `depth:${instrument.id}:${channel.mode}`;
      return [
        {
          type: "depth_snapshot",
          stream,
          data: service.depthSnapshot(instrument, channel.mode, nowMs),
        },
      ];
    }
    case "candles": {
      const data = service.currentCandle(instrument, channel.interval);
      const stream = `candles:${instrument.id}:${channel.interval}`;
      return data
        ? [
            {
              type: "candle",
              stream,
              interval: channel.interval,
              instrumentId: instrument.id,
              data,
            },
          ]
        : [];
    }
    case "trades":
      return [];
  }
}

/** Registers the REST routes and the WebSocket endpoint on the app. */
export async function registerMarket(
  app: FastifyInstance,
  market: MarketModule,
  now: () => number,
): Promise<void> {
  await app.register(marketRoutes, { prefix: "/api/v1", market: market.service, now });
  const wss = new WebSocketServer({ noServer: true, maxPayload: wsClientMessageBytesMax });
  app.server.on("upgrade", (request, socket, head) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== wsPath) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      market.hub.attach(ws, {
        url: request.url,
        acceptLanguage: request.headers["accept-language"],
      });
    });
  });
  app.addHook("onClose", async () => {
    market.hub.closeAll();
    wss.close();
  });
}
