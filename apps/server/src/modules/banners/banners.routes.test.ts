import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";

// Issue 17, back-office content: home-page banners with a language and a time window.

describeEachDatabase("banners", (database) => {
  let app: FastifyInstance;
  let nowMs = Date.parse("2026-11-27T10:00:00Z");
  const operatorToken = "banners-operator-token-0123";
  const operator = { authorization: `Bearer ${operatorToken}` };
  beforeAll(async () => {
    app = await buildApp({ database: database(), now: () => nowMs, operatorToken });
  });
  afterAll(() => app.close());

  const publish = (payload: object) =>
    app.inject({ method: "POST", url: "/api/v1/operator/banners", headers: operator, payload });
  const shown = async (lang: string) =>
    (await app.inject({ method: "GET", url: "/api/v1/banners", headers: { "x-lang": lang } }))
      .json()
      .data.items.map((b: { title: string }) => b.title);

  it("shows banners in their language and window, newest first, until withdrawn", async () => {
    const hour = 3_600_000;
    const everyone = await publish({
      title: "Savings: 30-day plan open",
      link: "#/savings",
      locale: null,
      endsAtMs: nowMs + hour,
      reason: "Campaign November",
    });
    expect(everyone.statusCode, everyone.body).toBe(200);
    expect(everyone.json().data.banner).toMatchObject({ locale: null, startsAtMs: nowMs });
    const german = await publish({
      title: "Neu: Aktien",
      link: "https://example.com/aktien",
      locale: "de",
      startsAtMs: nowMs + 1,
      endsAtMs: null,
      reason: "German launch",
    });
    expect(german.statusCode, german.body).toBe(200);
    expect(await shown("de")).toEqual(["Savings: 30-day plan open"]);
    nowMs += 10;
    expect(await shown("de")).toEqual(["Neu: Aktien", "Savings: 30-day plan open"]);
    expect(await shown("fr")).toEqual(["Savings: 30-day plan open"]);
    nowMs += hour;
    expect(await shown("de")).toEqual(["Neu: Aktien"]);
    const id = german.json().data.banner.id;
    const withdrawn = await app.inject({
      method: "POST",
      url: `/api/v1/operator/banners/${id}/withdraw`,
      headers: operator,
      payload: { reason: "Launch postponed" },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await shown("de")).toEqual([]);
    const listed = await app.inject({
      method: "GET",
      url: "/api/v1/operator/banners",
      headers: operator,
    });
    expect(listed.json().data.items).toHaveLength(2);
    const audit = await app.inject({
      method: "GET",
      url: "/api/v1/operator/audit?limit=1",
      headers: operator,
    });
    expect(audit.json().data.entries[0]).toMatchObject({
      action: "POST /api/v1/operator/banners/:bannerId/withdraw",
      reason: "Launch postponed",
    });
  });

  it("refuses unsafe links, bad windows, oversized and unauthorised requests", async () => {
    const base = { title: "Hello", link: null, locale: null, endsAtMs: null, reason: "testing" };
    for (const payload of [
      { ...base, link: "javascript:alert(1)" },
      { ...base, link: "http://example.com" },
      { ...base, link: '#/x" onmouseover="y' },
      { ...base, title: "" },
      { ...base, title: "x".repeat(121) },
      { ...base, locale: "xx" },
      { ...base, startsAtMs: nowMs, endsAtMs: nowMs },
      { ...base, endsAtMs: -1 },
      { ...base, startsAtMs: 1.5 },
      { ...base, reason: "" },
      { ...base, extra: true },
    ]) {
      const response = await publish(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const past = await publish({ ...base, endsAtMs: nowMs - 1 });
    expect(past.statusCode).toBe(400);
    const big = await app.inject({
      method: "POST",
      url: "/api/v1/operator/banners",
      headers: { ...operator, "content-type": "application/json" },
      payload: JSON.stringify({ ...base, reason: "x".repeat(5_000) }),
    });
    expect(big.statusCode).toBe(413);
    for (const headers of [{}, { authorization: "Bearer nope" }]) {
      const response = await app.inject({
        method: "POST",
        url: "/api/v1/operator/banners",
        headers,
        payload: base,
      });
      expect(response.statusCode).toBe(401);
    }
    for (const id of ["0", "-1", "abc", "1".repeat(20)]) {
      const response = await app.inject({
        method: "POST",
        url: `/api/v1/operator/banners/${id}/withdraw`,
        headers: operator,
        payload: { reason: "testing" },
      });
      expect(response.statusCode, id).toBe(400);
    }
    const missing = await app.inject({
      method: "POST",
      url: "/api/v1/operator/banners/999999/withdraw",
      headers: operator,
      payload: { reason: "testing" },
    });
    expect(missing.statusCode).toBe(404);
  });
});
