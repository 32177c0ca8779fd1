import type { ErrorEnvelope } from "@candor/contract";
import i18n from "i18next";

/** An API error: the stable code and the server's message, already in the user's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Calls the API and unwraps the envelope; every request carries the current language. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("X-Lang", i18n.language);
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const response = await fetch(`/api/v1${path}`, { ...init, headers });
  const body = (await response.json().catch(() => null)) as
    { code: number; message: string; data: T } | ErrorEnvelope | null;
  if (!body) throw new ApiError(response.status, "internal_error", i18n.t("errors.network"));
  if (body.code !== 200) {
    const error = "error" in body && body.error ? body.error : "internal_error";
    throw new ApiError(body.code, error, body.message);
  }
  return body.data as T;
}
