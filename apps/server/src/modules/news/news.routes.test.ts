import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { operatorPayload } from "../../testing/operator-reason.ts";

// News and notice read marks (issue 23) over HTTP: publishing (operator), lists in the reader's
// language, read counts once per user, the unread badge.

describeEachDatabase("news and read marks", (database) => {
  let app: FastifyInstance;
  let nowMs = Date.parse("2026-11-26T12:00:00Z");
  const operatorToken = "operator-token-for-news";
  const operator = { authorization: `Bearer ${operatorToken}` };
  const users: Record<string, string> = {};
  let ip = 1;

  const call = (
    method: "GET" | "POST",
    url: string,
    options: { user?: string; payload?: unknown; headers?: object; lang?: string } = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.3.0.${ip++ % 250}`,
      headers: {
        ...(options.user ? { authorization: `Bearer ${users[options.user]}` } : {}),
        ...(options.lang ? { "x-lang": options.lang } : {}),
        ...options.headers,
      },
      ...operatorPayload(method, url, options.payload),
    });

  beforeAll(async () => {
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken,
    });
    for (const [name, phone] of [
      ["a", "+4915100000031"],
      ["b", "+4915100000032"],
    ] as const) {
      const registered = await registerByPhone(app, phone, operatorToken);
      expect(registered.statusCode, registered.body).toBe(200);
      users[name] = registered.json().data.token;
    }
  });
  afterAll(() => app.close());

  describe("news", () => {
    const ids: string[] = [];

    it("publishes news in several languages (operator only)", async () => {
      for (const [category, symbol, title] of [
        ["platform", null, "Candor 0.1"],
        ["stocks", "AAPL", "Apple results"],
        ["crypto", "BTCUSDT", "Bitcoin moves"],
      ] as const) {
        const response = await call("POST", "/api/v1/operator/news", {
          headers: operator,
          payload: {
            category,
            symbol,
            texts: {
              en: { title, body: `${title}: the body.` },
              de: { title: `${title} (de)`, body: "Der Text." },
            },
          },
        });
        expect(response.statusCode, response.body).toBe(200);
        ids.push(response.json().data.id);
        nowMs += 1_000;
      }
      // Scheduled for later: hidden until then.
      const later = await call("POST", "/api/v1/operator/news", {
        headers: operator,
        payload: {
          category: "market",
          publishAtMs: nowMs + 3_600_000,
          texts: { en: { title: "Later", body: "Not yet." } },
        },
      });
      expect(later.statusCode, later.body).toBe(200);
      ids.push(later.json().data.id);
    });

    it("lists published news newest first, in the reader's language, by category and symbol", async () => {
      const de = (await call("GET", "/api/v1/news", { lang: "de" })).json().data;
      expect(de.total).toBe(3);
      expect(de.items.map((n: { title: string }) => n.title)).toEqual([
        "Bitcoin moves (de)",
        "Apple results (de)",
        "Candor 0.1 (de)",
      ]);
      const sv = (await call("GET", "/api/v1/news?category=stocks", { lang: "sv" })).json().data;
      expect(sv.items).toHaveLength(1);
      expect(sv.items[0]).toMatchObject({ locale: "en", title: "Apple results", symbol: "AAPL" });
      const bySymbol = (await call("GET", "/api/v1/news?symbol=BTCUSDT")).json().data;
      expect(bySymbol.items.map((n: { id: string }) => n.id)).toEqual([ids[2]]);
      expect((await call("GET", `/api/v1/news/${ids[3]}`)).statusCode).toBe(404);
    });

    it("counts each signed-in reader once", async () => {
      const url = `/api/v1/news/${ids[0]}/read`;
      expect((await call("POST", url, { user: "a" })).json().data).toEqual({ readCount: 1 });
      expect((await call("POST", url, { user: "a" })).json().data).toEqual({ readCount: 1 });
      expect((await call("POST", url, { user: "b" })).json().data).toEqual({ readCount: 2 });
      expect((await call("GET", `/api/v1/news/${ids[0]}`)).json().data.readCount).toBe(2);
      expect((await call("POST", `/api/v1/news/${ids[3]}/read`, { user: "a" })).statusCode).toBe(
        404,
      );
      expect((await call("POST", url)).statusCode).toBe(401);
    });

    it.each([
      ["an unknown category", { category: "gossip" }],
      ["no English text", { texts: { de: { title: "x", body: "y" } } }],
      [
        "an unknown language",
        { texts: { en: { title: "x", body: "y" }, xx: { title: "x", body: "y" } } },
      ],
      ["an oversized title", { texts: { en: { title: "t".repeat(201), body: "y" } } }],
      ["an empty body", { texts: { en: { title: "x", body: " " } } }],
      ["a negative time", { publishAtMs: -1 }],
      ["a fractional time", { publishAtMs: 1.5 }],
      ["a bad symbol", { symbol: "../etc" }],
    ])("refuses %s, in the operator's language", async (_name, change) => {
      const response = await call("POST", "/api/v1/operator/news", {
        headers: operator,
        lang: "fr",
        payload: {
          category: "market",
          symbol: null,
          texts: { en: { title: "x", body: "y" } },
          ...change,
        },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe("validation_failed");
    });

    it("refuses publishing to users, anonymous callers and a wrong token", async () => {
      const payload = { category: "market", texts: { en: { title: "x", body: "y" } } };
      expect((await call("POST", "/api/v1/operator/news", { payload })).statusCode).toBe(401);
      expect((await call("POST", "/api/v1/operator/news", { payload, user: "a" })).statusCode).toBe(
        401,
      );
      const wrong = { authorization: "Bearer wrong" };
      expect(
        (await call("POST", "/api/v1/operator/news", { payload, headers: wrong })).statusCode,
      ).toBe(401);
      expect((await call("GET", "/api/v1/news?limit=0")).statusCode).toBe(400);
      expect((await call("GET", "/api/v1/news/-1")).statusCode).toBe(400);
    });
  });

  describe("notice read marks", () => {
    it("counts unread notices per user and marks them read once", async () => {
      const before = (await call("GET", "/api/v1/notices/unread", { user: "a" })).json().data;
      expect(before).toEqual({ count: 1, ids: ["1"] });
      const published = await call("POST", "/api/v1/operator/notices", {
        headers: operator,
        payload: { texts: { en: { title: "Upgrade", body: "Tonight." } } },
      });
      expect(published.statusCode, published.body).toBe(200);
      const id = published.json().data.id;
      const a = (await call("GET", "/api/v1/notices/unread", { user: "a" })).json().data;
      expect(a).toEqual({ count: 2, ids: [id, "1"] });
      const read = await call("POST", `/api/v1/notices/${id}/read`, { user: "a" });
      expect(read.json().data).toEqual({ count: 1, ids: ["1"] });
      expect((await call("POST", `/api/v1/notices/${id}/read`, { user: "a" })).json().data).toEqual(
        { count: 1, ids: ["1"] },
      );
      // b's marks are b's own.
      expect((await call("GET", "/api/v1/notices/unread", { user: "b" })).json().data.count).toBe(
        2,
      );
      // The new notice is listed for everyone, in every language (English fallback).
      const list = (await call("GET", "/api/v1/notices", { lang: "it" })).json().data;
      expect(list.items[0]).toMatchObject({ id, title: "Upgrade", locale: "en" });
    });

    it("refuses unknown notices, anonymous readers and bad ids", async () => {
      expect((await call("POST", "/api/v1/notices/999/read", { user: "a" })).statusCode).toBe(404);
      expect((await call("GET", "/api/v1/notices/unread")).statusCode).toBe(401);
      expect((await call("POST", "/api/v1/notices/0/read", { user: "a" })).statusCode).toBe(400);
      const forbidden = await call("POST", "/api/v1/operator/notices", {
        user: "a",
        payload: { texts: { en: { title: "x", body: "y" } } },
      });
      expect(forbidden.statusCode).toBe(401);
    });
  });
});
