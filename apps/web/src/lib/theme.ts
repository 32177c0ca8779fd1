import { useSyncExternalStore } from "react";

/** The colour scheme: follow the system, or always light or dark. */
export type ThemeChoice = "system" | "light" | "dark";

const storageKey = "candor.theme";
const listeners = new Set<() => void>();
const darkQuery = () => window.matchMedia?.("(prefers-color-scheme: dark)");

export function themeChoice(): ThemeChoice {
  const stored = localStorage.getItem(storageKey);
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** Applies a choice: antd-mobile reads `data-prefers-color-scheme` on the root element. */
export function applyTheme(choice = themeChoice()) {
  const dark = choice === "dark" || (choice === "system" && darkQuery()?.matches === true);
  document.documentElement.setAttribute("data-prefers-color-scheme", dark ? "dark" : "light");
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute("content", dark ? "#0b1220" : "#ffffff");
}

export function setTheme(choice: ThemeChoice) {
  localStorage.setItem(storageKey, choice);
  applyTheme(choice);
  for (const listener of listeners) listener();
}

/** Applies the stored choice now and whenever the system scheme changes. */
export function initTheme() {
  applyTheme();
  darkQuery()?.addEventListener("change", () => applyTheme());
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, themeChoice);
}
