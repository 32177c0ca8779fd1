import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with stocks mixed in: invariants after every command (prepaid holds, house
// cash reservations, shares conserved), a snapshot restored and replayed per seed.
describe("whole-kernel simulation with stocks", () => {
  it.each([1, 2, 3, 4])("seed %i", (seed) => {
    const report = simulate({ seed, commands: 2_000, bookFactory: createOrderBook, stocks: true });
    expect(report.stockFills).toBeGreaterThan(0);
  });
});
