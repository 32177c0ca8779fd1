import {
  changePassword,
  demoLogin,
  getAgreement,
  getCaptcha,
  getMe,
  login,
  logout,
  operatorOutbox,
  listSessionsEndpoint,
  register,
  revokeOtherSessionsEndpoint,
  revokeSessionEndpoint,
  twoFactorConfirmEndpoint,
  twoFactorDisableEndpoint,
  twoFactorEnrolEndpoint,
  twoFactorStatusEndpoint,
  resetPassword,
  sendEmailCode,
  sendPhoneCode,
  setTradePassword,
  switchMode,
  tradePasswordStatus,
  updateMe,
  verifyTradePasswordEndpoint,
  walletLogin,
  walletNonce,
  type SessionData,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../http/app-error.ts";
import { sessionCookieName } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { loginFailureWindowMs, normalizeAccount, type AuthService } from "./auth.service.ts";
import { sessionLifetimeMs } from "./sessions.ts";
import { sha256Hex } from "./users.ts";
import type { SiweOrigin } from "./wallet.ts";

const minute = 60_000;
const hour = 60 * minute;

/**
 * The `Host` values of a local app on `port`: localhost and 127.0.0.1, with the port (and
 * without it on port 80, as browsers send it there). Not [::1]: EIP-4361 tools (viem) refuse
 * an IPv6 literal as the domain, so a wallet could not sign for it anyway.
 */
export function loopbackHosts(port: number): string[] {
  const names = ["localhost", "127.0.0.1"];
  return [...names.map((name) => `${name}:${port}`), ...(port === 80 ? names : [])];
}

/** Options of the auth module. */
export interface AuthModuleOptions {
  /** The auth service; the app builds it first, as authentication and other modules use it too. */
  auth: AuthService;
  /** Whether an upload is the user's own avatar image (uploads module); unset: none is. */
  avatars?: { owns(uploadId: string, ownerId: string): Promise<boolean> };
  /** Public origin of the app (`https://trade.example.com`): wallet sign-in domain, cookies. */
  publicUrl?: string;
  /**
   * The configured listening port (PORT). Without `publicUrl`, wallet sign-in is valid only at
   * the loopback origins of this port; 0 or unset means the port the server actually bound.
   */
  port?: number;
}

/**
 * Sign-in (`/api/v1/auth/*`), the signed-in user's own endpoints (`/api/v1/me/*`) and the
 * operator's e-mail outbox. HTTP only: limits, cookies and the request's origin; the rest is
 * `AuthService`.
 */
export const authModule: FastifyPluginAsync<AuthModuleOptions> = async (app, options) => {
  const { auth, publicUrl } = options;

  /**
   * Where the app is served, as wallet sign-in (SIWE) checks it: from configuration only. With
   * `publicUrl` it is that origin, whatever the request's `Host`. Without it, the app is a local
   * one and only the loopback origins of its port count; the `Host` picks one of them, and any
   * other `Host` (a phishing site relaying a victim's signature) is refused.
   */
  function origin(request: FastifyRequest): SiweOrigin {
    if (publicUrl) {
      const url = new URL(publicUrl);
      return { domain: url.host, uri: url.origin };
    }
    const host = request.headers.host?.toLowerCase();
    if (!host || !loopbackHosts(listeningPort()).includes(host)) {
      throw new AppError("host_not_allowed");
    }
    return { domain: host, uri: `http://${host}` };
  }

  /** Where a sign-in came from, for the sign-in history. */
  function client(request: FastifyRequest) {
    return { ip: request.ip, userAgent: request.headers["user-agent"] };
  }

  /** The configured port; when that is 0 or unset, the bound one (80 for `inject` tests). */
  function listeningPort(): number {
    if (options.port) return options.port;
    const address = app.server.address();
    return typeof address === "object" && address ? address.port : 80;
  }

  /**
   * Sets the session cookie of a new session (the token is in the body too) and records the
   * device and address it was opened from, for the security centre's session list.
   */
  async function withCookie<T extends SessionData>(
    request: FastifyRequest,
    reply: FastifyReply,
    session: T,
  ): Promise<T> {
    await auth.sessionDirectory?.describe(sha256Hex(session.token), {
      ip: request.ip,
      userAgent: request.headers["user-agent"],
    });
    const secure = publicUrl?.startsWith("https:") ? "; Secure" : "";
    reply.header(
      "set-cookie",
      `${sessionCookieName}=${session.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${sessionLifetimeMs / 1000}${secure}`,
    );
    return session;
  }

  defineRoute(app, getCaptcha, { perIp: { max: 60, windowMs: minute } }, () => auth.captcha());

  defineRoute(app, getAgreement, {}, ({ request }) => auth.agreement(request.locale));

  defineRoute(
    app,
    sendEmailCode,
    { bodyBytes: 2048, perIp: { max: 10, windowMs: hour } },
    async ({ body, request }) => {
      const email = body.email.toLowerCase();
      if (!app.rateLimiter.hit(`email-code|${email}`, { max: 5, windowMs: hour })) {
        throw new AppError("rate_limited");
      }
      return auth.sendEmailCode(body, request.locale);
    },
  );

  defineRoute(
    app,
    sendPhoneCode,
    { bodyBytes: 2048, perIp: { max: 10, windowMs: hour } },
    async ({ body, request }) => {
      // Per number, whatever the IP: texts cost money and annoy the number's owner.
      if (!app.rateLimiter.hit(`phone-code|${body.phone}`, { max: 5, windowMs: hour })) {
        throw new AppError("rate_limited");
      }
      return auth.sendPhoneCode(body, request.locale);
    },
  );

  defineRoute(
    app,
    register,
    { bodyBytes: 4096, perIp: { max: 10, windowMs: hour } },
    async ({ body, request, reply }) =>
      withCookie(request, reply, await auth.register(body, client(request))),
  );

  defineRoute(
    app,
    login,
    { bodyBytes: 2048, perIp: { max: 30, windowMs: minute } },
    async ({ body, request, reply }) => {
      const account = normalizeAccount(body.account);
      // Per account, whatever the IP: slows guessing spread over many addresses.
      if (!app.rateLimiter.hit(`login|${account}`, { max: 20, windowMs: loginFailureWindowMs })) {
        throw new AppError("rate_limited");
      }
      return withCookie(request, reply, await auth.login(body, client(request)));
    },
  );

  defineRoute(
    app,
    demoLogin,
    { bodyBytes: 1024, perIp: { max: 20, windowMs: hour } },
    async ({ body, request, reply }) =>
      withCookie(request, reply, await auth.demoLogin(body, client(request))),
  );

  defineRoute(app, walletNonce, { perIp: { max: 30, windowMs: minute } }, ({ query, request }) =>
    auth.walletNonce(origin(request), query.address, query.chainId),
  );

  defineRoute(
    app,
    walletLogin,
    { bodyBytes: 4096, perIp: { max: 30, windowMs: minute } },
    async ({ body, request, reply }) =>
      withCookie(request, reply, await auth.walletLogin(origin(request), body, client(request))),
  );

  defineRoute(
    app,
    resetPassword,
    { bodyBytes: 2048, perIp: { max: 10, windowMs: hour } },
    async ({ body }) => {
      await auth.resetPassword(body);
      return {};
    },
  );

  defineRoute(app, logout, { bodyBytes: 256 }, async ({ body, user, reply }) => {
    await auth.logout(user, body.everywhere);
    reply.header(
      "set-cookie",
      `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    );
    return {};
  });

  defineRoute(app, getMe, {}, ({ user }) => auth.me(user));

  defineRoute(
    app,
    updateMe,
    { bodyBytes: 1024, perUser: { max: 30, windowMs: minute } },
    ({ body, user }) => auth.updateMe(user, body, options.avatars),
  );

  defineRoute(
    app,
    changePassword,
    { bodyBytes: 1024, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user, request, reply }) =>
      withCookie(
        request,
        reply,
        await auth.changePassword(user, body.currentPassword, body.password),
      ),
  );

  defineRoute(app, tradePasswordStatus, {}, async ({ user }) => ({
    exists: await auth.tradePassword.isSet(user.id),
  }));

  defineRoute(
    app,
    setTradePassword,
    { bodyBytes: 1024, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user }) => {
      await auth.tradePassword.set(user.id, body.tradePassword, body.currentTradePassword);
      return { exists: true as const };
    },
  );

  defineRoute(
    app,
    verifyTradePasswordEndpoint,
    { bodyBytes: 512, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user }) => {
      await auth.tradePassword.verify(user.id, body.tradePassword);
      return { valid: true as const };
    },
  );

  defineRoute(
    app,
    switchMode,
    { bodyBytes: 256, perUser: { max: 30, windowMs: minute } },
    ({ body, user }) => auth.switchMode(user, body.mode),
  );

  defineRoute(app, operatorOutbox, {}, ({ query }) => auth.outbox(query));

  // Security centre (issue 17): two-factor sign-in and active sessions.
  const twoFactor = auth.twoFactor;
  const directory = auth.sessionDirectory;
  if (!twoFactor || !directory) return;
  const codeLimit = { perUser: { max: 10, windowMs: 15 * minute } };

  defineRoute(app, twoFactorStatusEndpoint, {}, ({ user }) => twoFactor.status(user.id));

  defineRoute(
    app,
    twoFactorEnrolEndpoint,
    { bodyBytes: 512, ...codeLimit },
    async ({ body, user }) => {
      if (user.demoOnly) throw new AppError("demo_not_allowed");
      await auth.confirmPassword(user, body.password);
      return twoFactor.enrol(user.id, await auth.accountLabel(user));
    },
  );

  defineRoute(app, twoFactorConfirmEndpoint, { bodyBytes: 256, ...codeLimit }, ({ body, user }) =>
    twoFactor.confirm(user.id, body.code),
  );

  defineRoute(
    app,
    twoFactorDisableEndpoint,
    { bodyBytes: 512, ...codeLimit },
    async ({ body, user }) => {
      if (!(await twoFactor.enabled(user.id))) throw new AppError("two_factor_not_enabled");
      await auth.confirmPassword(user, body.password);
      await twoFactor.disable(user.id, body.code);
      return twoFactor.status(user.id);
    },
  );

  defineRoute(app, listSessionsEndpoint, {}, async ({ user }) => ({
    sessions: await directory.list(user),
  }));

  defineRoute(
    app,
    revokeSessionEndpoint,
    { perUser: { max: 30, windowMs: minute } },
    async ({ params, user }) => {
      await directory.revokeOne(user, params.sessionId);
      return {};
    },
  );

  defineRoute(
    app,
    revokeOtherSessionsEndpoint,
    { bodyBytes: 64, perUser: { max: 10, windowMs: minute } },
    async ({ user }) => ({ revoked: await directory.revokeOthers(user) }),
  );
};
