import type { Command, KernelState } from "@candor/kernel";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { buildApp, type AppDeps } from "../app.ts";
import type { Database } from "../db/database.ts";
import type { Unstamped } from "../engine/engine.ts";
import { accountOpener } from "../engine/submit.ts";
import { spotSetupCommands } from "../modules/market/spot-markets.ts";
import { startTestEngine } from "../modules/spot/spot.testing.ts";
import { operatorPayload } from "./operator-reason.ts";
import { registerByPhone } from "./register-phone.ts";

/** The operator token route tests give the app unless they name their own. */
export const testOperatorToken = "operator-token";

/** A signed-in test user: the session token and the user id. */
export interface TestUser {
  token: string;
  id: string;
}

export interface CallOptions {
  /** Signs the call in as this user of `kit.users`. */
  user?: string;
  /** Signs the call in with this session token. */
  token?: string;
  payload?: unknown;
  /** Sent as `x-lang`. */
  lang?: string;
  headers?: object;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The scaffolding of a route test, made once per suite (inside `describeEachDatabase`) and
 * started in its `beforeAll`: the real engine with the spot markets set up (`startEngine`),
 * the app over it (`startApp`), HTTP calls from a fresh address each time so that rate limits
 * by address stay out of the way (`call`, which adds an operator reason to a mutating operator
 * call that has none), tape ticks (`recordTick`), users signed up by phone or as demo users (`signUp`, `signInDemo`,
 * kept in `users`), and an operator's deposit (`deposit`). `close` in `afterAll`.
 *
 * `subnet` is the first three parts of the callers' addresses, e.g. "10.2.0".
 */
export function routeTest<U extends string = string>(
  subnet: string,
  operatorToken = testOperatorToken,
) {
  let app: FastifyInstance | undefined;
  let running: Awaited<ReturnType<typeof startTestEngine>> | undefined;
  let ip = 1;
  let ticks = 0;
  let clientOrders = 0;
  const users = {} as Record<U, TestUser>;

  const kit = {
    operatorToken,
    /** The operator's authorization header. */
    operator: { authorization: `Bearer ${operatorToken}` },
    users,
    get app(): FastifyInstance {
      if (!app) throw new Error("routeTest: the app has not been started");
      return app;
    },
    get running() {
      if (!running) throw new Error("routeTest: the engine has not been started");
      return running;
    },
    /** The last part of the next caller's address (shared by every subnet of the suite). */
    nextIp: () => ip++ % 250,
    /** Submits a command to the engine and expects it to apply. */
    submit: async (command: Unstamped<Command>) => {
      const applied = await kit.running.engine.submit(command);
      expect(applied.result.ok, `${command.id}: ${JSON.stringify(applied.result)}`).toBe(true);
      return applied;
    },
    query: <T>(fn: (s: KernelState) => T) => kit.running.engine.query(fn),
    /**
     * Records a tape tick (`tick:N` its command id, `tickIdOf(N)` its tick id, N counting the
     * suite's ticks) and answers the tick id.
     */
    recordTick: async (
      instrumentId: string,
      price: string,
      tickAtMs: number,
      tickIdOf: (n: number) => string = (n) => `t${n}`,
    ) => {
      const n = ++ticks;
      const tickId = tickIdOf(n);
      await kit.submit({
        type: "record_tick",
        id: `tick:${n}`,
        tickId,
        instrumentId,
        price,
        tickAtMs,
      });
      return tickId;
    },
    /** Starts the real engine and sets up the spot markets. */
    startEngine: async (database: Database, now: () => number) => {
      running = await startTestEngine(database, now);
      for (const command of spotSetupCommands(instruments)) await kit.submit(command);
      return running;
    },
    /**
     * Builds the app: a fast password hash, no captcha, the suite's operator token and, once the
     * engine runs, the engine and its account opener; `deps` adds to or replaces these.
     */
    startApp: async (database: Database, deps: Partial<AppDeps> = {}) => {
      app = await buildApp({
        database,
        passwordCost: 10,
        captcha: "off",
        operatorToken,
        ...(running ? { engine: running.engine, accounts: accountOpener(running.engine) } : {}),
        ...deps,
      } as AppDeps);
      return app;
    },
    call: (method: HttpMethod, url: string, options: CallOptions = {}) => {
      const token = options.user ? users[options.user as U].token : options.token;
      return kit.app.inject({
        method,
        url,
        remoteAddress: `${subnet}.${kit.nextIp()}`,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(options.lang ? { "x-lang": options.lang } : {}),
          ...options.headers,
        },
        ...operatorPayload(method, url, options.payload),
      });
    },
    /**
     * Registers a user by phone (as a person would), with an inviter's code if given, and keeps
     * it in `users` under `name`.
     */
    signUp: async (name: U, phone: string, inviteCode?: string) => {
      const registered = await registerByPhone(kit.app, phone, operatorToken, { inviteCode });
      expect(registered.statusCode, registered.body).toBe(200);
      const data = registered.json().data;
      const user: TestUser = { token: data.token, id: data.user.id };
      users[name] = user;
      return user;
    },
    /** The user's own invitation code (`GET /api/v1/invitations/me`). */
    inviteCode: async (name: U): Promise<string> => {
      const me = await kit.call("GET", "/api/v1/invitations/me", { token: users[name].token });
      expect(me.statusCode, me.body).toBe(200);
      return me.json().data.inviteCode;
    },
    /**
     * Places a limit order over HTTP (BTCUSDT at 30,000 for 0.01 unless told otherwise) with the
     * suite's next client order id; answers the response.
     */
    placeSpot: (
      name: U,
      side: "buy" | "sell",
      order: { instrumentId?: string; price?: string; quantity?: string } = {},
    ) =>
      kit.call("POST", "/api/v1/spot/orders", {
        token: users[name].token,
        payload: {
          clientOrderId: `client-${String(++clientOrders).padStart(6, "0")}`,
          instrumentId: order.instrumentId ?? "BTCUSDT",
          side,
          type: "limit",
          price: order.price ?? "30000",
          quantity: order.quantity ?? "0.01",
          tradePassword: "trade1234",
        },
      }),
    /** Starts a demo session and keeps its user in `users` under `name`. */
    signInDemo: async (name: U) => {
      const demo = await kit.call("POST", "/api/v1/auth/demo", { payload: {} });
      const user: TestUser = { token: demo.json().data.token, id: demo.json().data.user.id };
      users[name] = user;
      return user;
    },
    /** Credits a real deposit through the operator's endpoint and expects it to succeed. */
    deposit: async (deposit: {
      id: string;
      ownerId: string;
      assetId: string;
      amount: string;
      reference: string;
      reason?: string;
    }) => {
      const credited = await kit.call("POST", "/api/v1/operator/deposits", {
        headers: kit.operator,
        payload: deposit,
      });
      expect(credited.statusCode, credited.body).toBe(200);
      return credited;
    },
    /**
     * Credits each `[user, asset, amount]` through the operator's endpoint, with the id
     * `deposit-<user>-<asset>` and the reference `bank-<user>-<asset>`.
     */
    depositEach: async (
      credits: readonly (readonly [U, string, string])[],
      options: { reason?: string } = {},
    ) => {
      for (const [name, assetId, amount] of credits) {
        const user: TestUser | undefined = users[name];
        if (!user) throw new Error(`routeTest: no user ${name}`);
        await kit.deposit({
          id: `deposit-${name}-${assetId}`,
          ownerId: user.id,
          assetId,
          amount,
          reference: `bank-${name}-${assetId}`,
          ...options,
        });
      }
    },
    close: async () => {
      await app?.close();
      await running?.close();
    },
  };
  return kit;
}
