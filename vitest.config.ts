import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    reporters: ["default", "./tests/database-count-reporter.ts"],
    // Vitest's default is one worker per core but one, so a 2-core machine ran every file in
    // turn (~33 min). Two workers run the unit files beside the browser files, which take
    // turns among themselves (`fileParallelism: false`) and mostly wait on a server.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/*/src/**/*.test.{ts,tsx}",
            "tests/*.test.ts",
            "tests/security/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
