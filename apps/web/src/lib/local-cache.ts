/** Default lifetime of a cached entry: 7 days, in seconds (spec §3). */
export const cacheLifetimeSecondsDefault = 604_800;

/** The part of `Storage` the cache needs; tests pass a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** How an entry is kept: the value, when it was stored, and how long it lives. */
interface CacheEntry<T> {
  value: T;
  startMs: number;
  lifetimeSeconds: number;
}

/** A key-value cache over `localStorage` whose entries expire; expired entries are removed on read. */
export interface LocalCache {
  get<T>(key: string): T | undefined;
  set<T>(key: string, value: T, lifetimeSeconds?: number): void;
  remove(key: string): void;
}

/** Makes a cache; `now` returns milliseconds since the epoch and is injected for tests. */
export function createLocalCache(
  storage: KeyValueStorage,
  now: () => number = () => Date.now(),
  prefix = "candor.",
): LocalCache {
  return {
    get<T>(key: string): T | undefined {
      const raw = storage.getItem(prefix + key);
      if (raw === null) return undefined;
      let entry: CacheEntry<T>;
      try {
        entry = JSON.parse(raw) as CacheEntry<T>;
      } catch {
        storage.removeItem(prefix + key);
        return undefined;
      }
      const valid =
        typeof entry === "object" &&
        entry !== null &&
        typeof entry.startMs === "number" &&
        typeof entry.lifetimeSeconds === "number";
      if (!valid || now() >= entry.startMs + entry.lifetimeSeconds * 1000) {
        storage.removeItem(prefix + key);
        return undefined;
      }
      return entry.value;
    },
    set<T>(key: string, value: T, lifetimeSeconds = cacheLifetimeSecondsDefault) {
      const entry: CacheEntry<T> = { value, startMs: now(), lifetimeSeconds };
      storage.setItem(prefix + key, JSON.stringify(entry));
    },
    remove(key: string) {
      storage.removeItem(prefix + key);
    },
  };
}

function safeLocalStorage(): KeyValueStorage {
  try {
    return window.localStorage;
  } catch {
    // Private modes may forbid storage; keep the values for this page only.
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    };
  }
}

let browserCache: LocalCache | undefined;

/** The app's cache in this browser. */
export function localCache(): LocalCache {
  browserCache ??= createLocalCache(safeLocalStorage());
  return browserCache;
}
