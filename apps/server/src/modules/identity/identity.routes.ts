import {
  deleteIdentityDocumentsEndpoint,
  myIdentityEndpoint,
  operatorApproveIdentityEndpoint,
  operatorIdentityDetailEndpoint,
  operatorListIdentityEndpoint,
  operatorRejectIdentityEndpoint,
  submitAdvancedIdentityEndpoint,
  submitBasicIdentityEndpoint,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import type { IdentityService } from "./identity.service.ts";

export interface IdentityModuleOptions {
  identity: IdentityService;
  /**
   * Notes a user's own deletion of their documents in the audit log under their user id (so
   * the operator sees it in the user's history); no operator is named.
   */
  auditUserAction?: (userId: string, action: string, detail: string) => Promise<void>;
}

/** `/api/v1/me/identity*` for users and `/api/v1/operator/identity*` for the review. */
export const identityModule: FastifyPluginAsync<IdentityModuleOptions> = async (app, options) => {
  const { identity } = options;
  const submitLimit = { bodyBytes: 2_048, perUser: { max: 10, windowMs: 60 * 60_000 } };

  defineRoute(app, myIdentityEndpoint, {}, ({ user }) => identity.overview(user.id));
  defineRoute(app, submitBasicIdentityEndpoint, submitLimit, ({ user, body }) =>
    identity.submitBasic(user, body),
  );
  defineRoute(app, submitAdvancedIdentityEndpoint, submitLimit, ({ user, body }) =>
    identity.submitAdvanced(user, body),
  );
  defineRoute(
    app,
    deleteIdentityDocumentsEndpoint,
    { perUser: { max: 20, windowMs: 60 * 60_000 } },
    async ({ user, params }) => {
      const { overview, removed } = await identity.deleteDocuments(user.id, params.submissionId);
      if (removed.length > 0) {
        await options.auditUserAction?.(
          String(user.id),
          `${deleteIdentityDocumentsEndpoint.method} ${deleteIdentityDocumentsEndpoint.path}`,
          `submissionId=${params.submissionId} uploads=${removed.join(",")}`,
        );
      }
      return overview;
    },
  );

  defineRoute(app, operatorListIdentityEndpoint, {}, ({ query }) =>
    identity.queue(query.state, query.limit),
  );
  defineRoute(app, operatorIdentityDetailEndpoint, {}, ({ params }) =>
    identity.detail(params.submissionId),
  );
  defineRoute(
    app,
    operatorApproveIdentityEndpoint,
    { bodyBytes: 2_048 },
    async ({ params, request }) => {
      const decided = await identity.approve(params.submissionId, operatorIdOf(request));
      touchesUser(request, decided.submission.userId);
      return decided;
    },
  );
  defineRoute(
    app,
    operatorRejectIdentityEndpoint,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      const decided = await identity.reject(
        params.submissionId,
        body.reason,
        body.text,
        operatorIdOf(request),
      );
      touchesUser(request, decided.submission.userId);
      return decided;
    },
  );
};
