/**
 * The app's own record of the browser history, so the navigation rules of spec §2 can be
 * applied: the browser lets a page go back by a number of steps but never read what is there.
 * Entries are indexed like the router's `history.state.idx`. Pure: no DOM, no router.
 */

/** The pages visited in this tab, by history index; null where the index is not known. */
export interface NavigationHistory {
  entries: (string | null)[];
  /** The index of the page being shown. */
  index: number;
}

/** What the router should do: move through the history, push a page, replace it, or nothing. */
export type NavigationAction =
  | { kind: "go"; delta: number }
  | { kind: "push"; path: string }
  | { kind: "replace"; path: string }
  | { kind: "none" };

export const homePath = "/";

/** The login page: back from it skips every page of the login flow. */
export const loginPath = "/login";

/** Pages of the login flow; after login, none of them is returned to. */
const loginFlowPaths = new Set([loginPath, "/register", "/forgot-password"]);

function pathname(path: string): string {
  return path.split(/[?#]/)[0] || homePath;
}

/** Whether a path is part of the login flow (login, register, forgot password). */
export function isLoginFlowPath(path: string): boolean {
  return loginFlowPaths.has(pathname(path));
}

export const emptyHistory: NavigationHistory = { entries: [], index: 0 };

/**
 * Records that the router now shows `path` at history `index`. A push drops the forward
 * entries, as the browser does; a pop or replace keeps them.
 */
export function recordNavigation(
  history: NavigationHistory,
  index: number,
  path: string,
  type: "PUSH" | "POP" | "REPLACE",
): NavigationHistory {
  const entries = type === "PUSH" ? history.entries.slice(0, index) : [...history.entries];
  while (entries.length < index) entries.push(null);
  entries[index] = path;
  return { entries, index };
}

/** The nearest earlier entry that satisfies `accept`, as a step back; or undefined. */
function nearestBack(history: NavigationHistory, accept: (path: string) => boolean) {
  for (let i = history.index - 1; i >= 0; i -= 1) {
    const entry = history.entries[i];
    if (entry != null && accept(entry)) return i - history.index;
  }
  return undefined;
}

/** To home: by going back if home is the first page, else by replacing this page. */
function toHome(history: NavigationHistory): NavigationAction {
  if (history.entries[history.index] === homePath) return { kind: "none" };
  return { kind: "replace", path: homePath };
}

/**
 * Back: from the login page to the previous page outside the login flow; from any other page to
 * the previous page; on the only page (or when the previous one is not known) to home.
 */
export function backAction(history: NavigationHistory): NavigationAction {
  const current = history.entries[history.index];
  if (current != null && pathname(current) === loginPath) {
    const delta = nearestBack(history, (path) => !isLoginFlowPath(path));
    return delta === undefined ? toHome(history) : { kind: "go", delta };
  }
  const previous = history.index > 0 ? history.entries[history.index - 1] : null;
  return previous == null ? toHome(history) : { kind: "go", delta: -1 };
}

/** After login: back to the last page outside the login flow, or home if there is none. */
export function afterLoginAction(history: NavigationHistory): NavigationAction {
  const delta = nearestBack(history, (path) => !isLoginFlowPath(path));
  return delta === undefined ? { kind: "replace", path: homePath } : { kind: "go", delta };
}

/**
 * Top-level navigation (tab bar, home): returns to the page if it is already in the history,
 * the nearest such entry first, instead of stacking it again; otherwise pushes it.
 */
export function topLevelAction(history: NavigationHistory, path: string): NavigationAction {
  if (history.entries[history.index] === path) return { kind: "none" };
  const back = nearestBack(history, (entry) => entry === path);
  if (back !== undefined) return { kind: "go", delta: back };
  for (let i = history.index + 1; i < history.entries.length; i += 1) {
    if (history.entries[i] === path) return { kind: "go", delta: i - history.index };
  }
  return { kind: "push", path };
}
