import type { ErrorEnvelope } from "@candor/contract";
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
 * Calls an endpoint described in `@candor/contract`. The token is sent when the endpoint
 * requires a user; the caller names the data type the contract's `response` schema gives.
 */
export function callEndpoint<TData>(
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
