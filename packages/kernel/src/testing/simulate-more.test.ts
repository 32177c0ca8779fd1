import { describe } from "vitest";
import { simulationBatches } from "./simulate-batches.ts";

describe("whole-kernel simulation, seeds 101–200", () => {
  simulationBatches(101, 200);
});
