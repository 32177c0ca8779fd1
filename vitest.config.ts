import { defineConfig } from "vitest/config";
import InterleavingSequencer from "./tests/interleaving-sequencer.ts";

export default defineConfig({
  test: {
    reporters: [
      "default",
      "./tests/database-count-reporter.ts",
      "./tests/slowest-files-reporter.ts",
    ],
    // Vitest's default is one worker per core but one, so a 2-core machine ran every file in
    // turn. Two workers, shared by both projects: the sequencer hands one worker the browser
    // files in turn (they mostly wait on a server and Chromium) while the other runs unit
    // files. (A project with `fileParallelism: false` would run after all the others, alone.)
    maxWorkers: 2,
    sequence: { sequencer: InterleavingSequencer },
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
          // One server and one Chromium for the browser files that need nothing of their own.
          globalSetup: ["./tests/browser/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page under a loaded CI host can take seconds to re-render; 1 s (the default) flakes.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
