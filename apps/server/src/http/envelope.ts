import {
  errorMessage,
  resolveLocale,
  type ErrorCode,
  type ErrorEnvelope,
  type Locale,
} from "@candor/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ZodError } from "zod";
import { AppError } from "./app-error.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The request's language: `X-Lang`, then `?lang=`, then `Accept-Language`, then English. */
    locale: Locale;
  }
}

/** The success envelope: `{ code: 200, message, data }`. */
export function ok<T>(data: T, message = "OK") {
  return { code: 200, message, data };
}

/** Turns every error into the error envelope, with the message in the request's language. */
export const envelopePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest("locale", "en");
  app.addHook("onRequest", async (request) => {
    const xLang = request.headers["x-lang"];
    // `?lang=` serves links and scripts that cannot set headers; it is not part of any schema.
    const lang = /[?&]lang=([A-Za-z-]{2,10})(?:&|$)/.exec(request.url)?.[1];
    request.locale = resolveLocale(
      (Array.isArray(xLang) ? xLang[0] : xLang) ?? lang,
      request.headers["accept-language"],
    );
  });

  app.setNotFoundHandler(async (request, reply) => sendError(request, reply, "not_found"));

  app.setErrorHandler(async (error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError)
      return sendError(request, reply, error.code, error.issues, error.params);
    if (error instanceof ZodError) {
      const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      return sendError(request, reply, "validation_failed", issues);
    }
    const code = codeOfFastifyError(error);
    if (code === "internal_error") request.log.error({ err: error }, "unhandled error");
    return sendError(request, reply, code);
  });
});

function codeOfFastifyError(error: FastifyError): ErrorCode {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "malformed_json";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "payload_too_large";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "unsupported_media_type";
  }
  if (error.statusCode === 429) return "rate_limited";
  // An API node (ROLE=api) whose command no leader acknowledged in time, or whose follower is
  // behind an acknowledged one: unavailable for now; the client retries by its id.
  if (error.name === "NoLeaderError" || error.name === "FollowerBehindError") {
    return "service_unavailable";
  }
  if (error.statusCode === 400 && error.name === "SyntaxError") return "malformed_json";
  if (error.validation) return "validation_failed";
  return "internal_error";
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  issues?: { path: string; message: string }[],
  params?: Readonly<Record<string, string>>,
) {
  const error = new AppError(code);
  const body: ErrorEnvelope = {
    code: error.status,
    message: errorMessage(request.locale, code, params),
    data: null,
    error: code,
    ...(issues ? { issues } : {}),
  };
  return reply.status(error.status).send(body);
}
