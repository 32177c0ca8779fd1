import {
  changePassword,
  getMe,
  myInvitations,
  operatorOutbox,
  setTradePassword,
  switchMode,
  tradePasswordStatus,
  updateMe,
  verifyTradePasswordEndpoint,
  type SessionData,
} from "@candor/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Database } from "../../db/database.ts";
import { invalidateSessionCache } from "../../http/authenticate.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { verifyTradePassword } from "./trade-password.ts";
import { loadUser, revokeSessions, toUserInfo } from "./users.ts";

const minute = 60_000;

/** What the signed-in user's endpoints share with the sign-in plugin. */
export interface MeContext {
  database: Database;
  now: () => number;
  passwordCost: number;
  startSession(reply: FastifyReply, userId: bigint, mode: "real" | "demo"): Promise<SessionData>;
  openAccounts(userId: bigint, mode: "real" | "demo"): Promise<void>;
}

/** `/api/v1/me/*` (profile, passwords, mode, invitations) and the operator's outbox. */
export function meRoutes(app: FastifyInstance, context: MeContext) {
  const { database, now, passwordCost, startSession, openAccounts } = context;
  const db = database.db;

  defineRoute(app, getMe, {}, async ({ user }) =>
    toUserInfo(await loadUser(database, user.id), user.mode),
  );

  defineRoute(
    app,
    updateMe,
    { bodyBytes: 1024, perUser: { max: 30, windowMs: minute } },
    async ({ body, user }) => {
      if (body.nickname !== undefined || body.avatar !== undefined) {
        await db
          .updateTable("users")
          .set({
            ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
            ...(body.avatar !== undefined ? { avatar: body.avatar } : {}),
          })
          .where("id", "=", user.id)
          .execute();
      }
      return toUserInfo(await loadUser(database, user.id), user.mode);
    },
  );

  defineRoute(
    app,
    changePassword,
    { bodyBytes: 1024, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user, reply }) => {
      const row = await db
        .selectFrom("users")
        .select("password_hash")
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      // Wallet and demo users have no login password to change.
      if (!row.password_hash) throw new AppError("forbidden");
      if (!(await verifyPassword(body.currentPassword, row.password_hash))) {
        throw new AppError("password_incorrect");
      }
      await db
        .updateTable("users")
        .set({ password_hash: await hashPassword(body.password, passwordCost) })
        .where("id", "=", user.id)
        .execute();
      await revokeSessions(database, now(), user.id);
      return startSession(reply, user.id, user.mode);
    },
  );

  defineRoute(app, tradePasswordStatus, {}, async ({ user }) => {
    const row = await loadUser(database, user.id);
    return { exists: row.trade_password_hash !== null };
  });

  defineRoute(
    app,
    setTradePassword,
    { bodyBytes: 1024, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user }) => {
      const row = await loadUser(database, user.id);
      if (row.trade_password_hash) {
        if (!body.currentTradePassword) throw new AppError("trade_password_invalid");
        await verifyTradePassword(database, user.id, body.currentTradePassword);
      }
      await db
        .updateTable("users")
        .set({ trade_password_hash: await hashPassword(body.tradePassword, passwordCost) })
        .where("id", "=", user.id)
        .execute();
      return { exists: true as const };
    },
  );

  defineRoute(
    app,
    verifyTradePasswordEndpoint,
    { bodyBytes: 512, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user }) => {
      await verifyTradePassword(database, user.id, body.tradePassword);
      return { valid: true as const };
    },
  );

  defineRoute(
    app,
    switchMode,
    { bodyBytes: 256, perUser: { max: 30, windowMs: minute } },
    async ({ body, user }) => {
      if (user.demoOnly && body.mode === "real") throw new AppError("demo_not_allowed");
      if (body.mode === "demo") await openAccounts(user.id, "demo");
      await db
        .updateTable("sessions")
        .set({ mode: body.mode })
        .where("token_hash", "=", user.sessionTokenHash)
        .execute();
      invalidateSessionCache(database);
      return toUserInfo(await loadUser(database, user.id), body.mode);
    },
  );

  defineRoute(app, myInvitations, {}, async ({ query, user }) => {
    const me = await loadUser(database, user.id);
    const count = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("inviter_id", "=", user.id)
      .executeTakeFirstOrThrow();
    const invitees = await db
      .selectFrom("users")
      .select(["id", "created_at"])
      .where("inviter_id", "=", user.id)
      .orderBy("id", "desc")
      .limit(query.limit)
      .execute();
    return {
      userId: String(user.id),
      inviteCode: me.invite_code,
      invitedCount: Number(count.count),
      invitees: invitees.map((row) => ({
        userId: String(row.id),
        joinedAt: row.created_at.toISOString(),
      })),
    };
  });

  defineRoute(app, operatorOutbox, {}, async ({ query }) => {
    let select = db
      .selectFrom("outbox_emails")
      .selectAll()
      .orderBy("id", "desc")
      .limit(query.limit);
    if (query.to) select = select.where("to_address", "=", query.to.toLowerCase());
    const rows = await select.execute();
    return {
      emails: rows.map((row) => ({
        id: String(row.id),
        to: row.to_address,
        subject: row.subject,
        text: row.body_text,
        delivery: row.delivery,
        createdAt: row.created_at.toISOString(),
      })),
    };
  });
}
