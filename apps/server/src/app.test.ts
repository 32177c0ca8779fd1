import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { describeEachDatabase } from "./testing/databases.ts";

describeEachDatabase("app", (database) => {
  let app: FastifyInstance;
  let nowMs = 1_000_000;
  beforeAll(async () => {
    await database().db.insertInto("server_starts").values({ version: "test" }).execute();
    app = await buildApp({ database: database(), now: () => nowMs });
  });
  afterAll(() => app.close());

  it("answers health in the envelope with version, uptime and database kind", async () => {
    nowMs += 61_500;
    const response = await app.inject({ method: "GET", url: "/api/v1/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      code: 200,
      message: "OK",
      data: {
        status: "ok",
        version: "0.1.0",
        uptimeSeconds: 61,
        database: database().kind,
        starts: 1,
      },
    });
  });

  it("answers unknown paths with a localised not_found envelope", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/v1/nope",
      headers: { "accept-language": "fr-CH,fr;q=0.9,en;q=0.5" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 404,
      message: "Introuvable",
      data: null,
      error: "not_found",
    });
  });

  it("prefers X-Lang over Accept-Language", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/v1/nope",
      headers: { "accept-language": "fr", "x-lang": "jp" },
    });
    expect(response.json().message).toBe("見つかりません");
  });
});
