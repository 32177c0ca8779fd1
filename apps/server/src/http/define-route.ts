import {
  messagesByLocale,
  type EndpointBody,
  type EndpointData,
  type EndpointParams,
  type EndpointQuery,
  type EndpointSpec,
  type Locale,
  type ValidationKey,
} from "@candor/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "./app-error.ts";
import type { AuthUser } from "./authenticate.ts";
import { ok } from "./envelope.ts";
import { FileReply } from "./file-reply.ts";
import { auditEntryOf } from "./operator-audit.ts";
import type { RateLimiter, RateRule } from "./rate-limit.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Every endpoint registered through `defineRoute`, for OpenAPI and the docs page. */
    endpoints: EndpointSpec[];
    /** Shared in-memory rate limiter. */
    rateLimiter: RateLimiter;
  }
}

/** Per-route limits: body size, and hits per client IP and per signed-in user. */
export interface RouteLimits {
  /** Largest body accepted, in bytes (default: the app's limit, 64 KiB). */
  bodyBytes?: number;
  perIp?: RateRule;
  perUser?: RateRule;
}

/** What a handler receives: the validated request parts and the signed-in user. */
export interface RouteContext<E extends EndpointSpec> {
  body: EndpointBody<E>;
  query: EndpointQuery<E>;
  params: EndpointParams<E>;
  /** The signed-in user when the endpoint's auth is "user"; null on public endpoints. */
  user: E["auth"] extends "user" ? AuthUser : AuthUser | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

// Response data is checked against its schema outside production, to catch drift early.
const checkResponses = process.env.NODE_ENV !== "production";

/**
 * Registers a route for a contract endpoint: authenticates, rate-limits, validates body, query
 * and params (unknown fields, wrong types, over-long strings → `validation_failed` with one
 * issue per field, in the request's language), calls the handler and wraps its result in the
 * success envelope. The handler may also throw `AppError`.
 */
export function defineRoute<const E extends EndpointSpec>(
  app: FastifyInstance,
  endpoint: E,
  limits: RouteLimits,
  handler: (
    context: RouteContext<E>,
  ) => Promise<EndpointData<E> | FileReply> | EndpointData<E> | FileReply,
) {
  app.endpoints.push(endpoint);
  const body = strict(endpoint.body);
  const query = strict(endpoint.query);
  const params = strict(endpoint.params);
  const authenticate = endpoint.auth === "none" ? undefined : app.authenticate(endpoint.auth);

  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(limits.bodyBytes ? { bodyLimit: limits.bodyBytes } : {}),
    handler: async (request, reply) => {
      const label = `${endpoint.method} ${endpoint.path}`;
      if (limits.perIp && !app.rateLimiter.hit(`${label}|ip|${request.ip}`, limits.perIp)) {
        throw new AppError("rate_limited");
      }
      // Public endpoints skip the session lookup (no database query on hot public reads).
      if (authenticate) await authenticate.call(app, request, reply);
      if (limits.perUser && request.user) {
        if (!app.rateLimiter.hit(`${label}|user|${request.user.id}`, limits.perUser)) {
          throw new AppError("rate_limited");
        }
      }
      // Check every part before answering, so one reply names every field that is wrong.
      const issues: { path: string; message: string }[] = [];
      const context = {
        params: parse(params, request.params, "params", request, issues),
        query: parse(query, withoutLang(request.query), "query", request, issues),
        body: parse(
          body,
          request.body ?? (endpoint.body ? {} : undefined),
          "body",
          request,
          issues,
        ),
        user: request.user,
        request,
        reply,
      } as RouteContext<E>;
      if (issues.length > 0) throw new AppError("validation_failed", issues);
      const data = await handler(context);
      // The one audit hook (issue 17): every successful operator request that changes
      // something is recorded with who, why and whom it touched, before the answer leaves.
      if (endpoint.auth === "operator" && endpoint.method !== "GET" && app.operatorAudit) {
        await app.operatorAudit(auditEntryOf(request, endpoint, context.params, context.body));
      }
      if (data instanceof FileReply) {
        reply.header("content-type", data.contentType);
        reply.header("content-disposition", `${data.disposition}; filename="${data.fileName}"`);
        return data.body;
      }
      if (checkResponses) {
        const checked = endpoint.response.safeParse(data);
        if (!checked.success) {
          request.log.error({ issues: checked.error.issues }, `response of ${label} off contract`);
          throw new AppError("internal_error");
        }
      }
      return ok(data);
    },
  });
}

/** `?lang=` picks the message language (envelope plugin) and is no endpoint's parameter. */
function withoutLang(query: unknown): unknown {
  if (!query || typeof query !== "object" || !("lang" in query)) return query;
  const { lang: _, ...rest } = query as Record<string, unknown>;
  return rest;
}

function strict(schema: z.ZodType | undefined): z.ZodType | undefined {
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

function parse(
  schema: z.ZodType | undefined,
  value: unknown,
  part: string,
  request: FastifyRequest,
  issues: { path: string; message: string }[],
): unknown {
  if (!schema) {
    // An endpoint without a body schema takes no body, and none without query takes no query.
    const empty =
      value === undefined ||
      value === null ||
      (typeof value === "object" && Object.keys(value).length === 0);
    if (!empty) {
      issues.push({
        path: part,
        message: localIssueMessage(request.locale, { code: "no_input_expected" }),
      });
    }
    return undefined;
  }
  const result = schema.safeParse(value, { error: zodErrorMap(request.locale) });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    issues.push({ path: [part, ...issue.path.map(String)].join("."), message: issue.message });
  }
  return undefined;
}

const zodLocaleByLocale: Record<Locale, () => { localeError: z.core.$ZodErrorMap }> = {
  en: z.locales.en,
  "zh-Hant": z.locales.zhTW,
  jp: z.locales.ja,
  kr: z.locales.ko,
  th: z.locales.th,
  es: z.locales.es,
  pt: z.locales.pt,
  de: z.locales.de,
  fr: z.locales.fr,
  sv: z.locales.sv,
  it: z.locales.it,
  ru: z.locales.ru,
};
const errorMapCache = new Map<Locale, z.core.$ZodErrorMap>();

/**
 * Zod's own translations for the generic issues (type, length, format, unknown keys), and our
 * locale files for the rules we name with `issueKey` (decimals, passwords, agreement).
 */
export function zodErrorMap(locale: Locale): z.core.$ZodErrorMap {
  const cached = errorMapCache.get(locale);
  if (cached) return cached;
  const generic = zodLocaleByLocale[locale]().localeError;
  const map: z.core.$ZodErrorMap = (issue) => {
    const params = (issue as { params?: Record<string, unknown> }).params;
    const key = params?.key;
    if (issue.code === "custom" && typeof key === "string") {
      return localIssueMessage(locale, { code: key as ValidationKey, params });
    }
    return generic(issue);
  };
  errorMapCache.set(locale, map);
  return map;
}

function localIssueMessage(
  locale: Locale,
  issue: { code: ValidationKey; params?: Record<string, unknown> },
): string {
  const texts = messagesByLocale[locale].validation as Record<string, string>;
  const english = messagesByLocale.en.validation as Record<string, string>;
  const template = texts[issue.code] ?? english[issue.code] ?? issue.code;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    String(issue.params?.[name] ?? ""),
  );
}
