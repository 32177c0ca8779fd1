import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Orders the files so that the two workers run a browser file beside unit files, not two
 * browser files at once and then the unit files two at a time.
 *
 * Vitest hands the files to its two workers in this order, each taking the next when it is
 * free. The order is planned like that: whenever a planned worker comes free it takes the next
 * browser file if no browser file is running, else the next unit file. A file's expected
 * duration is its last one from Vitest's results cache, else the figure below for files known
 * to be long, else a project's typical figure; within a project the longest go first. Real
 * durations differ from the plan, so two browser files do run at once now and then; each has
 * its own server or only uses the shared one through users of its own (global-setup.ts).
 */
/**
 * Files known to take long (seconds, the full run of 2026-11-27 on the shared 2-core machine,
 * load 30–40), so that a fresh clone, which has no results cache, starts them first instead of
 * last: Vitest's own fallback order is by file size, and these files are small.
 */
const knownLongS: Record<string, number> = {
  "unit:tests/crash-postgres.test.ts": 767,
  "unit:tests/crash.test.ts": 754,
  "unit:tests/cluster.test.ts": 310,
  "unit:tests/failover.test.ts": 304,
  "unit:packages/kernel/src/testing/simulate-more.test.ts": 214,
  "unit:packages/kernel/src/testing/simulate.test.ts": 210,
  "unit:tests/security/money-endpoints.test.ts": 164,
  "unit:tests/server-process.test.ts": 161,
  "unit:tests/writer-lock.test.ts": 130,
  "unit:tests/security/authorisation-matrix.test.ts": 86,
  "browser:tests/browser/locale-walk.test.ts": 464,
  "browser:tests/browser/perp.test.ts": 350,
  "browser:tests/browser/admin.test.ts": 226,
  "browser:tests/browser/verifiable.test.ts": 170,
};

export default class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (spec: TestSpecification) =>
      `${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`;
    const expectedMs = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(key(spec))?.duration ||
      (knownLongS[key(spec)] ?? 0) * 1_000 ||
      (spec.project.name === "browser" ? 40_000 : 6_000);
    // Longest first (a stable sort keeps Vitest's order among equals: failed first, larger first).
    const sorted = (await super.sort(files)).sort((a, b) => expectedMs(b) - expectedMs(a));
    const browser = sorted.filter((spec) => spec.project.name === "browser");
    const other = sorted.filter((spec) => spec.project.name !== "browser");
    if (browser.length === 0 || other.length === 0) return sorted;

    const workers = Array.from({ length: 2 }, () => ({ freeAtMs: 0, browserUntilMs: 0 }));
    const order: TestSpecification[] = [];
    while (browser.length > 0 || other.length > 0) {
      const worker = workers.reduce((a, b) => (b.freeAtMs < a.freeAtMs ? b : a));
      const now = worker.freeAtMs;
      const browserRunning = workers.some((w) => w !== worker && w.browserUntilMs > now);
      const takeBrowser = browser.length > 0 && (!browserRunning || other.length === 0);
      const spec = (takeBrowser ? browser : other).shift()!;
      const ms = expectedMs(spec);
      worker.freeAtMs = now + ms;
      worker.browserUntilMs = takeBrowser ? now + ms : 0;
      order.push(spec);
    }
    return order;
  }
}
