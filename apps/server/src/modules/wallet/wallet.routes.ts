import { grantDemoFunds, resetDemoFunds, spotBalances, spotStatement } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { WalletRepository } from "./wallet.repository.ts";
import { WalletService, type WalletEngine, type WalletSession } from "./wallet.service.ts";
import { WalletStreams, type WalletStreamEngine, type WalletStreamSink } from "./wallet.streams.ts";

const minute = 60_000;

export interface WalletModuleOptions {
  engine: WalletEngine & WalletStreamEngine;
  database: Database;
  /** The private `balances` stream (the WebSocket hub), when the app has one. */
  streams?: WalletStreamSink;
  /** Largest demo grant per request, in whole units of the value asset (default 100,000). */
  demoGrantValueMax?: bigint;
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
};
