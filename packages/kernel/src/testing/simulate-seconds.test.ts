import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with seconds contracts mixed in: invariants after every command (escrow,
// reservations, settled once), a snapshot restored and replayed per seed.
describe("whole-kernel simulation with seconds contracts", () => {
  it.each([1, 2, 3, 4])("seed %i", (seed) => {
    const report = simulate({ seed, commands: 2_000, bookFactory: createOrderBook, seconds: true });
    expect(report.secondsPurchased).toBeGreaterThan(0);
    expect(report.secondsSettled).toBeGreaterThan(0);
  });
});
