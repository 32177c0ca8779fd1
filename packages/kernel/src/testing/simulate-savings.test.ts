import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with savings mixed in: invariants after every command (reserve = promised
// unpaid interest, principal account = active principal), a snapshot restored and replayed.
describe("whole-kernel simulation with savings", () => {
  it.each([1, 2, 3, 4])("seed %i", (seed) => {
    const report = simulate({ seed, commands: 2_000, bookFactory: createOrderBook, savings: true });
    expect(report.savingsSubscribed).toBeGreaterThan(0);
    expect(report.savingsEnded).toBeGreaterThan(0);
  });
});
