import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with quick exchange mixed in: invariants after every command, a snapshot
// restored and replayed per seed (simulate throws, naming the seed, when anything breaks).
describe("whole-kernel simulation with quick exchange", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 3_000,
      bookFactory: createOrderBook,
      exchange: true,
    });
    expect(report.exchanges).toBeGreaterThan(0);
  });

  it("exercises executed exchanges, not only rejections", () => {
    let rejected = 0;
    let exchanges = 0;
    for (const seed of [7, 8]) {
      const report = simulate({
        seed,
        commands: 3_000,
        bookFactory: createOrderBook,
        exchange: true,
      });
      rejected += (report.rejections.quote_expired ?? 0) + (report.rejections.quote_not_found ?? 0);
      exchanges += report.exchanges;
    }
    expect(rejected).toBeGreaterThan(0);
    expect(exchanges).toBeGreaterThan(0);
  });
});
