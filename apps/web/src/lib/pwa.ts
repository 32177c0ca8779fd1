/**
 * Registers the service worker (`pwa/sw.js`, production builds only) and, when a new version
 * has installed while this one runs, tells `useWaitingUpdate` listeners (the shell's update
 * banner). The first install offers nothing: the page already runs the current version.
 */
import { useSyncExternalStore } from "react";

let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function offer(worker: ServiceWorker | null) {
  if (worker === null || navigator.serviceWorker.controller === null) return;
  waiting = worker;
  for (const listener of listeners) listener();
}

/** The new version waiting to take over, if any; re-renders when one arrives. */
export function useWaitingUpdate(): ServiceWorker | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waiting,
  );
}

/** Lets the waiting version take over; the page reloads when it does. */
export function applyUpdate(worker: ServiceWorker) {
  worker.postMessage("skip-waiting");
}

export function registerServiceWorker() {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const hadController = navigator.serviceWorker.controller !== null;
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  const register = () => {
    navigator.serviceWorker
      .register("/sw.js")
      .then((registration) => {
        offer(registration.waiting);
        registration.addEventListener("updatefound", () => {
          const installing = registration.installing;
          installing?.addEventListener("statechange", () => {
            if (installing.state === "installed") offer(installing);
          });
        });
      })
      .catch(() => {
        // No service worker (private mode, an old browser): the app works without one.
      });
  };
  // After the page's own loading, so the worker's downloads never compete with it.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
