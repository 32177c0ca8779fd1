import {
  operatorAuditLog,
  operatorBootstrap,
  operatorConfirmTotp,
  operatorCreateAccount,
  operatorDisableAccount,
  operatorEnableAccount,
  operatorListAccounts,
  operatorMe,
  operatorSignIn,
  operatorSignOut,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import type { OperatorAccounts } from "./operator-accounts.ts";

const minute = 60_000;
/** Failed codes or passwords per operator e-mail before it waits (TOTP has 10^6 codes). */
const failuresPerEmail = { max: 10, windowMs: 15 * minute };

/**
 * `/api/v1/operator/*` of named operators (issue 17): the bootstrap of the first admin, TOTP
 * confirmation, sign-in and sign-out, the signed-in operator, the accounts an admin manages, and
 * the audit log. Sign-in and confirmation are rate-limited per address and per e-mail.
 */
export const operatorAccountsModule: FastifyPluginAsync<{ accounts: OperatorAccounts }> = async (
  app,
  { accounts },
) => {
  /** Counts a failure of `email`; throws `rate_limited` once it is over its limit. */
  const guarded = async <T>(email: string, attempt: () => Promise<T>): Promise<T> => {
    const key = `operator-sign-in|${email.trim().toLowerCase()}`;
    if (!app.rateLimiter.hit(`${key}|attempts`, { max: 30, windowMs: 15 * minute })) {
      throw new AppError("rate_limited");
    }
    try {
      const result = await attempt();
      app.rateLimiter.reset(key);
      return result;
    } catch (error) {
      if (!app.rateLimiter.hit(key, failuresPerEmail)) throw new AppError("rate_limited");
      throw error;
    }
  };

  defineRoute(app, operatorBootstrap, { bodyBytes: 2_048 }, async ({ body, request }) => {
    // The bootstrap token only: a named operator's session is refused by the role table, and
    // once one exists the token itself is retired (authenticate).
    if (request.operatorAccount) throw new AppError("forbidden");
    return accounts.bootstrapAdmin(body);
  });

  defineRoute(
    app,
    operatorConfirmTotp,
    { bodyBytes: 2_048, perIp: { max: 20, windowMs: minute } },
    async ({ body }) => ({
      operator: await guarded(body.email, () =>
        accounts.confirmTotp(body.email, body.password, body.code),
      ),
    }),
  );

  defineRoute(
    app,
    operatorSignIn,
    { bodyBytes: 2_048, perIp: { max: 20, windowMs: minute } },
    async ({ body }) => {
      const session = await guarded(body.email, () =>
        accounts.signIn(body.email, body.password, body.code),
      );
      return {
        token: session.token,
        expiresAt: new Date(session.expiresAtMs).toISOString(),
        operator: session.operator,
      };
    },
  );

  defineRoute(app, operatorSignOut, {}, async ({ request }) => {
    const token = bearer(request);
    if (request.operatorAccount && token) await accounts.signOut(token);
    return { signedOut: true as const };
  });

  defineRoute(app, operatorMe, {}, async ({ request }) => {
    const token = bearer(request);
    const operator = request.operatorAccount && token ? await accounts.byToken(token) : null;
    // The bootstrap token is nobody: it has no operator to show.
    if (!operator) throw new AppError("forbidden");
    return { operator };
  });

  defineRoute(app, operatorListAccounts, {}, async () => ({
    operators: (await accounts.list()).map(({ createdAtMs, ...operator }) => ({
      ...operator,
      createdAt: new Date(createdAtMs).toISOString(),
    })),
  }));

  defineRoute(app, operatorCreateAccount, { bodyBytes: 2_048 }, async ({ body, request }) => {
    // Admins only (role table); the bootstrap token creates the first admin and nothing else.
    if (!request.operatorAccount) throw new AppError("forbidden");
    const { reason, ...input } = body;
    return accounts.create(request.operatorAccount, input, reason);
  });

  defineRoute(app, operatorDisableAccount, { bodyBytes: 2_048 }, async ({ params, request }) => {
    // Admins only (role table); the bootstrap token is nobody and disables no one.
    if (!request.operatorAccount) throw new AppError("forbidden");
    const { operator, sessionsEnded } = await accounts.disable(
      request.operatorAccount,
      params.operatorId,
    );
    const { createdAtMs, ...rest } = operator;
    return {
      operator: { ...rest, createdAt: new Date(createdAtMs).toISOString() },
      sessionsEnded,
    };
  });

  defineRoute(
    app,
    operatorEnableAccount,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      // Admins only (role table); the bootstrap token is nobody and lets no one back in.
      if (!request.operatorAccount) throw new AppError("forbidden");
      return accounts.enable(
        request.operatorAccount,
        params.operatorId,
        body.password,
        body.reason,
      );
    },
  );

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

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
}
