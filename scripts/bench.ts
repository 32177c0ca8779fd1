// Runs one named benchmark: `npm run bench -- <name>`. Each prints one JSON line per workload.
import { spawnSync } from "node:child_process";
import path from "node:path";

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
const result = spawnSync(
  process.execPath,
  ["--expose-gc", "--import", "tsx", path.join(root, script), ...process.argv.slice(3)],
  { stdio: "inherit", cwd: root },
);
process.exit(result.status ?? 1);
