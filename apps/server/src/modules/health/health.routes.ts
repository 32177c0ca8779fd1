import type { Health } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { AppDeps } from "../../app.ts";
import { ok } from "../../http/envelope.ts";
import { version } from "../../version.ts";

export const healthRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const now = deps.now ?? Date.now;
  const startedAtMs = now();
  app.get("/health", async () => {
    const row = await deps.database.db
      .selectFrom("server_starts")
      .select((eb) => eb.fn.countAll<string>().as("starts"))
      .executeTakeFirstOrThrow();
    const health: Health = {
      status: "ok",
      version,
      uptimeSeconds: Math.floor((now() - startedAtMs) / 1000),
      database: deps.database.kind,
      starts: Number(row.starts),
    };
    return ok(health);
  });
};
