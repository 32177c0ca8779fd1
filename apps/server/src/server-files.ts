// Files the server reads at run time (migrations, worker scripts, the web build), named
// relative to apps/server/src. From the sources (tsx, tests) this module is in that folder;
// from the bundle `npm start` runs (apps/server/dist, scripts/build-server.ts) it is not, so
// every such path goes through here instead of `new URL(..., import.meta.url)`.
const here = new URL("./", import.meta.url);
const sourceRoot = here.pathname.endsWith("/apps/server/dist/") ? new URL("../src/", here) : here;

/** A file or folder under apps/server/src (or relative to it, "../../web/dist"). */
export function serverFile(relative: string): URL {
  return new URL(relative, sourceRoot);
}
