import type { Reporter, TestCase } from "vitest/node";

/** Prints how many database tests ran on each engine, so a run on PostgreSQL is visible. */
export default class DatabaseCountReporter implements Reporter {
  private readonly counts = { pglite: 0, postgres: 0 };

  onTestCaseResult(testCase: TestCase) {
    if (testCase.result().state !== "passed") return;
    if (testCase.fullName.includes("[pglite]")) this.counts.pglite++;
    if (testCase.fullName.includes("[postgres]")) this.counts.postgres++;
  }

  onTestRunEnd() {
    const { pglite, postgres } = this.counts;
    const note = process.env.DATABASE_URL ? "" : " (set DATABASE_URL to run them on PostgreSQL)";
    console.log(`\nDatabase tests passed: ${pglite} on PGlite, ${postgres} on PostgreSQL${note}`);
  }
}
