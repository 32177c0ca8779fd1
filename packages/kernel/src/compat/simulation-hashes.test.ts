// The seeded simulation reaches the state hashes the kernel of 2026-11-24 reached, on the fast
// and on the reference book. (The 200 seeds of `npm test` assert theirs in simulate-batches.ts.)
import { describe, expect, it } from "vitest";
import { createReferenceBook } from "../book/order-book.reference.ts";
import { simulate } from "../testing/simulate.ts";
import { simulationHashes } from "../testing/simulation-hashes-2026-11-24.ts";

describe("simulation hashes of 2026-11-24", () => {
  it.each([1, 2, 3, 97, 200])("seed %i on the reference book", (seed) => {
    const report = simulate({ seed, commands: 5_000, bookFactory: createReferenceBook });
    expect(report.hash).toBe(simulationHashes[seed]);
  });
});
