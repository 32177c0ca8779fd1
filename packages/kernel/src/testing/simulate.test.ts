import { describe, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";
import { SIMULATION_COMMANDS, simulationBatches } from "./simulate-batches.ts";

// 200 seeds × 5,000 commands in all (seeds 101–200 in simulate-more.test.ts), invariants
// checked after every command, a snapshot restored and replayed per seed.
const regressionSeeds: number[] = [];

describe("whole-kernel simulation, seeds 1–100", () => {
  simulationBatches(1, 100);
  it.each(regressionSeeds)("regression seed %i", (seed) => {
    simulate({ seed, commands: SIMULATION_COMMANDS, bookFactory: createOrderBook });
  });
});
