import {
  operatorApproveAdjustment,
  operatorDepositEndpoint,
  operatorListAdjustments,
  operatorRejectAdjustment,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { CandorEngine } from "../../engine/kernel-port.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import { AdjustmentsRepository } from "./adjustments.repository.ts";
import { OperatorService, type RealMoneyUsers } from "./operator.service.ts";

/** Options of the operator module. */
export interface OperatorModuleOptions {
  /** The single-writer kernel engine: every operator action is a journaled command. */
  engine: CandorEngine;
  /** Who exists and may receive real money (the auth service). */
  users: RealMoneyUsers;
  database: Database;
  now: () => number;
  /** Asset → whole units above which a manual adjustment needs a second operator (in force now). */
  twoApprovalsAbove: () => Readonly<Record<string, string>>;
}

/**
 * `/api/v1/operator/*` actions that move money: POST /api/v1/operator/deposits (issue 8), and
 * the adjustments above the two-person limit waiting for their second operator (issue 17).
 */
export const operatorModule: FastifyPluginAsync<OperatorModuleOptions> = async (app, options) => {
  const service = new OperatorService(options.engine, options.users, {
    repository: new AdjustmentsRepository(options.database),
    twoApprovalsAbove: options.twoApprovalsAbove,
    now: options.now,
  });
  defineRoute(app, operatorDepositEndpoint, { bodyBytes: 2_048 }, ({ body, request }) => {
    touchesUser(request, body.ownerId);
    const { reason, ...deposit } = body;
    return service.adjust(deposit, operatorIdOf(request), reason);
  });
  defineRoute(app, operatorListAdjustments, {}, ({ query }) =>
    service.listAdjustments(query.status, query.limit),
  );
  defineRoute(
    app,
    operatorApproveAdjustment,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      touchesUser(request, (await service.adjustment(params.adjustmentId)).ownerId);
      return service.approveAdjustment(params.adjustmentId, operatorIdOf(request), body.reason);
    },
  );
  defineRoute(
    app,
    operatorRejectAdjustment,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      touchesUser(request, (await service.adjustment(params.adjustmentId)).ownerId);
      return service.rejectAdjustment(params.adjustmentId, operatorIdOf(request), body.reason);
    },
  );
};
