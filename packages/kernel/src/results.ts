// Building results. Rejections come from `fail` (reject-codes.ts): shared and frozen per code.

import type { NoValue } from "./types.ts";

/** The result of a successful command that reports nothing but success: shared and frozen. */
export const DONE: { ok: true; value: NoValue } = Object.freeze({
  ok: true,
  value: Object.freeze({}) as NoValue,
});

/** A successful result carrying `value`. */
export function ok<V>(value: V): { ok: true; value: V } {
  return { ok: true, value };
}
