import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import type { Database } from "./db/database.ts";
import { authenticatePlugin } from "./http/authenticate.ts";
import { envelopePlugin } from "./http/envelope.ts";
import { docsRoutes } from "./http/openapi.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { tapeRoutes } from "./modules/tape/tape.routes.ts";
import type { CandorEngine } from "./engine/kernel-port.ts";
import { operatorDepositRoutes } from "./modules/operator/deposits.routes.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { noticesRoutes } from "./modules/notices/notices.routes.ts";
import type { MarketModule } from "./modules/market/market.module.ts";
import { marketModule } from "./modules/market/market.routes.ts";
import { marketMakerModule } from "./modules/market-maker/market-maker.routes.ts";
import { spotModule } from "./modules/spot/spot.routes.ts";
import { authTradePasswords } from "./modules/spot/trade-passwords.ts";
import { walletModule } from "./modules/wallet/wallet.routes.ts";

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
  /** Bearer token for operator endpoints (OPERATOR_TOKEN); unset means no operator access. */
  operatorToken?: string;
  /** The single-writer kernel engine (journal + kernel); routes that move money need it. */
  engine?: CandorEngine;
  /** Opens a user's ledger accounts for a mode (and grants demo money for "demo"); idempotent. */
  accounts?: { open(userId: bigint, mode: "real" | "demo"): Promise<void> };
  /** `smtp://…` URL for e-mail; unset keeps every e-mail in the operator's outbox only. */
  smtpUrl?: string;
  /** Sender of e-mails, e.g. `Candor <no-reply@example.com>`. */
  mailFrom?: string;
  /** Public origin of the app (`https://trade.example.com`): wallet sign-in domain, cookies. */
  publicUrl?: string;
  /** log2 of scrypt's N for passwords (default 17); tests use a low cost. */
  passwordCost?: number;
  /** "off" skips captchas (scripted local use and tests); default "required". */
  captcha?: "required" | "off";
  /** Market data (REST under /api/v1/market and the WebSocket /api/v1/ws), when built. */
  market?: MarketModule;
}

/** Builds the whole HTTP app. It never listens: `main.ts` does, and tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.logLevel ?? "silent" },
    bodyLimit: deps.bodyLimitBytes ?? 64 * 1024,
    // Behind a load balancer, set trustProxy there; the default trusts nobody.
    trustProxy: false,
    forceCloseConnections: "idle",
  });
  await app.register(envelopePlugin);
  // Contract endpoints (`defineRoute`) register here; /api/openapi.json and /api/docs list them.
  app.decorate("endpoints", []);
  app.decorate("rateLimiter", new RateLimiter(deps.now ?? Date.now));
  await app.register(authenticatePlugin, {
    database: deps.database,
    now: deps.now ?? Date.now,
    operatorToken: deps.operatorToken,
  });
  await app.register(docsRoutes);
  await app.register(healthRoutes, { prefix: "/api/v1", deps });
  await app.register(tapeRoutes, { database: deps.database });
  if (deps.engine) await app.register(operatorDepositRoutes, { engine: deps.engine });
  await app.register(authRoutes, { deps });
  await app.register(noticesRoutes, { deps });
  if (deps.market) await app.register(marketModule, { market: deps.market, now: deps.now });
  if (deps.market?.kernel) {
    await app.register(marketMakerModule, { engine: deps.market.kernel });
  }
  if (deps.engine) {
    await app.register(spotModule, {
      engine: deps.engine,
      database: deps.database,
      now: deps.now,
      streams: deps.market?.hub,
      tradePasswords: authTradePasswords(deps.database),
    });
    await app.register(walletModule, {
      engine: deps.engine,
      database: deps.database,
      streams: deps.market?.hub,
    });
  }

  if (deps.webRoot && existsSync(deps.webRoot)) {
    await app.register(fastifyStatic, { root: deps.webRoot, prefix: "/", wildcard: false });
  }
  return app;
}
