import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { ok } from "../../http/envelope.ts";
import { HealthRepository } from "./health.repository.ts";
import { HealthService } from "./health.service.ts";

/** Options of the health module. */
export interface HealthModuleOptions {
  database: Database;
  /** Milliseconds since the epoch (default Date.now); uptime counts from registration. */
  now?: () => number;
}

/**
 * GET /api/v1/health for load balancers and monitors. A plain route, not a contract endpoint:
 * probes send what they like, and it is not part of the documented API.
 */
export const healthModule: FastifyPluginAsync<HealthModuleOptions> = async (app, options) => {
  const service = new HealthService(
    new HealthRepository(options.database),
    options.now ?? Date.now,
  );
  app.get("/api/v1/health", async () => ok(await service.health()));
};
