import {
  configureAgentLevel,
  myAgentHistory,
  myAgentInfo,
  myAgentTeam,
  operatorAgentLevels,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { defineRoute } from "../../http/define-route.ts";
import { AgentsRepository } from "./agents.repository.ts";
import { AgentsService } from "./agents.service.ts";

/** Options of the agents module. */
export interface AgentsModuleOptions {
  database: Database;
  /** The engine; without it no level is shown and none can be set. */
  engine?: EngineSubmitQuery;
  now?: () => number;
}

/** The signed-in user's agent level, team and history; the operator's level configuration. */
export const agentsModule: FastifyPluginAsync<AgentsModuleOptions> = async (app, options) => {
  const service = new AgentsService(
    new AgentsRepository(options.database),
    options.engine,
    options.now ?? Date.now,
  );
  const perUser = { perUser: { max: 60, windowMs: 60_000 } };

  defineRoute(app, myAgentInfo, perUser, ({ user }) => service.me(user.id, user.mode));
  defineRoute(app, myAgentTeam, perUser, ({ query, user }) =>
    service.team(user.id, user.mode, query.limit),
  );
  defineRoute(app, myAgentHistory, perUser, ({ user }) => service.history(user.id, user.mode));
  defineRoute(app, operatorAgentLevels, {}, () => service.operatorLevels());
  defineRoute(app, configureAgentLevel, { bodyBytes: 1_024 }, ({ body, request }) =>
    service.configure(body, request.operatorAccount?.id ?? null),
  );
};
