import { operatorDepositEndpoint } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { CandorEngine } from "../../engine/kernel-port.ts";
import { defineRoute } from "../../http/define-route.ts";
import { OperatorService, type RealMoneyUsers } from "./operator.service.ts";

/** Options of the operator module. */
export interface OperatorModuleOptions {
  /** The single-writer kernel engine: every operator action is a journaled command. */
  engine: CandorEngine;
  /** Who exists and may receive real money (the auth service). */
  users: RealMoneyUsers;
}

/** `/api/v1/operator/*` actions that move money: POST /api/v1/operator/deposits (issue 8). */
export const operatorModule: FastifyPluginAsync<OperatorModuleOptions> = async (app, options) => {
  const service = new OperatorService(options.engine, options.users);
  defineRoute(app, operatorDepositEndpoint, { bodyBytes: 2_048 }, ({ body }) =>
    service.deposit(body),
  );
};
