import { locales } from "@candor/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";

describeEachDatabase("notices", (database) => {
  let app: FastifyInstance;
  const nowMs = Date.parse("2026-06-01T00:00:00Z");
  beforeAll(async () => {
    app = await buildApp({ database: database(), now: () => nowMs });
    // A second notice, in English only, and a future one that must stay hidden.
    const [later, future] = await database()
      .db.insertInto("notices")
      .values([
        { published_at: new Date("2026-03-01T00:00:00Z") },
        { published_at: new Date("2027-01-01T00:00:00Z") },
      ])
      .returning("id")
      .execute();
    await database()
      .db.insertInto("notice_texts")
      .values([
        { notice_id: later!.id, locale: "en", title: "Maintenance", body: "Sunday 02:00 UTC." },
        { notice_id: future!.id, locale: "en", title: "Future", body: "Not yet." },
      ])
      .execute();
  });
  afterAll(() => app.close());

  const get = (url: string, lang?: string) =>
    app.inject({ method: "GET", url, headers: lang ? { "x-lang": lang } : {} });

  it("lists published notices, newest first, in the requested language", async () => {
    const response = await get("/api/v1/notices", "de");
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.total).toBe(2);
    expect(data.items.map((n: { title: string }) => n.title)).toEqual([
      "Maintenance",
      "Willkommen bei Candor",
    ]);
    expect(data.items[0].locale).toBe("en");
    expect(data.items[1]).toMatchObject({ id: "1", locale: "de" });
    expect(data.items[1].publishedAtMs).toBe(Date.parse("2026-01-01T00:00:00Z"));
  });

  it("has the welcome notice in all 12 languages, each its own text", async () => {
    const titles = new Set<string>();
    for (const locale of locales) {
      const { data } = (await get("/api/v1/notices/1", locale)).json();
      expect(data.locale).toBe(locale);
      titles.add(data.title);
    }
    expect(titles.size).toBe(12);
  });

  it("pages with limit and offset", async () => {
    const { data } = (await get("/api/v1/notices?limit=1&offset=1")).json();
    expect(data.items).toHaveLength(1);
    expect(data.items[0].title).toBe("Welcome to Candor");
    expect(data.total).toBe(2);
  });

  it.each([
    ["/api/v1/notices?limit=0", "zero limit"],
    ["/api/v1/notices?limit=51", "oversized limit"],
    ["/api/v1/notices?limit=-1", "negative limit"],
    ["/api/v1/notices?limit=1.5", "fractional limit"],
    ["/api/v1/notices?offset=abc", "non-numeric offset"],
    ["/api/v1/notices?extra=1", "unknown field"],
    ["/api/v1/notices/0", "zero id"],
    ["/api/v1/notices/-1", "negative id"],
    ["/api/v1/notices/1.0", "over-precise id"],
    [`/api/v1/notices/${"9".repeat(40)}`, "oversized id"],
  ])("rejects %s (%s) with a localised 400", async (url) => {
    const response = await get(url, "fr");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, error: "validation_failed" });
    expect(response.json().message).not.toBe("Validation failed");
  });

  it("answers a missing or unpublished notice with a localised 404", async () => {
    for (const url of ["/api/v1/notices/999", "/api/v1/notices/3"]) {
      const response = await get(url, "es");
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe("not_found");
    }
  });

  it("needs no sign-in and ignores a bad token (notices are public)", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/v1/notices",
      headers: { authorization: "Bearer nonsense" },
    });
    expect(response.statusCode).toBe(200);
  });
});
