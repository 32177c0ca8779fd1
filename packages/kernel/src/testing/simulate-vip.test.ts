import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with VIP levels mixed in (fee discounts on spot and perpetual fills, daily
// withdrawal limits) next to referral rebates: invariants after every command, a snapshot
// restored and replayed through the journal encoding.
describe("whole-kernel simulation with VIP levels", () => {
  it.each([1, 2, 3])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 2_000,
      bookFactory: createOrderBook,
      vip: true,
      referral: true,
    });
    expect(report.vipConfigured).toBeGreaterThan(6);
  });
});
