import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with deposit-bonus activities mixed in (promotion funding, reservations,
// bonuses paid on deposits and demo grants, lapses by the schedule), next to VIP levels:
// invariants after every command, a snapshot restored and replayed through the journal encoding.
describe("whole-kernel simulation with deposit-bonus activities", () => {
  it.each([1, 2, 3])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 2_000,
      bookFactory: createOrderBook,
      activities: true,
      vip: true,
    });
    expect(report.activityReservations).toBeGreaterThan(0);
  });
});
