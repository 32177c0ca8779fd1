import {
  accountHistory,
  operatorFreezeUser,
  operatorSearchUsers,
  operatorSystemAccounts,
  operatorUnfreezeUser,
  operatorUserDetail,
  type OperatorUserSummary,
} from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getBalances,
  getSystemAccounts,
  type AccountBalance,
  type KernelState,
} from "@candor/kernel";
import type { FastifyPluginAsync } from "fastify";
import type { z } from "zod";
import type { Database } from "../../db/database.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import { BackOfficeRepository, type BackOfficeUserRow } from "./back-office.repository.ts";

/** The audit log as the back office reads it (the auth module's `OperatorAccounts`). */
export interface AuditLogReader {
  auditLog(filter: { userId?: string; limit?: number }): Promise<
    {
      id: string;
      operatorId: string | null;
      action: string;
      reason: string;
      userId: string | null;
      detail: string;
      atMs: number;
    }[]
  >;
}

/** Options of the back office's user and system-account endpoints. */
export interface BackOfficeOptions {
  database: Database;
  accounts: AuditLogReader;
  /** Ends every session of a frozen user (and closes their streams). */
  sessions: { revoke(userId: bigint): Promise<void> };
  /** The kernel, for balances; absent in API-only tests (balances are then empty). */
  engine?: Pick<EngineSubmitQuery, "query">;
  now: () => number;
}

/**
 * The back office's users (search, detail, freeze and unfreeze) and the labelled system accounts'
 * balances (issue 17), and the user's own view of what operators did to their account.
 * Balances come from the kernel's memory; history from the read models and the audit log.
 */
export const backOfficeModule: FastifyPluginAsync<BackOfficeOptions> = async (app, options) => {
  const repository = new BackOfficeRepository(options.database);
  const engine = options.engine;

  const scales = (state: KernelState) =>
    new Map(getAssets(state).map((asset) => [asset.assetId, asset.scale]));
  const balanceRows = (balances: AccountBalance[], scaleOf: Map<string, number>) =>
    balances.map((b) => ({
      account: b.account,
      asset: b.assetId,
      available: formatAmount(b.available, scaleOf.get(b.assetId) ?? 0),
      held: formatAmount(b.held, scaleOf.get(b.assetId) ?? 0),
    }));

  const found = async (userId: string) => {
    const user = await repository.user(userId);
    if (!user) throw new AppError("not_found");
    return user;
  };

  defineRoute(app, operatorSearchUsers, {}, async ({ query }) => ({
    users: (await repository.search(query.q, query.limit)).map(summary),
  }));

  defineRoute(app, operatorUserDetail, {}, async ({ params }) => {
    const user = await found(params.userId);
    const { balances, scaleOf } = engine
      ? engine.query((state) => ({
          balances: [
            ...getBalances(state, user.id, "real"),
            ...getBalances(state, user.id, "demo"),
          ],
          scaleOf: scales(state),
        }))
      : { balances: [], scaleOf: new Map<string, number>() };
    const statement = await repository.statement(user.id, 50);
    const audit = await options.accounts.auditLog({ userId: user.id, limit: 100 });
    return {
      user: summary(user),
      balances: balanceRows(balances, scaleOf),
      statement: statement.map((line) => ({
        seq: line.seq,
        at: new Date(line.atMs).toISOString(),
        reason: line.reason,
        asset: line.assetId,
        amount: formatAmount(line.amount, scaleOf.get(line.assetId) ?? 0),
        operatorId: line.operatorId,
      })),
      sessions: await repository.sessions(user.id, options.now()),
      audit: audit.map(({ atMs, ...entry }) => ({ ...entry, at: new Date(atMs).toISOString() })),
    };
  });

  defineRoute(app, operatorFreezeUser, { bodyBytes: 2_048 }, async ({ params, body, request }) => {
    await found(params.userId);
    touchesUser(request, params.userId);
    const user = await repository.setFrozen(params.userId, {
      atMs: options.now(),
      by: operatorIdOf(request),
      reason: body.reason,
    });
    // Every session ends at once; sign-in is refused until an operator unfreezes.
    await options.sessions.revoke(BigInt(params.userId));
    return { user: summary(user!) };
  });

  defineRoute(app, operatorUnfreezeUser, { bodyBytes: 2_048 }, async ({ params, request }) => {
    await found(params.userId);
    touchesUser(request, params.userId);
    const user = await repository.setFrozen(params.userId, null);
    return { user: summary(user!) };
  });

  defineRoute(app, operatorSystemAccounts, {}, () => {
    if (!engine) return { accounts: [] };
    return engine.query((state) => {
      const scaleOf = scales(state);
      return {
        accounts: (["real", "demo"] as const).flatMap((mode) =>
          getSystemAccounts(state, mode).map((b) => ({
            label: b.wallet === "fund" ? b.ownerId : `${b.ownerId}/${b.wallet}`,
            mode,
            asset: b.assetId,
            available: formatAmount(b.available, scaleOf.get(b.assetId) ?? 0),
            held: formatAmount(b.held, scaleOf.get(b.assetId) ?? 0),
          })),
        ),
      };
    });
  });

  defineRoute(app, accountHistory, {}, async ({ user, query }) => {
    const entries = await options.accounts.auditLog({
      userId: String(user.id),
      limit: query.limit,
    });
    return {
      entries: entries.map((entry) => ({
        id: entry.id,
        action: entry.action,
        reason: entry.reason,
        operatorId: entry.operatorId,
        at: new Date(entry.atMs).toISOString(),
      })),
    };
  });
};

function summary(user: BackOfficeUserRow): z.infer<typeof OperatorUserSummary> {
  return {
    id: user.id,
    username: user.email ?? user.phone ?? user.walletAddress ?? `demo-${user.id}`,
    kind: user.kind,
    nickname: user.nickname,
    country: user.country,
    identityState: user.verification,
    frozen: user.frozenAtMs !== null,
    createdAt: new Date(user.createdAtMs).toISOString(),
  };
}
