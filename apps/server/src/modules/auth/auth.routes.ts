import { randomBytes, randomInt } from "node:crypto";
import {
  demoLogin,
  getAgreement,
  getCaptcha,
  login,
  logout,
  messagesByLocale,
  register,
  resetPassword,
  sendEmailCode,
  walletLogin,
  walletNonce,
  type Locale,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../../app.ts";
import { AppError } from "../../http/app-error.ts";
import { sessionCookieName } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { consumeCaptcha, createCaptcha } from "./captcha.ts";
import { createMailer } from "./mailer.ts";
import { defaultPasswordCost, hashPassword, verifyPassword } from "./passwords.ts";
import { meRoutes } from "./me.routes.ts";
import {
  createSession,
  isUniqueViolation,
  loadUser,
  newInviteCode,
  revokeSessions,
  sessionLifetimeMs,
  sha256Hex,
  toUserInfo,
} from "./users.ts";
import { createWalletNonce, verifyWalletSignIn, type SiweOrigin } from "./wallet.ts";

const minute = 60_000;
const hour = 60 * minute;
const emailCodeLifetimeMs = 10 * minute;
const emailCodeAttemptsMax = 5;
/** Failed logins of one account within this window before a captcha is needed. */
const loginFailuresMax = 5;
const loginFailureWindowMs = 15 * minute;
const agreementVersion = "2026-11-1";

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? "");

/** Sign-in endpoints (`/api/v1/auth/*`), then the signed-in user's (`me.routes.ts`). */
export const authRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { database } = deps;
  const db = database.db;
  const now = deps.now ?? Date.now;
  const passwordCost = deps.passwordCost ?? defaultPasswordCost;
  const captchaRequired = deps.captcha !== "off";
  const mailer = createMailer({
    database,
    now,
    log: app.log,
    smtpUrl: deps.smtpUrl,
    mailFrom: deps.mailFrom,
  });
  app.addHook("onClose", async () => mailer.close());
  // Compared against when an account does not exist, so a miss costs as much time as a hit.
  // Made on first use: building the app (tests do it often) should not pay for a hash.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => (decoyHash ??= hashPassword(randomBytes(12).toString("hex"), passwordCost));

  function origin(request: FastifyRequest): SiweOrigin {
    if (deps.publicUrl) {
      const url = new URL(deps.publicUrl);
      return { domain: url.host, uri: url.origin };
    }
    const host = request.headers.host ?? "localhost";
    return { domain: host, uri: `${request.protocol}://${host}` };
  }

  async function requireCaptcha(body: { captchaId?: string; captchaAnswer?: string }) {
    if (!body.captchaId || !body.captchaAnswer) throw new AppError("captcha_required");
    if (!(await consumeCaptcha(database, now(), body.captchaId, body.captchaAnswer))) {
      throw new AppError("captcha_invalid");
    }
  }

  async function startSession(
    reply: FastifyReply,
    userId: bigint,
    mode: "real" | "demo",
  ): Promise<{ token: string; expiresAt: string; user: ReturnType<typeof toUserInfo> }> {
    const session = await createSession(database, now(), userId, mode);
    const secure = deps.publicUrl?.startsWith("https:") ? "; Secure" : "";
    reply.header(
      "set-cookie",
      `${sessionCookieName}=${session.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${sessionLifetimeMs / 1000}${secure}`,
    );
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: toUserInfo(await loadUser(database, userId), mode),
    };
  }

  async function openAccounts(userId: bigint, mode: "real" | "demo") {
    await deps.accounts?.open(userId, mode);
  }

  const codeHash = (email: string, purpose: string, code: string) =>
    sha256Hex(`${email}:${purpose}:${code}`);

  /** Uses up the newest live code for an address; wrong guesses count against it. */
  async function consumeEmailCode(
    email: string,
    purpose: "register" | "reset_password",
    code: string,
  ) {
    const row = await db
      .selectFrom("email_codes")
      .select(["id", "code_hash", "attempts"])
      .where("email", "=", email)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date(now()))
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!row || row.attempts >= emailCodeAttemptsMax) throw new AppError("email_code_invalid");
    const matches = row.code_hash === codeHash(email, purpose, code);
    await db
      .updateTable("email_codes")
      .set({
        attempts: row.attempts + 1,
        ...(matches ? { used_at: new Date(now()) } : {}),
      })
      .where("id", "=", row.id)
      .execute();
    if (!matches) throw new AppError("email_code_invalid");
  }

  const mailText = (locale: Locale) => messagesByLocale[locale].mail;

  defineRoute(app, getCaptcha, { perIp: { max: 60, windowMs: minute } }, async () => {
    const captcha = await createCaptcha(database, now());
    return {
      captchaId: captcha.captchaId,
      svg: captcha.svg,
      expiresAt: captcha.expiresAt.toISOString(),
    };
  });

  defineRoute(app, getAgreement, {}, ({ request }) => ({
    version: agreementVersion,
    title: messagesByLocale[request.locale].agreement.title,
    text: messagesByLocale[request.locale].agreement.text,
  }));

  defineRoute(
    app,
    sendEmailCode,
    { bodyBytes: 2048, perIp: { max: 10, windowMs: hour } },
    async ({ body, request }) => {
      const email = body.email.toLowerCase();
      if (!app.rateLimiter.hit(`email-code|${email}`, { max: 5, windowMs: hour })) {
        throw new AppError("rate_limited");
      }
      if (captchaRequired) await requireCaptcha(body);
      const expiresAt = new Date(now() + emailCodeLifetimeMs);
      const existing = await db
        .selectFrom("users")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirst();
      const texts = mailText(request.locale);
      if (body.purpose === "register" && existing) {
        // Tell the owner, not the requester: the answer is the same as for a new address.
        await mailer.send({ to: email, subject: texts.existsSubject, text: texts.existsText });
      } else if (body.purpose === "reset_password" && !existing) {
        // Nothing to reset; answering alike keeps unknown addresses unknown.
      } else {
        await db
          .deleteFrom("email_codes")
          .where("email", "=", email)
          .where("expires_at", "<", new Date(now() - 24 * hour))
          .execute();
        const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
        await db
          .insertInto("email_codes")
          .values({
            email,
            purpose: body.purpose,
            code_hash: codeHash(email, body.purpose, code),
            created_at: new Date(now()),
            expires_at: expiresAt,
            used_at: null,
          })
          .execute();
        await mailer.send({
          to: email,
          subject: fill(texts.codeSubject, { code }),
          text: fill(texts.codeText, { code }),
        });
      }
      return { expiresAt: expiresAt.toISOString() };
    },
  );

  defineRoute(
    app,
    register,
    { bodyBytes: 4096, perIp: { max: 10, windowMs: hour } },
    async ({ body, reply }) => {
      if (!body.agreement) throw new AppError("agreement_required");
      if (captchaRequired) await requireCaptcha(body);
      const isEmail = body.account.includes("@");
      const email = isEmail ? body.account.toLowerCase() : null;
      if (email) {
        if (!body.emailCode) throw new AppError("email_code_invalid");
        await consumeEmailCode(email, "register", body.emailCode);
      }
      let inviterId: bigint | null = null;
      if (body.inviteCode) {
        const inviter = await db
          .selectFrom("users")
          .select("id")
          .where("invite_code", "=", body.inviteCode)
          .executeTakeFirst();
        if (!inviter) throw new AppError("invite_code_invalid");
        inviterId = inviter.id;
      }
      const passwordHash = await hashPassword(body.password, passwordCost);
      // The trade password starts as the login password (spec §5), hashed with its own salt.
      const tradePasswordHash = await hashPassword(body.password, passwordCost);
      let userId: bigint;
      try {
        const row = await db
          .insertInto("users")
          .values({
            kind: email ? "email" : "phone",
            email,
            phone: email ? null : body.account,
            wallet_address: null,
            demo_name: null,
            password_hash: passwordHash,
            trade_password_hash: tradePasswordHash,
            email_verified: email !== null,
            nickname: email ? email.split("@")[0]!.slice(0, 32) : body.account.slice(-4),
            invite_code: newInviteCode(),
            inviter_id: inviterId,
            created_at: new Date(now()),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        userId = row.id;
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError("account_exists");
        throw error;
      }
      await openAccounts(userId, "real");
      return startSession(reply, userId, "real");
    },
  );

  defineRoute(
    app,
    login,
    { bodyBytes: 2048, perIp: { max: 30, windowMs: minute } },
    async ({ body, reply }) => {
      const account = body.account.includes("@") ? body.account.toLowerCase() : body.account;
      // Per account, whatever the IP: slows guessing spread over many addresses.
      if (!app.rateLimiter.hit(`login|${account}`, { max: 20, windowMs: loginFailureWindowMs })) {
        throw new AppError("rate_limited");
      }
      const since = new Date(now() - loginFailureWindowMs);
      const failures = await db
        .selectFrom("login_failures")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("account", "=", account)
        .where("at", ">", since)
        .executeTakeFirstOrThrow();
      if (Number(failures.count) >= loginFailuresMax) {
        // With CAPTCHA=off (scripted use) the account simply waits out the window.
        if (!captchaRequired) throw new AppError("rate_limited");
        await requireCaptcha(body);
      }
      const user = await db
        .selectFrom("users")
        .select(["id", "password_hash"])
        .where(account.includes("@") ? "email" : "phone", "=", account)
        .executeTakeFirst();
      const valid = await verifyPassword(body.password, user?.password_hash ?? (await decoy()));
      if (!user || !user.password_hash || !valid) {
        await db
          .insertInto("login_failures")
          .values({ account, at: new Date(now()) })
          .execute();
        // Failures older than the window count for nothing: drop them as new ones come.
        await db
          .deleteFrom("login_failures")
          .where("account", "=", account)
          .where("at", "<=", since)
          .execute();
        throw new AppError("invalid_credentials");
      }
      await db.deleteFrom("login_failures").where("account", "=", account).execute();
      // Idempotent: heals a registration whose account opening failed half-way.
      await openAccounts(user.id, "real");
      return startSession(reply, user.id, "real");
    },
  );

  defineRoute(
    app,
    demoLogin,
    { bodyBytes: 1024, perIp: { max: 20, windowMs: hour } },
    async ({ body, reply }) => {
      if (body.resumeKey) {
        const user = await db
          .selectFrom("users")
          .select("id")
          .where("demo_name", "=", sha256Hex(body.resumeKey))
          .where("demo_only", "=", true)
          .executeTakeFirst();
        if (!user) throw new AppError("invalid_credentials");
        await openAccounts(user.id, "demo");
        return { ...(await startSession(reply, user.id, "demo")), resumeKey: body.resumeKey };
      }
      const resumeKey = randomBytes(24).toString("base64url");
      const row = await db
        .insertInto("users")
        .values({
          kind: "demo",
          email: null,
          phone: null,
          wallet_address: null,
          demo_name: sha256Hex(resumeKey),
          password_hash: null,
          trade_password_hash: null,
          nickname: "Demo",
          invite_code: newInviteCode(),
          inviter_id: null,
          demo_only: true,
          created_at: new Date(now()),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await openAccounts(row.id, "demo");
      return { ...(await startSession(reply, row.id, "demo")), resumeKey };
    },
  );

  defineRoute(
    app,
    walletNonce,
    { perIp: { max: 30, windowMs: minute } },
    async ({ query, request }) => {
      const nonce = await createWalletNonce(
        database,
        now(),
        origin(request),
        query.address,
        query.chainId,
      );
      const { domain, uri } = origin(request);
      return {
        nonce: nonce.nonce,
        message: nonce.message,
        domain,
        uri,
        issuedAt: nonce.issuedAt.toISOString(),
        expiresAt: nonce.expiresAt.toISOString(),
      };
    },
  );

  defineRoute(
    app,
    walletLogin,
    { bodyBytes: 4096, perIp: { max: 30, windowMs: minute } },
    async ({ body, request, reply }) => {
      const address = await verifyWalletSignIn(database, now(), origin(request), body);
      let user = await db
        .selectFrom("users")
        .select("id")
        .where("wallet_address", "=", address)
        .executeTakeFirst();
      if (!user) {
        try {
          user = await db
            .insertInto("users")
            .values({
              kind: "wallet",
              email: null,
              phone: null,
              wallet_address: address,
              demo_name: null,
              password_hash: null,
              trade_password_hash: null,
              nickname: `${address.slice(0, 6)}…${address.slice(-4)}`,
              invite_code: newInviteCode(),
              inviter_id: null,
              created_at: new Date(now()),
            })
            .returning("id")
            .executeTakeFirstOrThrow();
        } catch (error) {
          // Two first sign-ins of one address at once: the other one created the user.
          if (!isUniqueViolation(error)) throw error;
          user = await db
            .selectFrom("users")
            .select("id")
            .where("wallet_address", "=", address)
            .executeTakeFirstOrThrow();
        }
      }
      await openAccounts(user.id, "real");
      return startSession(reply, user.id, "real");
    },
  );

  defineRoute(
    app,
    resetPassword,
    { bodyBytes: 2048, perIp: { max: 10, windowMs: hour } },
    async ({ body }) => {
      const email = body.email.toLowerCase();
      await consumeEmailCode(email, "reset_password", body.emailCode);
      const user = await db
        .selectFrom("users")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirst();
      if (!user) throw new AppError("email_code_invalid");
      await db
        .updateTable("users")
        .set({ password_hash: await hashPassword(body.password, passwordCost) })
        .where("id", "=", user.id)
        .execute();
      await revokeSessions(database, now(), user.id);
      await db.deleteFrom("login_failures").where("account", "=", email).execute();
      return {};
    },
  );

  defineRoute(app, logout, { bodyBytes: 256 }, async ({ body, user, reply }) => {
    await revokeSessions(
      database,
      now(),
      user.id,
      body.everywhere ? undefined : user.sessionTokenHash,
    );
    reply.header(
      "set-cookie",
      `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    );
    return {};
  });

  meRoutes(app, { database, now, passwordCost, startSession, openAccounts });
};
