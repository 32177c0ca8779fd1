import type { EndpointData, EndpointInput, EndpointSpec, ErrorEnvelope } from "@candor/contract";
import type { z } from "zod";
import i18n from "i18next";
import { getSession } from "./session.ts";

/** An API error: the stable code and the server's message, already in the user's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Request and socket time-out (spec §9). */
export const requestTimeoutMs = 60_000;

/** Options of one call: whether to send the bearer token (spec §7: only when asked). */
export interface ApiFetchOptions extends RequestInit {
  /** Adds `Authorization: Bearer <token>` from the cached session. */
  auth?: boolean;
}

/**
 * Calls the API and unwraps the envelope. Every request carries the current language
 * (`X-Lang`); the token only when `auth` is set. Non-200 envelopes become `ApiError` with the
 * server's localised message; a network failure or a non-JSON answer becomes `network`.
 */
export async function apiFetch<T>(path: string, init: ApiFetchOptions = {}): Promise<T> {
  const { auth, ...requestInit } = init;
  const headers = new Headers(requestInit.headers);
  headers.set("X-Lang", i18n.language);
  if (requestInit.body !== undefined) headers.set("Content-Type", "application/json");
  if (auth) {
    const token = getSession()?.token;
    if (token) headers.set("Authorization", `Bearer ${token}`);
  }
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      ...requestInit,
      headers,
      signal: requestInit.signal ?? AbortSignal.timeout(requestTimeoutMs),
    });
  } catch {
    throw new ApiError(0, "network", i18n.t("errors.network"));
  }
  const body = (await response.json().catch(() => null)) as
    { code: number; message: string; data: T } | ErrorEnvelope | null;
  if (!body || typeof body !== "object" || typeof body.code !== "number") {
    throw new ApiError(response.status, "network", i18n.t("errors.network"));
  }
  if (body.code !== 200) {
    const error = "error" in body && body.error ? body.error : "internal_error";
    const issues = "issues" in body && body.issues ? body.issues : [];
    throw new ApiError(body.code, error, body.message, issues);
  }
  return body.data as T;
}

/** The shape of an endpoint from `defineEndpoint` that the client needs. */
export interface EndpointRef {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Full path with `:param` segments, e.g. `/api/v1/notices/:noticeId`. */
  path: string;
  auth: "none" | "user" | "operator";
}

/** Fills `:name` segments and appends the query; values are URI-encoded. */
export function endpointUrl(
  path: string,
  params: Record<string, string> = {},
  query: Record<string, string | number | undefined> = {},
): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

/**
 * Calls an endpoint by its method, path and auth, naming the data type; for the home route,
 * which must not load the contract's zod schemas (see `callEndpoint` for the typed form).
 */
export function callPath<TData>(
  endpoint: EndpointRef,
  input: {
    params?: Record<string, string>;
    query?: Record<string, string | number | undefined>;
    body?: unknown;
  } = {},
): Promise<TData> {
  const url = endpointUrl(endpoint.path, input.params, input.query);
  if (!url.startsWith("/api/v1/")) throw new Error(`not an /api/v1 path: ${url}`);
  return apiFetch<TData>(url.slice("/api/v1".length), {
    method: endpoint.method,
    auth: endpoint.auth !== "none",
    ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
  });
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a call of endpoint `E` takes: its path parameters, query and body, as the contract says. */
export interface EndpointCallInput<E extends EndpointSpec> {
  params?: InputOf<E["params"]>;
  query?: InputOf<E["query"]>;
  body?: EndpointInput<E>;
}

/**
 * Calls an endpoint defined with `defineEndpoint` in `@candor/contract`: the input and the
 * answer are typed by its schemas, and the token is sent when it needs a signed-in user.
 */
export function callEndpoint<E extends EndpointSpec>(
  endpoint: E,
  input: EndpointCallInput<E> = {},
): Promise<EndpointData<E>> {
  return callPath<EndpointData<E>>(endpoint, {
    params: input.params as Record<string, string> | undefined,
    query: input.query as Record<string, string | number | undefined> | undefined,
    body: input.body,
  });
}
