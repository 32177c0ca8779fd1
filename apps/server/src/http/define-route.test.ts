import { decimalString, defineEndpoint } from "@candor/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../app.ts";
import { openTestDatabase } from "../testing/databases.ts";
import type { Database } from "../db/database.ts";
import { defineRoute } from "./define-route.ts";

const echo = defineEndpoint({
  method: "POST",
  path: "/api/v1/test/echo",
  summary: "Echoes an amount",
  tag: "test",
  auth: "none",
  body: z.object({ amount: decimalString(2, { positive: true }), note: z.string().max(5) }),
  response: z.object({ amount: z.string() }),
});
const list = defineEndpoint({
  method: "GET",
  path: "/api/v1/test/items/:itemId",
  summary: "Reads one item",
  tag: "test",
  auth: "none",
  params: z.object({ itemId: z.string().regex(/^\d{1,9}$/) }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  response: z.object({ itemId: z.string(), limit: z.number() }),
});
const secret = defineEndpoint({
  method: "GET",
  path: "/api/v1/test/secret",
  summary: "Needs a user",
  tag: "test",
  auth: "user",
  response: z.object({}),
});
const operatorOnly = defineEndpoint({
  method: "GET",
  path: "/api/v1/test/operator",
  summary: "Needs the operator",
  tag: "test",
  auth: "operator",
  response: z.object({ ok: z.boolean() }),
});

describe("defineRoute", () => {
  let app: FastifyInstance;
  let database: Database;
  let nowMs = 5_000_000;
  beforeAll(async () => {
    database = await openTestDatabase("pglite", "unused");
    app = await buildApp({ database, now: () => nowMs, operatorToken: "op-secret-token-1234" });
    defineRoute(
      app,
      echo,
      { bodyBytes: 200, perIp: { max: 30, windowMs: 60_000 } },
      ({ body }) => ({
        amount: body.amount,
      }),
    );
    defineRoute(app, list, {}, ({ params, query }) => ({
      itemId: params.itemId,
      limit: query.limit,
    }));
    defineRoute(app, secret, {}, () => ({}));
    defineRoute(app, operatorOnly, {}, () => ({ ok: true }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: "POST", url: echo.path, payload: payload as object, headers });

  it("accepts a valid body and wraps the result in the envelope", async () => {
    const response = await post({ amount: "12.34", note: "hi" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: 200, message: "OK", data: { amount: "12.34" } });
  });

  it.each([
    ["over-precise", { amount: "1.234", note: "x" }, "body.amount", "At most 2 decimal places"],
    ["negative", { amount: "-1", note: "x" }, "body.amount", "Enter a number such as 12.5"],
    ["zero", { amount: "0.00", note: "x" }, "body.amount", "Must be greater than zero"],
    ["wrong type", { amount: 5, note: "x" }, "body.amount", /string/],
    ["over-long", { amount: "1", note: "toolong" }, "body.note", /5/],
    ["unknown field", { amount: "1", note: "x", admin: true }, "body", /admin/],
    ["missing field", { note: "x" }, "body.amount", /string/],
  ])("rejects %s input with field details", async (_, payload, path, message) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    const json = response.json();
    expect(json).toMatchObject({ code: 400, error: "validation_failed", data: null });
    const issue = json.issues.find((i: { path: string }) => i.path === path);
    expect(issue?.message).toMatch(message);
  });

  it("says what is wrong in the requested language", async () => {
    const over = { amount: "1.234", note: "x" };
    const de = (await post(over, { "accept-language": "de-DE" })).json();
    expect(de.message).toBe("Einige Felder sind ungültig");
    expect(de.issues[0].message).toBe("Höchstens 2 Nachkommastellen");
    const jp = (await post(over, { "x-lang": "jp" })).json();
    expect(jp.issues[0].message).toBe("小数点以下は最大 2 桁です");
    const ru = (
      await app.inject({ method: "POST", url: `${echo.path}?lang=ru`, payload: { amount: 1 } })
    ).json();
    expect(ru.issues.find((i: { path: string }) => i.path === "body.note").message).toMatch(
      /[а-я]/,
    );
  });

  it("rejects malformed JSON and oversized bodies", async () => {
    const malformed = await app.inject({
      method: "POST",
      url: echo.path,
      payload: '{"amount": ',
      headers: { "content-type": "application/json", "x-lang": "fr" },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe("malformed_json");
    const big = await post({ amount: "1", note: "x".repeat(500) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe("payload_too_large");
  });

  it("validates path and query, with defaults, and ignores ?lang", async () => {
    const good = await app.inject({ method: "GET", url: "/api/v1/test/items/42?lang=de" });
    expect(good.json().data).toEqual({ itemId: "42", limit: 20 });
    const bad = await app.inject({ method: "GET", url: "/api/v1/test/items/x?limit=1000" });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["params.itemId", "query.limit"]);
    const extra = await app.inject({ method: "GET", url: "/api/v1/test/items/1?debug=1" });
    expect(extra.statusCode).toBe(400);
  });

  it("requires a session for user endpoints and the token for operator endpoints", async () => {
    const anonymous = await app.inject({
      method: "GET",
      url: secret.path,
      headers: { "x-lang": "kr" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({
      error: "unauthorized",
      message: "먼저 로그인해 주세요",
    });
    const forged = await app.inject({
      method: "GET",
      url: secret.path,
      headers: { authorization: "Bearer not-a-session" },
    });
    expect(forged.statusCode).toBe(401);
    const wrongOperator = await app.inject({
      method: "GET",
      url: operatorOnly.path,
      headers: { authorization: "Bearer op-secret-token-1235" },
    });
    expect(wrongOperator.statusCode).toBe(401);
    const operator = await app.inject({
      method: "GET",
      url: operatorOnly.path,
      headers: { authorization: "Bearer op-secret-token-1234" },
    });
    expect(operator.json().data).toEqual({ ok: true });
  });

  it("rate-limits per IP with a localised 429", async () => {
    nowMs += 120_000;
    let last = await post({ amount: "1", note: "x" });
    for (let i = 0; i < 30; i++) last = await post({ amount: "1", note: "x" }, { "x-lang": "es" });
    expect(last.statusCode).toBe(429);
    expect(last.json().error).toBe("rate_limited");
    expect(last.json().message).toMatch(/solicitudes/);
    nowMs += 60_000;
    expect((await post({ amount: "1", note: "x" })).statusCode).toBe(200);
  });

  it("serves the OpenAPI document and a docs page listing every endpoint", async () => {
    const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v1/test/echo", "/api/v1/test/items/{itemId}"]),
    );
    expect(document.paths["/api/v1/test/items/{itemId}"].get.parameters[0]).toMatchObject({
      name: "itemId",
      in: "path",
    });
    const page = await app.inject({ method: "GET", url: "/api/docs" });
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("/api/v1/test/echo");
    expect(page.body).not.toMatch(/<script|https?:\/\/(?!localhost)/);
  });
});
