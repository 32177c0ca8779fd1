import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with loans mixed in: invariants after every command (frozen collateral, pool
// reservations, closed loans owe nothing), a snapshot restored and replayed per seed.
describe("whole-kernel simulation with loans", () => {
  it.each([1, 2, 3, 4])("seed %i", (seed) => {
    const report = simulate({ seed, commands: 2_000, bookFactory: createOrderBook, loans: true });
    expect(report.loansLent).toBeGreaterThan(0);
    expect(report.loansClosed).toBeGreaterThan(0);
  });
});
