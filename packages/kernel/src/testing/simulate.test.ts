import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// 200 seeds × 5,000 commands, invariants checked after every command, a snapshot restored and
// replayed per seed. A failure names its seed: replay it with `npm run sim -- --first SEED --seeds 1`
// and add it to the regression list below.
const SEEDS = 200;
const COMMANDS = 5_000;
const regressionSeeds: number[] = [];

describe("whole-kernel simulation", () => {
  for (let batch = 0; batch < SEEDS; batch += 25) {
    it(`seeds ${batch + 1}–${batch + 25}`, () => {
      for (let seed = batch + 1; seed <= batch + 25; seed++) {
        const report = simulate({ seed, commands: COMMANDS, bookFactory: createOrderBook });
        expect(report.commands).toBeGreaterThan(COMMANDS);
      }
    }, 60_000);
  }
  it.each(regressionSeeds)("regression seed %i", (seed) => {
    simulate({ seed, commands: COMMANDS, bookFactory: createOrderBook });
  });
});
