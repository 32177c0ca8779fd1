// The whole app as the server builds it (engine, journal, read models, market data with the
// kernel, every module) for the security suite, with a clock the tests move so rate limits
// never hide what a check would answer.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { generatePrivateKey, HDKey } from "viem/accounts";
import { EvmChainAdapter } from "../../apps/server/src/modules/chain/chain-adapter.ts";
import { LocalChain, localChainId } from "../../apps/server/src/modules/chain/local/local-chain.ts";
import { expect } from "vitest";
import { buildApp } from "../../apps/server/src/app.ts";
import type { Database } from "../../apps/server/src/db/database.ts";
import { accountOpener } from "../../apps/server/src/engine/submit.ts";
import { createMarketModule } from "../../apps/server/src/modules/market/market.module.ts";
import { MemoryTapeSink } from "../../apps/server/src/modules/market/tape-sink.ts";
import { startTestEngine } from "../../apps/server/src/modules/spot/spot.testing.ts";
import { registerByPhone } from "../../apps/server/src/testing/register-phone.ts";

export const operatorToken = "security-suite-operator-token";

/** A signed-in user of the suite. */
export interface SuiteUser {
  id: string;
  token: string;
}

export interface SecurityApp {
  app: FastifyInstance;
  engine: Awaited<ReturnType<typeof startTestEngine>>["engine"];
  /** Moves the app's clock on (rate-limit windows are fixed windows of this clock). */
  tick(ms?: number): void;
  /** The app's clock, ms. */
  now(): number;
  register(phone: string): Promise<SuiteUser>;
  /** A new session of a registered user (password "trade1234"). */
  login(phone: string): Promise<SuiteUser>;
  demo(): Promise<SuiteUser>;
  credit(user: SuiteUser, assetId: string, amount: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSecurityApp(
  database: Database,
  /** Extra settings of the app (e.g. the adjustments' two-person limit). */
  settings: Partial<Parameters<typeof buildApp>[0]> = {},
): Promise<SecurityApp> {
  let nowMs = Date.now();
  const now = () => nowMs;
  const running = await startTestEngine(database, now);
  const market = await createMarketModule({
    database,
    now,
    backfillDays: 1,
    tape: new MemoryTapeSink(),
    kernel: running.engine,
  });
  // The local chain, so the deposit endpoints and the test-token faucet are in the matrix too.
  const chain = await LocalChain.start({ faucetKey: generatePrivateKey() });
  const app = await buildApp({
    chain: {
      xpub: HDKey.fromMasterSeed(randomBytes(32)).publicExtendedKey,
      pollMs: 0,
      networks: [
        {
          network: "ethereum",
          adapter: new EvmChainAdapter(localChainId, chain),
          token: chain.token,
          tokenDecimals: 6,
          assetId: "USDT",
          confirmations: 3,
          minimum: "10",
          testChain: true,
        },
      ],
    },
    localChain: chain,
    database,
    now,
    engine: running.engine,
    accounts: accountOpener(running.engine),
    operatorToken,
    captcha: "off",
    passwordCost: 10,
    market,
    // Saved withdrawal addresses are usable at once, so the matrix can make withdrawals.
    withdrawAddressLockMs: 0,
    ...settings,
  });
  let deposits = 0;
  const session = (response: { statusCode: number; body: string; json(): unknown }) => {
    expect(response.statusCode, response.body).toBe(200);
    const data = (response.json() as { data: { token: string; user: { id: string } } }).data;
    return { id: data.user.id, token: data.token };
  };
  return {
    app,
    engine: running.engine,
    tick(ms = 60_000) {
      nowMs += ms;
    },
    now,
    async register(phone) {
      nowMs += 60_000;
      return session(await registerByPhone(app, phone, operatorToken));
    },
    async login(phone) {
      nowMs += 60_000;
      return session(
        await app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          payload: { account: phone, password: "trade1234" },
        }),
      );
    },
    async demo() {
      nowMs += 60_000;
      return session(await app.inject({ method: "POST", url: "/api/v1/auth/demo", payload: {} }));
    },
    async credit(user, assetId, amount) {
      const response = await app.inject({
        method: "POST",
        url: "/api/v1/operator/deposits",
        headers: { authorization: `Bearer ${operatorToken}` },
        payload: {
          id: `suite-${++deposits}`,
          ownerId: user.id,
          assetId,
          amount,
          reference: "suite",
          reason: "security suite funding",
        },
      });
      expect(response.statusCode, response.body).toBe(200);
    },
    async close() {
      await app.close();
      await running.close();
    },
  };
}

/** A concrete path for a Fastify route path: every `:param` filled with `value`. */
export function concretePath(path: string, value = "1"): string {
  return path.replace(/:(\w+)/g, () => value);
}
