import { operatorAuditLog } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { defineRoute } from "../../http/define-route.ts";
import type { OperatorAccounts } from "./operator-accounts.ts";

/** `/api/v1/operator/audit` (issue 17): the audit log of operator actions. */
export const operatorAccountsModule: FastifyPluginAsync<{ accounts: OperatorAccounts }> = async (
  app,
  { accounts },
) => {
  defineRoute(app, operatorAuditLog, {}, async ({ query }) => {
    const entries = await accounts.auditLog(query);
    return {
      entries: entries.map(({ atMs, ...entry }) => ({
        ...entry,
        at: new Date(atMs).toISOString(),
      })),
    };
  });
};
