import { useSyncExternalStore } from "react";
import { localCache } from "./local-cache.ts";

/** The signed-in user as the app keeps it (spec §3: `userInfo`). */
export interface SessionUser {
  /** The server's user id, as a string. */
  id: string;
  /** E-mail, phone, or the wallet address for wallet users. */
  username: string;
  /** Shown in settings; falls back to the username. */
  nickname?: string;
  /** 1 while the session trades demo (simulated) money, 0 for real money (spec §3). */
  is_virtual: 0 | 1;
  /** A demo-only user, who cannot switch to real money. */
  demoOnly?: boolean;
}

/**
 * What is cached while signed in: the user, for showing. The session token itself is never
 * readable by the app: the server keeps it in an HttpOnly cookie (docs/decisions.md, issue 14),
 * so a script injected into the page cannot steal it.
 */
export interface Session {
  user: SessionUser;
}

/** Where older versions kept the bearer token; removed on sight. */
const legacyTokenKey = "token";
const userKey = "userInfo";

const listeners = new Set<() => void>();
let current: Session | null | undefined;

function read(): Session | null {
  localCache().remove(legacyTokenKey);
  const user = localCache().get<SessionUser>(userKey);
  return user ? { user } : null;
}

function emit() {
  current = read();
  for (const listener of listeners) listener();
}

/** The current session, or null when signed out. Expired entries (7 days) count as signed out. */
export function getSession(): Session | null {
  current ??= read();
  return current;
}

/** Remembers the signed-in user for 7 days (the cache's default lifetime, the cookie's too). */
export function setSession(session: Session) {
  localCache().set(userKey, session.user);
  emit();
}

/** Forgets the session (the server clears its cookie on logout). */
export function clearSession() {
  localCache().remove(legacyTokenKey);
  localCache().remove(userKey);
  emit();
}

/** Whether the session belongs to a simulated (demo) user. */
export function isDemo(session: Session | null): boolean {
  return session?.user.is_virtual === 1;
}

/** Replaces the cached user (after a mode switch or a profile change). */
export function updateSessionUser(user: SessionUser) {
  const session = getSession();
  if (!session) return;
  setSession({ ...session, user });
}

const demoResumeKey = "demoResumeKey";

/** The key that resumes the same demo user on the next "log in as demo" (spec §4). */
export function demoResume(): string | undefined {
  return localCache().get<string>(demoResumeKey);
}

export function rememberDemoResume(key: string) {
  localCache().set(demoResumeKey, key);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = () => emit();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Calls `listener` on sign-in, sign-out, user changes and changes in other tabs. */
export function onSessionChange(listener: () => void): () => void {
  return subscribe(listener);
}

/** The session as React state; re-renders on sign-in, sign-out and changes in other tabs. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession);
}
