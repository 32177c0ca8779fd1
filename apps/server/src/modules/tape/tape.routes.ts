import { tapeEndpoint } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { TapeRepository } from "./tape.repository.ts";
import { TapeService } from "./tape.service.ts";

/** Options of the tape module. */
export interface TapeModuleOptions {
  database: Database;
}

/** GET /api/v1/tape: the public tape from the read models, by journal sequence. */
export const tapeModule: FastifyPluginAsync<TapeModuleOptions> = async (app, options) => {
  const service = new TapeService(new TapeRepository(options.database));
  defineRoute(app, tapeEndpoint, { perIp: { max: 120, windowMs: 60_000 } }, ({ query }) =>
    service.page(query),
  );
};
