import { useSyncExternalStore } from "react";
import { localCache } from "./local-cache.ts";

/*
 * Favourite markets (issue 18): instrument ids starred on quotes and home, kept on the device
 * (a year), most recent first. Nothing is sent to the server.
 */

const key = "favourites";
const lifetimeSeconds = 365 * 86_400;
/** At most this many favourites are kept (the oldest go first). */
export const favouritesMax = 50;

const listeners = new Set<() => void>();
let current: readonly string[] | undefined;

function read(): readonly string[] {
  const stored = localCache().get<unknown>(key);
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
}

/** The starred instrument ids, most recent first. */
export function getFavourites(): readonly string[] {
  current ??= read();
  return current;
}

/** Stars an instrument, or unstars it when it is starred. */
export function toggleFavourite(instrumentId: string) {
  const list = getFavourites();
  const next = list.includes(instrumentId)
    ? list.filter((id) => id !== instrumentId)
    : [instrumentId, ...list].slice(0, favouritesMax);
  localCache().set(key, next, lifetimeSeconds);
  current = next;
  for (const listener of listeners) listener();
}

/** The favourites, re-rendering when they change. */
export function useFavourites(): readonly string[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getFavourites,
    getFavourites,
  );
}
