// `npm run bench:ab -- [rev]`: the kernel of the working tree against the kernel of `rev`
// (default HEAD) on the W4 stream, in ONE process, in alternating chunks of 50,000 commands, so
// both see the same moments of a shared machine. Whole-benchmark runs here swing ±20 % between
// identical processes; the per-round ratio of two kernels measured this way swings a few per
// cent, which is what telling a 3 % change apart needs. Prints each round and the median
// speed-up of the working tree (rounds after the first). The same code against itself reads
// 1.00–1.03 (the kernel imported second runs a little faster), so read gains below ~3 % as none.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
  const entry = path.join(root, "apps/server/dist/kernel-ab-entry.ts");
  writeFileSync(
    entry,
    `import * as A from ${JSON.stringify(path.join(base, workload))};
import * as B from ${JSON.stringify(path.join(root, workload))};
// The stream and its names from the working tree: both kernels get the same commands.
const stream = B.w4Stream();
const names = B.kernelNames(stream, B.w4Owners);
const chunk = 50_000;
const cpu = () => { const used = process.cpuUsage(); return used.user + used.system; };
const speedUps = [];
for (let round = 0; round < ${Number(process.env.AB_ROUNDS ?? 8)}; round++) {
  const runs = { A: A.kernelSetup(stream, names), B: B.kernelSetup(stream, names) };
  const micros = { A: 0, B: 0 };
  for (let from = 0, i = 0; from < stream.length; from += chunk, i++) {
    const to = Math.min(stream.length, from + chunk);
    for (const name of i % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      const started = cpu();
      (name === "A" ? A : B).runKernel(runs[name], stream, names, from, to);
      micros[name] += cpu() - started;
    }
  }
  const speedUp = micros.A / micros.B;
  if (round > 0) speedUps.push(speedUp);
  const rate = (us) => Math.round(stream.length / us * 1e3) + "K/s";
  console.log("round " + round + ": ${rev} " + rate(micros.A) + ", working tree " + rate(micros.B) + ", speed-up " + speedUp.toFixed(3));
}
speedUps.sort((a, b) => a - b);
console.log("median speed-up of the working tree over ${rev}: " + speedUps[Math.floor(speedUps.length / 2)].toFixed(3));
`,
  );
  const outfile = path.join(root, "apps/server/dist/kernel-ab.mjs");
  try {
    await build({ ...nodeBundleOptions, entryPoints: [entry], outfile });
  } finally {
    await stop();
    rmSync(entry, { force: true });
  }
  const result = spawnSync(process.execPath, [...startCommand().flags, outfile], {
    stdio: "inherit",
    cwd: root,
  });
  process.exitCode = result.status ?? 1;
} finally {
  git("worktree", "remove", "--force", base);
}
