// `npm run bench:ab -- [rev]`: the kernel of the working tree against the kernel of `rev`
// (default HEAD) on the W4 stream, in ONE process, in alternating chunks of 50,000 commands, so
// both see the same moments of a shared machine. Whole-benchmark runs here swing ±20 % between
// identical processes; the per-round ratio of two kernels measured this way swings a few per
// cent, which is what telling a 3 % change apart needs. Prints each round and the median
// speed-up of the working tree (rounds after the first), once with each kernel imported first
// (the one imported second runs up to ~7 % faster), and the geometric mean of the two medians.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, stop } from "esbuild";
import { nodeBundleOptions } from "./esbuild-node.ts";
import { startCommand } from "./start-command.ts";

const root = path.resolve(import.meta.dirname, "..");
const rev = process.argv[2] ?? "HEAD";
const git = (...args: string[]) => {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
};

const base = mkdtempSync(path.join(tmpdir(), "candor-kernel-ab-"));
git("worktree", "add", "--detach", base, rev);
try {
  symlinkSync(path.join(root, "node_modules"), path.join(base, "node_modules"));
  const workload = "packages/kernel/bench/kernel-workload.ts";
  const kernels = { rev: path.join(base, workload), tree: path.join(root, workload) };
  // The kernel imported second runs faster (up to ~7 % here, same code on both sides), so each
  // comparison runs twice, once in each order, and the geometric mean of the two cancels that.
  const medians: number[] = [];
  for (const [first, second] of [
    ["rev", "tree"],
    ["tree", "rev"],
  ] as const) {
    console.log(`${first === "rev" ? rev : "working tree"} imported first:`);
    const text = await runOrdered(kernels[first], kernels[second], second === "tree");
    process.stdout.write(text);
    medians.push(Number(/^median (\S+)$/m.exec(text)![1]));
  }
  await stop();
  console.log(
    `speed-up of the working tree over ${rev} (both orders): ${Math.sqrt(medians[0]! * medians[1]!).toFixed(3)}`,
  );
} finally {
  git("worktree", "remove", "--force", base);
}

/**
 * Runs the two kernels in one process (`first` imported first), alternating chunks of 50,000
 * W4 commands, and returns what it prints: a line per round and `median <x>`, the median
 * speed-up of the working tree (`treeSecond`: which one it is) over the revision, rounds after
 * the first.
 */
async function runOrdered(first: string, second: string, treeSecond: boolean): Promise<string> {
  const entry = path.join(root, "apps/server/dist/kernel-ab-entry.ts");
  const outfile = path.join(root, "apps/server/dist/kernel-ab.mjs");
  mkdirSync(path.dirname(entry), { recursive: true });
  writeFileSync(
    entry,
    `import * as First from ${JSON.stringify(first)};
import * as Second from ${JSON.stringify(second)};
// The working tree's module (one of the two above): both kernels get its stream and names.
import { kernelNames, w4Owners, w4Stream } from ${JSON.stringify(treeSecond ? second : first)};
const stream = w4Stream();
const names = kernelNames(stream, w4Owners);
const chunk = 50_000;
const cpu = () => { const used = process.cpuUsage(); return used.user + used.system; };
const speedUps = [];
for (let round = 0; round < ${Number(process.env.AB_ROUNDS ?? 8)}; round++) {
  const runs = [First.kernelSetup(stream, names), Second.kernelSetup(stream, names)];
  const micros = [0, 0];
  for (let from = 0, i = 0; from < stream.length; from += chunk, i++) {
    const to = Math.min(stream.length, from + chunk);
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = cpu();
      (k === 0 ? First : Second).runKernel(runs[k], stream, names, from, to);
      micros[k] += cpu() - started;
    }
  }
  const speedUp = ${treeSecond ? "micros[0] / micros[1]" : "micros[1] / micros[0]"};
  if (round > 0) speedUps.push(speedUp);
  console.log("  round " + round + ": speed-up " + speedUp.toFixed(3));
}
speedUps.sort((a, b) => a - b);
console.log("median " + speedUps[Math.floor(speedUps.length / 2)].toFixed(3));
`,
  );
  try {
    await build({ ...nodeBundleOptions, entryPoints: [entry], outfile });
  } finally {
    rmSync(entry, { force: true });
  }
  const result = spawnSync(process.execPath, [...startCommand().flags, outfile], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`the comparison failed: ${result.stderr}`);
  return result.stdout;
}
