// How Candor's Node code is bundled: our packages (@candor/*) inside the bundle, everything
// from node_modules left as an import. `npm run build` (build-server.ts) bundles the server
// this way, and `npm run bench` its benchmarks, so a benchmark measures the code `npm start`
// runs rather than tsx's per-file compilation of the sources.
import type { BuildOptions } from "esbuild";

export const nodeBundleOptions = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  plugins: [
    {
      name: "node-modules-external",
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith("@candor/") ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
} satisfies BuildOptions;
