import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { buildApp } from "../../app.ts";
import { ReadModelProjector } from "../../read-models/projector.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { accountOpener } from "../../engine/submit.ts";
import { startTestEngine } from "./spot.testing.ts";

// Issue 15: an order's acknowledgement waits for its journal batch and the kernel, never for
// the read models. The projector is held back; orders are still acknowledged at once, and
// the order history catches up when it is let go.
describeEachDatabase("spot orders with the projector held back", (database) => {
  let app: FastifyInstance;
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  let token = "";
  let ip = 1;
  const call = (method: "GET" | "POST", url: string, payload?: object) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.2.0.${ip++ % 250}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    running = await startTestEngine(database(), Date.now);
    for (const command of spotSetupCommands(instruments)) await running.engine.submit(command);
    app = await buildApp({
      database: database(),
      passwordCost: 10,
      captcha: "off",
      operatorToken: "operator-token",
      engine: running.engine,
      accounts: accountOpener(running.engine),
    });
    // A phone number is confirmed by a texted code; without an SMS provider it is in the outbox.
    const phone = "+4915100000077";
    await app.inject({
      method: "POST",
      url: "/api/v1/auth/phone-codes",
      payload: { phone, purpose: "register" },
    });
    const outbox = await app.inject({
      method: "GET",
      url: `/api/v1/operator/outbox?to=${encodeURIComponent(phone)}`,
      headers: { authorization: "Bearer operator-token" },
    });
    const phoneCode = /\b(\d{6})\b/.exec(outbox.json().data.emails[0].text)![1];
    const registered = await app.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      payload: {
        account: phone,
        password: "trade1234",
        passwordConfirm: "trade1234",
        phoneCode,
        agreement: true,
      },
    });
    token = registered.json().data.token;
    const credited = await app.inject({
      method: "POST",
      url: "/api/v1/operator/deposits",
      headers: { authorization: "Bearer operator-token" },
      payload: {
        id: "held-deposit",
        reason: "test credit",
        ownerId: registered.json().data.user.id,
        assetId: "USDT",
        amount: "1000",
        reference: "bank-held",
      },
    });
    expect(credited.statusCode).toBe(200);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await app?.close();
    await running?.close();
  });

  it("acknowledges orders while the projector cannot write; history catches up after", async () => {
    await running.projector.flush();
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const write = Reflect.get(ReadModelProjector.prototype, "write") as (
      this: ReadModelProjector,
      ...args: unknown[]
    ) => Promise<void>;
    const spy = vi
      .spyOn(ReadModelProjector.prototype as unknown as { write: typeof write }, "write")
      .mockImplementation(async function (this: ReadModelProjector, ...args: unknown[]) {
        await held;
        return write.apply(this, args);
      });
    const placed: string[] = [];
    try {
      await placeAndCheck(placed, spy);
    } finally {
      letGo();
    }
    await running.projector.flush();
    const after = await call("GET", "/api/v1/spot/orders/history?status=open&limit=50");
    expect(
      after
        .json()
        .data.items.map((o: { orderId: string }) => o.orderId)
        .sort(),
    ).toEqual([...placed].sort());
  });

  async function placeAndCheck(placed: string[], spy: { mock: { calls: unknown[] } }) {
    for (let n = 0; n < 5; n++) {
      const response = await call("POST", "/api/v1/spot/orders", {
        clientOrderId: `held-${n}`.padEnd(8, "0"),
        instrumentId: "BTCUSDT",
        side: "buy",
        type: "limit",
        price: "20000",
        quantity: "0.001",
        ...(n === 0 ? { tradePassword: "trade1234" } : {}),
      });
      expect(response.statusCode, response.body).toBe(200);
      placed.push(response.json().data.order.orderId);
    }
    // The orders are open in the kernel (answered from memory) ...
    const open = await call("GET", "/api/v1/spot/orders/open");
    expect(
      open
        .json()
        .data.items.map((o: { orderId: string }) => o.orderId)
        .sort(),
    ).toEqual([...placed].sort());
    // ... while the read model has none of them: the projector is still held.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(spy.mock.calls.length).toBeGreaterThan(0);
    const before = await call("GET", "/api/v1/spot/orders/history?status=open&limit=50");
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data.items).toEqual([]);
  }

  it("answers history reads 503 with Retry-After until the read models caught up (restart)", async () => {
    let caughtUp = false;
    const restarted = await buildApp({
      database: database(),
      passwordCost: 10,
      captcha: "off",
      engine: running.engine,
      readModelsCaughtUp: () => caughtUp,
    });
    try {
      const get = (url: string) =>
        restarted.inject({
          method: "GET",
          url,
          remoteAddress: "10.3.0.1",
          headers: { authorization: `Bearer ${token}`, "x-lang": "fr" },
        });
      for (const url of [
        "/api/v1/spot/orders/history?limit=10",
        "/api/v1/spot/orders/1",
        "/api/v1/spot/statement",
      ]) {
        const waiting = await get(url);
        expect(waiting.statusCode, url).toBe(503);
        expect(waiting.headers["retry-after"]).toBe("1");
        expect(waiting.json()).toMatchObject({
          error: "service_unavailable",
          message: "Le service est temporairement indisponible",
        });
      }
      // Reads from the kernel's memory are served meanwhile.
      expect((await get("/api/v1/spot/orders/open")).statusCode).toBe(200);
      expect((await get("/api/v1/spot/balances")).statusCode).toBe(200);
      caughtUp = true;
      expect((await get("/api/v1/spot/orders/history?limit=10")).statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
