import { useCallback, useEffect, useMemo } from "react";
import { useLocation, useNavigate, useNavigationType } from "react-router";
import {
  afterLoginAction,
  backAction,
  emptyHistory,
  recordNavigation,
  topLevelAction,
  type NavigationAction,
  type NavigationHistory,
} from "./nav-history.ts";

const storageKey = "candor.navigation";

/** Survives a reload of the tab, like the browser's own history does. */
function load(): NavigationHistory {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(storageKey) ?? "null") as NavigationHistory;
    if (parsed && Array.isArray(parsed.entries) && typeof parsed.index === "number") return parsed;
  } catch {
    // A damaged entry is the same as none.
  }
  return emptyHistory;
}

let history: NavigationHistory = load();

/**
 * The router's index of the current history entry. An entry the router did not make (an
 * address typed or a link edited by hand) has none: it came after the page we knew, so it is
 * numbered as the next one and the number is stored where the router looks for it.
 */
function historyIndex(): number {
  const state = window.history.state as { idx?: unknown } | null;
  if (typeof state?.idx === "number") return state.idx;
  const idx = history.entries.length === 0 ? 0 : history.index + 1;
  window.history.replaceState({ ...state, idx }, "");
  return idx;
}

/** Records every location the router shows; mount once, inside the router. */
export function useRecordNavigation() {
  const location = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    history = recordNavigation(history, historyIndex(), location.pathname + location.search, type);
    try {
      sessionStorage.setItem(storageKey, JSON.stringify(history));
    } catch {
      // Storage may be full or forbidden; the rules then work within this page only.
    }
  }, [location, type]);
}

/** Navigation by the rules of spec §2: back, after login, and top-level (tab) navigation. */
export function useAppNavigation() {
  const navigate = useNavigate();
  const run = useCallback(
    (action: NavigationAction) => {
      if (action.kind === "go") void navigate(action.delta);
      else if (action.kind === "push") void navigate(action.path);
      else if (action.kind === "replace") void navigate(action.path, { replace: true });
    },
    [navigate],
  );
  return useMemo(
    () => ({
      back: () => run(backAction(history)),
      afterLogin: () => run(afterLoginAction(history)),
      topLevel: (path: string) => run(topLevelAction(history, path)),
    }),
    [run],
  );
}
