import type { Command } from "@candor/kernel";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import type { Unstamped } from "../../engine/engine.ts";
import { accountOpener } from "../../engine/submit.ts";
import { parseCountryProductBlocks } from "../../http/country-product-gate.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { startTestEngine } from "../spot/spot.testing.ts";

// Issue 17, product configuration: fees and leverage caps as journaled kernel commands (later
// orders only), per-country product switches in the database (seeded once from
// COUNTRY_PRODUCT_BLOCKS), the limits (limits.routes.test.ts), and every change audited.

describeEachDatabase("product configuration in the back office", (database) => {
  const nowMs = Date.parse("2026-11-27T10:00:00Z");
  const operatorToken = "product-config-operator-token";
  const operator = { authorization: `Bearer ${operatorToken}` };
  let app: FastifyInstance;
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  let spotMarketId = "";
  let ip = 1;

  const call = (
    method: "GET" | "PUT" | "POST",
    url: string,
    options: { headers?: object; payload?: object | string } = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.8.0.${(ip++ % 250) + 1}`,
      headers: { "user-agent": "ProductConfigTest/1.0", ...options.headers },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });

  const build = () =>
    buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken,
      engine: running.engine,
      accounts: accountOpener(running.engine),
      countryProductBlocks: parseCountryProductBlocks("perp:US;seconds:US,GB"),
    });

  beforeAll(async () => {
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) {
      const applied = await running.engine.submit(command as Unstamped<Command>);
      expect(applied.result.ok).toBe(true);
    }
    app = await build();
    const markets = await call("GET", "/api/v1/spot/markets");
    spotMarketId = markets.json().data.items[0].marketId;
  });
  afterAll(async () => {
    await app.close();
    await running.close();
  });

  it("changes a spot market's fees by a journaled command; the market endpoint shows them", async () => {
    const changed = await call("PUT", `/api/v1/operator/spot/markets/${spotMarketId}/fees`, {
      headers: operator,
      payload: { feeBpsMaker: 3, feeBpsTaker: 40, reason: "Fee schedule 2027" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.market).toEqual({
      marketId: spotMarketId,
      feeBpsMaker: 3,
      feeBpsTaker: 40,
    });
    const listed = (await call("GET", "/api/v1/spot/markets")).json().data.items;
    expect(listed.find((m: { marketId: string }) => m.marketId === spotMarketId)).toMatchObject({
      feeBpsMaker: 3,
      feeBpsTaker: 40,
    });
    const terms = await call("GET", "/api/v1/operator/market-terms", { headers: operator });
    expect(terms.json().data.spot).toContainEqual({
      marketId: spotMarketId,
      feeBpsMaker: 3,
      feeBpsTaker: 40,
    });
    const audit = await call("GET", "/api/v1/operator/audit?limit=5", { headers: operator });
    expect(audit.json().data.entries[0]).toMatchObject({
      action: "PUT /api/v1/operator/spot/markets/:marketId/fees",
      reason: "Fee schedule 2027",
    });
    expect(audit.json().data.entries[0].detail).toContain('"feeBpsTaker":40');
  });

  it("changes a perpetual market's fees and leverage cap; the cap cannot exceed the defined one", async () => {
    const changed = await call("PUT", "/api/v1/operator/perp/markets/BTC-PERP/terms", {
      headers: operator,
      payload: { feeBpsMaker: 1, feeBpsTaker: 8, leverageMax: 20, reason: "Regulator cap" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.market).toEqual({
      marketId: "BTC-PERP",
      feeBpsMaker: 1,
      feeBpsTaker: 8,
      leverageMax: 20,
      leverageMaxDefined: 50,
    });
    const listed = (await call("GET", "/api/v1/perp/markets")).json().data.items;
    expect(listed.find((m: { marketId: string }) => m.marketId === "BTC-PERP")).toMatchObject({
      leverageMax: 20,
      feeBpsMaker: 1,
      feeBpsTaker: 8,
    });
    const above = await call("PUT", "/api/v1/operator/perp/markets/BTC-PERP/terms", {
      headers: operator,
      payload: { feeBpsMaker: 1, feeBpsTaker: 8, leverageMax: 51, reason: "too high" },
    });
    expect(above.statusCode).toBe(422);
    expect(above.json().error).toBe("command_rejected");
    const unknown = await call("PUT", "/api/v1/operator/perp/markets/NOPE-PERP/terms", {
      headers: operator,
      payload: { feeBpsMaker: 1, feeBpsTaker: 8, leverageMax: 5, reason: "no such market" },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("refuses malformed, out-of-range, oversized and unauthorised changes", async () => {
    const url = `/api/v1/operator/spot/markets/${spotMarketId}/fees`;
    for (const payload of [
      { feeBpsMaker: -1, feeBpsTaker: 1, reason: "negative" },
      { feeBpsMaker: 1, feeBpsTaker: 101, reason: "above one percent" },
      { feeBpsMaker: 1.5, feeBpsTaker: 1, reason: "over-precise" },
      { feeBpsMaker: "1", feeBpsTaker: 1, reason: "a string" },
      { feeBpsMaker: 1, feeBpsTaker: 1 },
      { feeBpsMaker: 1, feeBpsTaker: 1, reason: "x" },
      { feeBpsMaker: 1, feeBpsTaker: 1, reason: "ok reason", balance: "100" },
    ]) {
      const response = await call("PUT", url, { headers: operator, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const big = await call("PUT", url, {
      headers: { ...operator, "content-type": "application/json" },
      payload: JSON.stringify({ feeBpsMaker: 1, feeBpsTaker: 1, reason: "x".repeat(3_000) }),
    });
    expect(big.statusCode).toBe(413);
    for (const payload of [
      { feeBpsMaker: 1, feeBpsTaker: 1, leverageMax: 0, reason: "zero cap" },
      { feeBpsMaker: 1, feeBpsTaker: 1, leverageMax: 201, reason: "cap too high" },
      { feeBpsMaker: 1, feeBpsTaker: 1, leverageMax: 2.5, reason: "fraction" },
    ]) {
      const response = await call("PUT", "/api/v1/operator/perp/markets/BTC-PERP/terms", {
        headers: operator,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const bad of ["us", "XX", "USA"]) {
      const response = await call("PUT", `/api/v1/operator/country-products/${bad}`, {
        headers: operator,
        payload: { blocked: [], reason: "bad country" },
      });
      expect(response.statusCode, bad).toBe(400);
    }
    for (const payload of [
      { blocked: ["perp", "perp"], reason: "repeated" },
      { blocked: ["forex"], reason: "unknown product" },
    ]) {
      const response = await call("PUT", "/api/v1/operator/country-products/FR", {
        headers: operator,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const headers of [{}, { authorization: "Bearer nope" }]) {
      for (const [method, path] of [
        ["GET", "/api/v1/operator/market-terms"],
        ["GET", "/api/v1/operator/country-products"],
        ["GET", "/api/v1/operator/limits"],
        ["PUT", url],
      ] as const) {
        const response = await call(method, path, {
          headers,
          ...(method === "PUT"
            ? { payload: { feeBpsMaker: 1, feeBpsTaker: 1, reason: "ok" } }
            : {}),
        });
        expect(response.statusCode, `${method} ${path}`).toBe(401);
      }
    }
  });

  it("keeps per-country switches in the database, seeded once, read by the guard and /me/products", async () => {
    const seeded = await call("GET", "/api/v1/operator/country-products", { headers: operator });
    expect(seeded.json().data.countries).toEqual([
      { country: "GB", blocked: ["seconds"] },
      { country: "US", blocked: ["perp", "seconds"] },
    ]);
    const changed = await call("PUT", "/api/v1/operator/country-products/FR", {
      headers: operator,
      payload: { blocked: ["loans", "perp"], reason: "Local licence pending" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toEqual({ country: "FR", blocked: ["perp", "loans"] });
    const cleared = await call("PUT", "/api/v1/operator/country-products/GB", {
      headers: operator,
      payload: { blocked: [], reason: "Licence granted" },
    });
    expect(cleared.statusCode).toBe(200);
    // A user in France sees perpetuals and loans closed; the guard refuses opening.
    const email = "fr@product-config.example";
    await call("POST", "/api/v1/auth/email-codes", { payload: { email, purpose: "register" } });
    const outbox = await call(
      "GET",
      `/api/v1/operator/outbox?to=${encodeURIComponent(email)}&limit=1`,
      { headers: operator },
    );
    const emailCode = /\b(\d{6})\b/.exec(outbox.json().data.emails[0].text)![1]!;
    const registered = await call("POST", "/api/v1/auth/register", {
      payload: {
        account: email,
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode,
        agreement: true,
        country: "FR",
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const token = registered.json().data.token as string;
    const products = await call("GET", "/api/v1/me/products", {
      headers: { authorization: `Bearer ${token}` },
    });
    const closed = products
      .json()
      .data.products.filter((p: { available: boolean }) => !p.available)
      .map((p: { product: string; reason: string }) => [p.product, p.reason]);
    expect(closed).toEqual([
      ["perp", "country"],
      ["loans", "country"],
    ]);
    // A restart reads the table, not the setting: the operator's changes stay.
    await app.close();
    app = await build();
    const after = await call("GET", "/api/v1/operator/country-products", { headers: operator });
    expect(after.json().data.countries).toEqual([
      { country: "FR", blocked: ["perp", "loans"] },
      { country: "US", blocked: ["perp", "seconds"] },
    ]);
    // The operator's search shows the user's country.
    const search = await call("GET", `/api/v1/operator/users?q=${encodeURIComponent(email)}`, {
      headers: operator,
    });
    expect(search.json().data.users[0].country).toBe("FR");
  });

  it("shows the limits the deployment configured", async () => {
    const limits = await call("GET", "/api/v1/operator/limits", { headers: operator });
    expect(limits.statusCode, limits.body).toBe(200);
    expect(limits.json().data).toMatchObject({
      withdrawals: expect.arrayContaining([
        { asset: "USDT", network: "ethereum", minimum: "20", fee: "5" },
      ]),
      withdrawalTwoApprovalsAbove: [{ asset: "USDT", amount: "10000" }],
      withdrawRequiresIdentity: "none",
      withdrawAdvancedAbove: [],
    });
  });

  it("serves the public settings without sign-in: products, languages, the limits users meet", async () => {
    const settings = await call("GET", "/api/v1/settings");
    expect(settings.statusCode, settings.body).toBe(200);
    const data = settings.json().data;
    // The switches as the earlier test left them (FR: perp and loans; GB cleared; US seeded).
    expect(data.products).toEqual([
      { product: "spot", offered: true, closedIn: [] },
      { product: "perp", offered: true, closedIn: ["FR", "US"] },
      { product: "seconds", offered: true, closedIn: ["US"] },
      { product: "stocks", offered: true, closedIn: [] },
      { product: "savings", offered: true, closedIn: [] },
      { product: "loans", offered: true, closedIn: ["FR"] },
    ]);
    expect(data.languages).toHaveLength(12);
    expect(data.withdrawals).toContainEqual({
      asset: "USDT",
      network: "ethereum",
      minimum: "20",
      fee: "5",
    });
    // The back office's internal controls stay private.
    expect(data).not.toHaveProperty("withdrawalTwoApprovalsAbove");
    expect(data).not.toHaveProperty("adjustmentTwoApprovalsAbove");
  });
});
