import type { Reporter, TestModule } from "vitest/node";

/** How many files the summary lists. */
const shown = 15;

/**
 * Prints the slowest test files at the end of a run (import, hooks and tests of each file), so
 * every run shows where the suite's time goes. Two files run at once, so the figures add up to
 * more than the run's duration.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]) {
    const rows = testModules.map((testModule) => {
      const diagnostic = testModule.diagnostic();
      const ms =
        diagnostic.environmentSetupDuration +
        diagnostic.prepareDuration +
        diagnostic.collectDuration +
        diagnostic.setupDuration +
        diagnostic.duration;
      return { ms, project: testModule.project.name, file: testModule.relativeModuleId };
    });
    if (rows.length === 0) return;
    rows.sort((a, b) => b.ms - a.ms);
    const totalMs = rows.reduce((sum, row) => sum + row.ms, 0);
    const lines = rows
      .slice(0, shown)
      .map(
        (row) =>
          `${(row.ms / 1000).toFixed(1).padStart(8)} s  ${row.project.padEnd(8)} ${row.file}`,
      );
    console.log(
      `\nSlowest ${Math.min(shown, rows.length)} of ${rows.length} test files ` +
        `(${(totalMs / 1000).toFixed(0)} s in all files together):\n${lines.join("\n")}`,
    );
  }
}
