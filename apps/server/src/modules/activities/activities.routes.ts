import {
  defineActivity,
  fundPromotion,
  listActivities,
  operatorListActivities,
  reserveActivity,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { ActivitiesService } from "./activities.service.ts";

/** Options of the activities module. */
export interface ActivitiesModuleOptions {
  /** The engine; without it no activities are listed and none can be reserved. */
  engine?: EngineSubmitQuery;
  now?: () => number;
}

/** Deposit-bonus activities: my list and reservations; the operator's definitions and funding. */
export const activitiesModule: FastifyPluginAsync<ActivitiesModuleOptions> = async (
  app,
  options,
) => {
  const service = new ActivitiesService(options.engine, options.now ?? Date.now);

  defineRoute(app, listActivities, { perUser: { max: 60, windowMs: 60_000 } }, ({ user }) =>
    service.list(String(user.id), user.mode),
  );

  defineRoute(
    app,
    reserveActivity,
    { bodyBytes: 1_024, perUser: { max: 20, windowMs: 60_000 } },
    ({ body, user }) => service.reserve(String(user.id), user.mode, body),
  );

  defineRoute(app, operatorListActivities, {}, () => service.operatorList());

  defineRoute(app, defineActivity, { bodyBytes: 2_048 }, ({ body, request }) =>
    service.define(body, operatorIdOf(request)),
  );

  defineRoute(app, fundPromotion, { bodyBytes: 2_048 }, ({ body, request }) =>
    service.fund(body, operatorIdOf(request)),
  );
};
