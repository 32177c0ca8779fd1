// Candor's service worker (issue 24: installable app). Built by pwa/plugin.ts, which fills in
// the build's id and the list of the shell's files below.
//
// What it caches: the shell (index.html, the entry script and style, the offline page, the
// manifest and icons) at install, and hashed static files (/assets/…) as they are first loaded.
// What it never caches: anything under /api/ — balances, orders and prices always come from the
// server, or not at all.
const build = "__BUILD__";
const cacheName = `candor-shell-${build}`;
const precache = __PRECACHE__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(cacheName).then((cache) => cache.addAll(precache)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("candor-shell-") && name !== cacheName)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The page asks for the waiting version to take over when the user taps "Reload".
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // The network first, so a deploy shows at once; the offline page when there is none.
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .match("offline.html", { ignoreSearch: true })
          .then((page) => page ?? Response.error()),
      ),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/") || precache.includes(url.pathname.slice(1))) {
    // Hashed or precached files never change under the same name: the cache first.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(cacheName).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});
