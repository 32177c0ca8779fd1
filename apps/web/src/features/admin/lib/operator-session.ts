import { useSyncExternalStore } from "react";

/** The operator roles (contract: OperatorRole). */
export type OperatorRole = "support" | "compliance" | "finance" | "admin";

/** The signed-in operator as the back office keeps it. */
export interface OperatorSession {
  /** The operator's bearer token (operatorSignIn). */
  token: string;
  expiresAt: string;
  operator: { id: string; email: string; displayName: string; role: OperatorRole };
}

/**
 * The operator's session lives in `sessionStorage`, apart from the user's session (an HttpOnly
 * cookie): it ends with the tab, and a user signed in to the app in the same browser is not an
 * operator because of it, nor the other way round.
 */
export const operatorSessionKey = "candor.operatorSession";

const listeners = new Set<() => void>();
let cachedText: string | null | undefined;
let cached: OperatorSession | null = null;

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reads a stored session; null when there is none, it is malformed or it has expired. */
export function parseOperatorSession(text: string | null, nowMs: number): OperatorSession | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<OperatorSession>;
    if (typeof value.token !== "string" || !value.token) return null;
    if (typeof value.expiresAt !== "string" || !value.operator?.id) return null;
    const expiresAtMs = Date.parse(value.expiresAt);
    if (!Number.isFinite(expiresAtMs) || expiresAtMs <= nowMs) return null;
    return value as OperatorSession;
  } catch {
    return null;
  }
}

/** The signed-in operator, or null. */
export function getOperatorSession(): OperatorSession | null {
  const text = storage()?.getItem(operatorSessionKey) ?? null;
  if (text !== cachedText) {
    cachedText = text;
    cached = parseOperatorSession(text, Date.now());
  }
  return cached;
}

function emit() {
  for (const listener of listeners) listener();
}

export function setOperatorSession(session: OperatorSession) {
  storage()?.setItem(operatorSessionKey, JSON.stringify(session));
  emit();
}

export function clearOperatorSession() {
  storage()?.removeItem(operatorSessionKey);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The operator session as React state. */
export function useOperatorSession(): OperatorSession | null {
  return useSyncExternalStore(subscribe, getOperatorSession);
}

/** The pages each role may use (the server's operator-roles.ts decides; this only hides links). */
export const pagesByRole = {
  support: [
    "users",
    "support",
    "withdrawals",
    "bank-deposits",
    "loans",
    "content",
    "markets",
    "programmes",
  ],
  compliance: [
    "users",
    "identity",
    "withdrawals",
    "bank-deposits",
    "loans",
    "markets",
    "programmes",
    "audit",
  ],
  finance: ["users", "withdrawals", "bank-deposits", "loans", "markets", "programmes", "funding"],
  admin: [
    "users",
    "support",
    "identity",
    "bank-deposits",
    "withdrawals",
    "loans",
    "content",
    "products",
    "markets",
    "programmes",
    "funding",
    "audit",
    "operators",
  ],
} as const satisfies Record<OperatorRole, readonly AdminPage[]>;

/** The back office's pages, in menu order. */
export const adminPages = [
  "users",
  "support",
  "identity",
  "bank-deposits",
  "withdrawals",
  "loans",
  "content",
  "products",
  "markets",
  "programmes",
  "funding",
  "audit",
  "operators",
] as const;
export type AdminPage = (typeof adminPages)[number];

/** The menu of a role, in menu order. */
export function menuFor(role: OperatorRole): AdminPage[] {
  const allowed = new Set<AdminPage>(pagesByRole[role]);
  return adminPages.filter((page) => allowed.has(page));
}
