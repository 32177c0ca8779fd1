import i18n from "i18next";
import type { ErrorTextCode } from "./i18n-resources.ts";

/**
 * The translation key of an error code from the API (`errors.<code>`, DESIGN §4). A code that
 * has no text, in English either, becomes `internal_error`.
 */
export function errorKey(
  code: string,
  exists: (key: string) => boolean = (key) => i18n.exists(key),
): `errors.${ErrorTextCode}` {
  return knownErrorKey(code, exists) ?? "errors.internal_error";
}

/** The translation key of an error code, or null when it has no text. */
export function knownErrorKey(
  code: string,
  exists: (key: string) => boolean = (key) => i18n.exists(key),
): `errors.${ErrorTextCode}` | null {
  return exists(`errors.${code}`) ? (`errors.${code}` as `errors.${ErrorTextCode}`) : null;
}
