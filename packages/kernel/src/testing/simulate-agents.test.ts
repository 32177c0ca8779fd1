import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with agent levels next to invitation rebates and VIP: team volume from spot
// and stock fills, day-end recounts as the clock jumps hours, agent rebates out of the fees
// (never more, with the invitation rebate, than the fee: an invariant after every command), a
// snapshot restored and replayed through the journal encoding.
describe("whole-kernel simulation with agents", () => {
  it.each([1, 2, 3])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 2_000,
      bookFactory: createOrderBook,
      referral: true,
      agents: true,
      stocks: true,
      vip: true,
    });
    expect(report.agentLevelChanges).toBeGreaterThan(0);
    expect(report.agentRebates).toBeGreaterThan(0);
  });
});
