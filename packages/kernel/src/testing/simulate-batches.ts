// The `npm test` simulation, split into two files so vitest can run the halves in parallel.
import { expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";
import { simulationHashes } from "./simulation-hashes-2026-11-24.ts";

/** Commands per seed in `npm test`. */
export const SIMULATION_COMMANDS = 5_000;

/**
 * Registers tests for seeds `first`..`last`, 25 per test. A failure names its seed: replay it
 * with `npm run sim -- --first SEED --seeds 1` and add it to `regressionSeeds`.
 */
export function simulationBatches(first: number, last: number): void {
  for (let batch = first; batch <= last; batch += 25) {
    const end = Math.min(last, batch + 24);
    it(`seeds ${batch}–${end}`, () => {
      for (let seed = batch; seed <= end; seed++) {
        const report = simulate({
          seed,
          commands: SIMULATION_COMMANDS,
          bookFactory: createOrderBook,
        });
        expect(report.commands).toBeGreaterThan(SIMULATION_COMMANDS);
        // The state the kernel of 2026-11-24 reached on the same seed.
        expect(report.hash).toBe(simulationHashes[seed]);
      }
    }, 120_000);
  }
}
