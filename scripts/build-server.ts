// `npm run build` (after the web app): the server as one ESM bundle in apps/server/dist, so
// `npm start` runs plain JavaScript instead of compiling ~200 TypeScript files through tsx on
// every start (about 1 s of a 2–3 s restart here), bundled as esbuild-node.ts says. The dynamic import in main.ts becomes its own
// chunk, so the port still opens before the rest of the server loads. Files the server reads
// at run time (migrations, workers, the web build) are found through `server-files.ts`.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import path from "node:path";
import { nodeBundleOptions } from "./esbuild-node.ts";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "apps/server/dist");
// Chunk names carry content hashes: clear the last build so stale chunks do not pile up.
rmSync(outdir, { recursive: true, force: true });

await build({
  ...nodeBundleOptions,
  entryPoints: [path.join(root, "apps/server/src/main.ts")],
  outdir,
  splitting: true,
  outExtension: { ".js": ".mjs" },
  sourcemap: true,
});
