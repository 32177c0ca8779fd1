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
  /** 1 for a simulated (demo) user, 0 for a real one (spec §3). */
  is_virtual: 0 | 1;
}

/** What is cached while signed in: the bearer token and the user. */
export interface Session {
  token: string;
  user: SessionUser;
}

const tokenKey = "token";
const userKey = "userInfo";
/** The real session kept aside while the demo user is active, so switching back needs no login. */
const realSessionKey = "realSession";

const listeners = new Set<() => void>();
let current: Session | null | undefined;

function read(): Session | null {
  const token = localCache().get<string>(tokenKey);
  const user = localCache().get<SessionUser>(userKey);
  return token && user ? { token, user } : null;
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

/** Stores a new session for 7 days (the cache's default lifetime). */
export function setSession(session: Session) {
  localCache().set(tokenKey, session.token);
  localCache().set(userKey, session.user);
  emit();
}

/** Forgets the session (and any real session kept aside). */
export function clearSession() {
  localCache().remove(tokenKey);
  localCache().remove(userKey);
  localCache().remove(realSessionKey);
  emit();
}

/** Whether the session belongs to a simulated (demo) user. */
export function isDemo(session: Session | null): boolean {
  return session?.user.is_virtual === 1;
}

/** Keeps the real session aside while the demo user is active. */
export function stashRealSession(session: Session) {
  localCache().set(realSessionKey, session);
}

/** Takes the real session kept aside, if any (and still within its lifetime). */
export function takeRealSession(): Session | undefined {
  const session = localCache().get<Session>(realSessionKey);
  localCache().remove(realSessionKey);
  return session;
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

/** The session as React state; re-renders on sign-in, sign-out and changes in other tabs. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession);
}
