import type { EndpointData, EndpointInput, EndpointSpec, ErrorEnvelope } from "@candor/contract";
import type { z } from "zod";
import i18n from "i18next";
import { clearSession, getSession } from "./session.ts";

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

/** The header that marks a request as the app's own (the server's CSRF check). */
export const csrfHeader = "X-Candor-CSRF";

/** Request and socket time-out (spec §9). */
export const requestTimeoutMs = 60_000;

/**
 * What the client needs of a contract endpoint `E` at run time: its method, path and auth,
 * without its zod schemas (`api-endpoints.ts` lists them, typed against the contract). `E`
 * itself is carried in the type only, so a call is typed by the contract's schemas.
 */
export interface EndpointRef<E extends EndpointSpec = EndpointSpec> {
  readonly method: E["method"];
  /** Full path with `:param` segments, e.g. `/api/v1/notices/:noticeId`. */
  readonly path: E["path"];
  readonly auth: E["auth"];
  /** Never set: names the contract endpoint for the compiler. */
  readonly endpoint?: E;
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

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a call of endpoint `E` takes: its path parameters, query and body, as the contract says. */
export interface EndpointCallInput<E extends EndpointSpec> {
  params?: InputOf<E["params"]>;
  query?: InputOf<E["query"]>;
  body?: EndpointInput<E>;
  /** A multipart body (file uploads, `POST /api/v1/uploads`) instead of JSON. */
  form?: FormData;
  /**
   * A bearer token instead of the session cookie: the back office's operator session
   * (`features/admin`), kept apart from the user's.
   */
  token?: string;
  /** Extra request headers (the support chat's visitor token, `x-support-token`). */
  headers?: Record<string, string>;
}

function requestHeaders(input: {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}): Headers {
  // The server refuses a change made by cookie without this header (a cross-site page cannot set it).
  const headers = new Headers({ "X-Lang": i18n.language, [csrfHeader]: "1" });
  if (input.body !== undefined) headers.set("Content-Type", "application/json");
  if (input.token) headers.set("Authorization", `Bearer ${input.token}`);
  for (const [name, value] of Object.entries(input.headers ?? {})) headers.set(name, value);
  return headers;
}

/**
 * Calls an endpoint of `@candor/contract` (by its row in `api-endpoints.ts`) and unwraps the
 * envelope; the input and the answer are typed by the contract's schemas. Every request carries
 * the current language (`X-Lang`) and the CSRF header; the session travels in the server's
 * HttpOnly cookie (same origin), never in script-readable storage. A 401 on an endpoint that
 * needs a signed-in user means the cookie's session ended: the cached user is forgotten.
 * Non-200 envelopes become `ApiError` with the server's localised message; a network failure
 * or a non-JSON answer becomes `network`.
 */
export async function callEndpoint<E extends EndpointSpec>(
  endpoint: EndpointRef<E>,
  input: EndpointCallInput<E> = {},
): Promise<EndpointData<E>> {
  const url = endpointUrl(
    endpoint.path,
    input.params as Record<string, string> | undefined,
    input.query as Record<string, string | number | undefined> | undefined,
  );
  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers: requestHeaders(input),
      credentials: input.token ? "omit" : "same-origin",
      ...(input.form
        ? { body: input.form }
        : input.body === undefined
          ? {}
          : { body: JSON.stringify(input.body) }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch {
    throw new ApiError(0, "network", i18n.t("errors.network"));
  }
  const body = (await response.json().catch(() => null)) as
    { code: number; message: string; data: EndpointData<E> } | ErrorEnvelope | null;
  if (!body || typeof body !== "object" || typeof body.code !== "number") {
    throw new ApiError(response.status, "network", i18n.t("errors.network"));
  }
  if (body.code !== 200) {
    const error = "error" in body && body.error ? body.error : "internal_error";
    if (body.code === 401 && endpoint.auth === "user" && getSession()) clearSession();
    const issues = "issues" in body && body.issues ? body.issues : [];
    throw new ApiError(body.code, error, body.message, issues);
  }
  return (body as { data: EndpointData<E> }).data;
}

/**
 * Fetches a file an endpoint answers with (an upload's image) as a `Blob`, for an `<img>` by
 * object URL when the request needs a bearer token (the operator's documents viewer). An error
 * envelope becomes `ApiError` as in `callEndpoint`.
 */
export async function callEndpointBlob<E extends EndpointSpec>(
  endpoint: EndpointRef<E>,
  input: Pick<EndpointCallInput<E>, "params" | "token" | "headers"> = {},
): Promise<Blob> {
  const url = endpointUrl(endpoint.path, input.params as Record<string, string> | undefined);
  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers: requestHeaders(input),
      credentials: input.token ? "omit" : "same-origin",
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch {
    throw new ApiError(0, "network", i18n.t("errors.network"));
  }
  if (response.ok) return response.blob();
  const body = (await response.json().catch(() => null)) as ErrorEnvelope | null;
  if (!body || typeof body !== "object") {
    throw new ApiError(response.status, "network", i18n.t("errors.network"));
  }
  throw new ApiError(response.status, body.error ?? "internal_error", body.message);
}
