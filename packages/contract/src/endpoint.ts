import { z } from "zod";
import type { ErrorCode } from "./errors.ts";

/** Who may call an endpoint: anyone, a signed-in user (bearer or cookie), or the operator. */
export type EndpointAuth = "none" | "user" | "operator";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One API endpoint, described once and shared by the server (validation, OpenAPI, docs page)
 * and the web app (typed client). Request schemas should be `z.strictObject` so unknown fields
 * are rejected; `defineRoute` makes plain objects strict anyway.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** Full path, Fastify style: `/api/v1/orders/:orderId`. */
  path: string;
  /** One line for the docs page. */
  summary: string;
  /** Groups endpoints on the docs page and in OpenAPI (`auth`, `me`, `spot`, …). */
  tag: string;
  auth: EndpointAuth;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The `data` of the success envelope. */
  response: z.ZodType;
  /** Error codes this endpoint can answer with besides the generic ones; for the docs. */
  errors?: readonly ErrorCode[];
  /** A longer description for the docs page. */
  description?: string;
}

/** Keeps the literal types of a spec, so handlers and clients see the exact schemas. */
export function defineEndpoint<const E extends EndpointSpec>(spec: E): E {
  if (!spec.path.startsWith("/api/")) throw new Error(`endpoint path must start with /api/`);
  if (spec.method === "GET" && spec.body) throw new Error(`GET ${spec.path} cannot have a body`);
  return spec;
}

/** The parsed request body of an endpoint (after defaults and transforms). */
export type EndpointBody<E extends EndpointSpec> = E["body"] extends z.ZodType
  ? z.output<E["body"]>
  : undefined;
export type EndpointQuery<E extends EndpointSpec> = E["query"] extends z.ZodType
  ? z.output<E["query"]>
  : undefined;
export type EndpointParams<E extends EndpointSpec> = E["params"] extends z.ZodType
  ? z.output<E["params"]>
  : undefined;
/** What a client sends: the body before defaults. */
export type EndpointInput<E extends EndpointSpec> = E["body"] extends z.ZodType
  ? z.input<E["body"]>
  : undefined;
/** The `data` the server answers with. */
export type EndpointData<E extends EndpointSpec> = z.output<E["response"]>;

/**
 * Custom refinements name a message key with `params: { key }` instead of an English text, so
 * the server can say it in the request's language (`validation.<key>` in the locale files).
 */
export function issueKey(key: ValidationKey) {
  return { params: { key } };
}

/** Message keys of our own validation rules (`validation.<key>` in every locale). */
export const validationKeys = [
  "too_many_decimals",
  "not_a_decimal",
  "must_be_positive",
  "passwords_differ",
  "agreement_required",
  "weak_password",
  "no_input_expected",
  "range_invalid",
  "required_for_order_type",
  "not_for_market_orders",
  "only_for_market_buys",
  "market_orders_are_ioc",
  "quantity_or_quote_amount",
] as const;
export type ValidationKey = (typeof validationKeys)[number];

/**
 * A non-negative decimal amount as a string ("12.5"), at most `maxDecimals` digits after the
 * point and `maxLength` characters; over-precise amounts are rejected, never rounded.
 */
export function decimalString(maxDecimals: number, options: { positive?: boolean } = {}) {
  return z
    .string()
    .max(40)
    .refine((s) => /^\d+(\.\d+)?$/.test(s), issueKey("not_a_decimal"))
    .refine((s) => (s.split(".")[1]?.length ?? 0) <= maxDecimals, {
      params: { key: "too_many_decimals", maxDecimals },
    })
    .refine((s) => !options.positive || /[1-9]/.test(s), issueKey("must_be_positive"));
}
