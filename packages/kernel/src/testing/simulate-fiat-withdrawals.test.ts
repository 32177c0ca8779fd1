import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";

// The whole kernel with fiat-wallet withdrawals (bank-card route, `withdrawal_hold_wallet`)
// mixed in: invariants after every command, a snapshot restored and replayed per seed.
describe("whole-kernel simulation with fiat-wallet withdrawals", () => {
  it.each([1, 2, 3, 4])("seed %i", (seed) => {
    const report = simulate({
      seed,
      commands: 3_000,
      bookFactory: createOrderBook,
      fiatWithdrawals: true,
    });
    expect(report.accepted).toBeGreaterThan(0);
    expect(report.rejections.wallet_invalid ?? 0).toBeGreaterThan(0);
  });
});
