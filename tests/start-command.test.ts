import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { startCommand } from "../scripts/start-command.ts";

it("reads the environment and the Node flags `npm start` runs the server with", () => {
  const start = startCommand();
  // glibc malloc hands freed memory back (idle RSS), and V8 never moves the kernel's
  // short-lived allocations to the old generation by allocation site (docs/decisions.md).
  expect(start.env.GLIBC_TUNABLES).toMatch(/^glibc\.malloc\.mmap_threshold=\d+:/);
  expect(start.flags).toContain("--no-allocation-site-pretenuring");
});

it("passes only flags this Node accepts (a misspelt V8 flag would stop every start)", () => {
  const run = spawnSync(process.execPath, [...startCommand().flags, "-e", "process.exit(0)"], {
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const misspelt = spawnSync(process.execPath, ["--no-allocation-site-pretenurin", "-e", "0"], {
    encoding: "utf8",
  });
  expect(misspelt.status).not.toBe(0);
});
