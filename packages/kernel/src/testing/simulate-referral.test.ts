import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with invitations and rebates mixed in (spot and stock fees): invariants after
// every command (rebates never above the fees they come from), a snapshot restored and replayed.
describe("whole-kernel simulation with referral rebates", () => {
  it.each([1, 2, 3])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 2_000,
      bookFactory: createOrderBook,
      referral: true,
      stocks: true,
    });
    expect(report.rebates).toBeGreaterThan(0);
  });
});
