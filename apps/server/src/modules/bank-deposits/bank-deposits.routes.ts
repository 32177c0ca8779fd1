import {
  bankDepositOptionsEndpoint,
  createBankDepositEndpoint,
  listBankDepositsEndpoint,
  operatorCreditBankDepositEndpoint,
  operatorListBankDepositsEndpoint,
  operatorRejectBankDepositEndpoint,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import { BankDepositsService, type BankDepositsOptions } from "./bank-deposits.service.ts";

/** `/api/v1/bank-deposits` for users and `/api/v1/operator/bank-deposits` for the operator. */
export const bankDepositsModule: FastifyPluginAsync<BankDepositsOptions> = async (app, options) => {
  const service = new BankDepositsService(options);
  defineRoute(app, bankDepositOptionsEndpoint, {}, () => service.depositOptions());
  defineRoute(
    app,
    createBankDepositEndpoint,
    { bodyBytes: 2_048, perUser: { max: 10, windowMs: 60_000 } },
    async ({ user, body }) => ({ deposit: await service.create(user, body) }),
  );
  defineRoute(app, listBankDepositsEndpoint, {}, async ({ user }) => ({
    items: await service.list(user),
  }));
  defineRoute(app, operatorListBankDepositsEndpoint, {}, async ({ query }) => ({
    items: await service.operatorList(query.state ?? "pending"),
  }));
  defineRoute(
    app,
    operatorCreditBankDepositEndpoint,
    { bodyBytes: 1_024 },
    async ({ params, request }) => {
      const result = await service.credit(params.depositId, operatorIdOf(request));
      touchesUser(request, result.deposit.ownerId);
      return result;
    },
  );
  defineRoute(
    app,
    operatorRejectBankDepositEndpoint,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      const result = await service.reject(params.depositId, body.reason, operatorIdOf(request));
      touchesUser(request, result.deposit.ownerId);
      return result;
    },
  );
};
