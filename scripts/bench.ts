// Runs one named benchmark: `npm run bench -- <name>`. Each prints one JSON line per workload.
// The benchmark is bundled first the way `npm run build` bundles the server (esbuild-node.ts),
// so it measures the JavaScript `npm start` runs; BENCH_TSX=1 runs the TypeScript through tsx
// instead. The bundle goes to apps/server/dist (three folders deep, like the sources, so
// `import.meta.dirname` + "../../.." is still the repository, and `server-files.ts` finds the
// server's run-time files as it does for `npm start`).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { build, stop } from "esbuild";
import { nodeBundleOptions } from "./esbuild-node.ts";
import { startCommand } from "./start-command.ts";

const root = path.resolve(import.meta.dirname, "..");

/** Benchmark name → its script. Each measures our code and a peer in the same run. */
const benchmarks: Record<string, string> = {
  kernel: "packages/kernel/bench/kernel.ts",
  journal: "apps/server/scripts/journal-bench.ts",
  fanout: "apps/server/scripts/fanout-bench.ts",
  http: "apps/server/scripts/http-bench.ts",
  startup: "apps/server/scripts/startup-bench.ts",
  perp: "packages/kernel/bench/perp.ts",
  memory: "packages/kernel/bench/memory.ts",
  cluster: "apps/server/scripts/cluster-bench.ts",
};

const name = process.argv[2];
const script = name ? benchmarks[name] : undefined;
if (!script) {
  const known = Object.keys(benchmarks);
  console.error(
    `usage: npm run bench -- <name>; known: ${known.length ? known.join(", ") : "(none yet)"}`,
  );
  process.exit(2);
}
let entry = path.join(root, script);
const loader: string[] = [];
if (process.env.BENCH_TSX) {
  loader.push("--import", "tsx");
} else {
  const outfile = path.join(root, "apps/server/dist", `bench-${name}.mjs`);
  await build({
    ...nodeBundleOptions,
    entryPoints: [entry],
    outfile,
  });
  await stop();
  entry = outfile;
}
// With the Node flags `npm start` gives the server (a peer in the same process runs with them
// too). Not its malloc settings, which are about idle memory: the benchmarks that start a
// server process (startup) pass those to it.
const result = spawnSync(
  process.execPath,
  [...startCommand().flags, "--expose-gc", ...loader, entry, ...process.argv.slice(3)],
  { stdio: "inherit", cwd: root },
);
process.exit(result.status ?? 1);
