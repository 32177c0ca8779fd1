import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { createReferenceBook } from "../book/order-book.reference.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with self-trade prevention modes, size amends, stop / take-profit orders and
// OCO pairs mixed in: invariants after every command (holds of pending conditionals, OCO links,
// trigger indexes), a snapshot restored and replayed per seed, and both books alike.
describe("whole-kernel simulation with conditional orders", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 2_000,
      bookFactory: createOrderBook,
      conditional: true,
    });
    expect(report.conditionalsFired).toBeGreaterThan(0);
    const reference = simulate({
      seed,
      commands: 2_000,
      bookFactory: createReferenceBook,
      conditional: true,
    });
    expect(reference.hash).toBe(report.hash);
  });
});
