import { timingSafeEqual } from "node:crypto";
import type { EndpointAuth } from "@candor/contract";
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "./app-error.ts";

/** The signed-in user of a request, as the session says. */
export interface AuthUser {
  id: bigint;
  kind: "email" | "phone" | "wallet" | "demo";
  /** The account mode this session trades in. Demo-only users are always in demo mode. */
  mode: "real" | "demo";
  demoOnly: boolean;
  /** SHA-256 of the bearer token, hex: identifies the session for logout. */
  sessionTokenHash: string;
  /** When the session expires (epoch ms); open streams of the session end then. */
  sessionExpiresAtMs?: number;
  /** True while an operator has frozen the user: nothing that changes anything is accepted. */
  frozen?: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `app.authenticate("user")`; null when the endpoint is public. */
    user: AuthUser | null;
    /** True when the request carried the operator token or a named operator's session. */
    operator: boolean;
    /** The named operator of the request (issue 17); null for the bootstrap token. */
    operatorAccount: { id: string; role: string } | null;
  }
  interface FastifyInstance {
    /** A preHandler that requires a signed-in user or the operator token. */
    authenticate(level: Exclude<EndpointAuth, "none">): preHandlerAsyncHookHandler;
    /** Looks up the session of a request without failing; null when there is none. */
    sessionUser(request: FastifyRequest): Promise<AuthUser | null>;
    /** Looks up a bearer token (e.g. from a WebSocket `auth` message); null when not valid. */
    sessionUserByToken(token: string): Promise<AuthUser | null>;
  }
}

/** Name of the httpOnly session cookie set at sign-in. */
export const sessionCookieName = "candor_session";

/**
 * The header the web app sends with every request. A cookie-authenticated request that changes
 * something must carry it: a cross-site page cannot set a custom header without a CORS
 * preflight, which this server never grants, so a forged form or fetch fails (CSRF).
 */
export const csrfHeaderName = "x-candor-csrf";

/** Methods that change nothing, exempt from the CSRF check. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** A request's session token and where it came from. */
export interface RequestCredential {
  token: string;
  /** `Authorization: Bearer …` (API clients) or the HttpOnly session cookie (the web app). */
  via: "bearer" | "cookie";
}

/** The session token of a request: `Authorization: Bearer …`, else the session cookie. */
export function requestCredential(request: FastifyRequest): RequestCredential | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith("Bearer ")) {
    const token = header.slice(7).trim();
    return token ? { token, via: "bearer" } : undefined;
  }
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === sessionCookieName) {
      const token = safeDecode(value.join("="));
      return token ? { token, via: "cookie" } : undefined;
    }
  }
  return undefined;
}

/** The session token of a request, wherever it came from. */
export function requestToken(request: FastifyRequest): string | undefined {
  return requestCredential(request)?.token;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text) || undefined;
  } catch {
    return undefined;
  }
}

/** Where the plugin looks bearer tokens up (the auth module's sessions). */
export interface SessionLookup {
  /** The signed-in user of a bearer token; null when unknown, revoked or expired. */
  userByToken(token: string): Promise<AuthUser | null>;
}

export interface AuthenticateOptions {
  sessions: SessionLookup;
  /** The operator's bearer token; when unset, operator endpoints answer 401 to everyone. */
  operatorToken?: string;
  /**
   * Named operators' sessions (issue 17): resolves a bearer token to an operator whose role may
   * call `METHOD routePath`, throws `forbidden` when the role may not, null when the token is
   * not an operator session.
   */
  operatorSessions?: {
    authoriseRequest(
      token: string,
      method: string,
      routePath: string,
    ): Promise<{ id: string; role: string } | null>;
    /**
     * True once any named operator exists: from then on the bootstrap token is refused on
     * every endpoint (`bootstrap_token_retired`).
     */
    anyOperator(): Promise<boolean>;
  };
}

/** Decorates `app.authenticate(level)` and `request.user`; register once, before routes. */
export const authenticatePlugin = fp(async (app: FastifyInstance, options: AuthenticateOptions) => {
  app.decorateRequest("user", null);
  app.decorateRequest("operator", false);
  app.decorateRequest("operatorAccount", null);
  app.decorateRequest("auditUserId", null);

  async function sessionUser(request: FastifyRequest): Promise<AuthUser | null> {
    const token = requestToken(request);
    return token ? sessionUserByToken(token) : null;
  }

  async function sessionUserByToken(token: string): Promise<AuthUser | null> {
    return options.sessions.userByToken(token);
  }

  function isOperator(request: FastifyRequest): boolean {
    const expected = options.operatorToken;
    const header = request.headers.authorization;
    if (!expected || !header?.startsWith("Bearer ")) return false;
    const given = Buffer.from(header.slice(7).trim());
    const wanted = Buffer.from(expected);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  app.decorate("sessionUser", sessionUser);
  app.decorate("sessionUserByToken", sessionUserByToken);
  app.decorate("authenticate", (level: Exclude<EndpointAuth, "none">) => {
    const handler: preHandlerAsyncHookHandler = async (request) => {
      if (level === "operator") {
        if (isOperator(request)) {
          // The bootstrap token creates the first admin; once named operators exist, it is
          // retired everywhere (docs/decisions.md).
          if (await options.operatorSessions?.anyOperator()) {
            throw new AppError("bootstrap_token_retired");
          }
          request.operator = true;
          return;
        }
        const header = request.headers.authorization;
        const token = header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
        const account =
          token && options.operatorSessions
            ? await options.operatorSessions.authoriseRequest(
                token,
                request.method,
                request.routeOptions.url ?? "",
              )
            : null;
        if (!account) throw new AppError("unauthorized");
        request.operator = true;
        request.operatorAccount = account;
        return;
      }
      const credential = requestCredential(request);
      const user = credential ? await sessionUserByToken(credential.token) : null;
      if (!user) throw new AppError("unauthorized");
      if (
        credential?.via === "cookie" &&
        !safeMethods.has(request.method) &&
        request.headers[csrfHeaderName] !== "1"
      ) {
        throw new AppError("csrf_failed");
      }
      // Freezing ends a user's sessions; a lookup cached before that still changes nothing.
      if (user.frozen && !safeMethods.has(request.method)) throw new AppError("account_frozen");
      request.user = user;
    };
    return handler;
  });
});
