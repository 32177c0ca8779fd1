import { tapeEndpoint, tapeTickEndpoint } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { TapeRepository } from "./tape.repository.ts";
import { TapeService } from "./tape.service.ts";

/** Options of the tape module. */
export interface TapeModuleOptions {
  database: Database;
}

/** GET /api/v1/tape and /api/v1/tape/tick: the public tape from the read models. */
export const tapeModule: FastifyPluginAsync<TapeModuleOptions> = async (app, options) => {
  const service = new TapeService(new TapeRepository(options.database));
  const perIp = { max: 120, windowMs: 60_000 };
  defineRoute(app, tapeEndpoint, { perIp }, ({ query }) => service.page(query));
  defineRoute(app, tapeTickEndpoint, { perIp }, ({ query }) => service.tick(query));
};
