// Reference-model scenarios, each checked by hand (the comments show the arithmetic): opening
// and closing, isolated margin, reversing, funding and rejections. Liquidation, the insurance
// fund and auto-deleveraging are in reference.liquidation.test.ts; the market and the check are in
// reference-scenarios.ts. Given deposits and commands → expected accounts, system balances,
// rejections and events.
import { describe, it } from "vitest";
import {
  checkScenario,
  dep,
  FUND,
  fill,
  isolated,
  leverage,
  mark,
  noFees,
  type Scenario,
} from "./reference-scenarios.ts";
import { usdt } from "./testing.ts";

const scenarios: Scenario[] = [
  {
    name: "cross long and short: open at 30,000, close at 31,000, fees on both fills",
    when: [
      dep("A", "1000"),
      dep("B", "1000"),
      mark("t1", 300_000n),
      // A takes 10 lots (300 USDT): taker fee 0.05 % = 0.15; B's maker fee 0.02 % = 0.06.
      fill("A", "B", 10n, 300_000n, "buy"),
      mark("t2", 310_000n),
      // A sells at 31,000: +10 USDT, taker fee 0.155; B buys back: −10, maker fee 0.062.
      fill("B", "A", 10n, 310_000n, "sell"),
    ],
    accounts: {
      A: ["1009.695", "0", 0n, "0"],
      B: ["989.878", "0", 0n, "0"],
      [FUND]: ["0", "0", 0n, "0"],
    },
    system: ["0.427", "0", "0"],
  },
  {
    name: "isolated long 20x and short 10x: add margin, remove margin, partial close",
    market: noFees,
    when: [
      dep("A", "100"),
      dep("B", "100"),
      isolated("A"),
      isolated("B"),
      leverage("B", 10),
      mark("t1", 300_000n),
      // A: 300 / 20 = 15 into margin; B: 300 / 10 = 30.
      fill("A", "B", 10n, 300_000n),
      mark("t2", 290_000n),
      { type: "add_margin", ownerId: "A", amount: usdt("5") },
      // B: margin 30, U = +10 (not removable), IM at the mark 29: only 1 may leave.
      { type: "remove_margin", ownerId: "B", amount: usdt("10") },
      { type: "remove_margin", ownerId: "B", amount: usdt("1") },
      // 4 lots at 29,000. A: −4 realised, margin 16, 4/10 of it (6.4) back to the wallet.
      // B: +4 realised, margin 33, 13.2 back.
      fill("B", "A", 4n, 290_000n),
    ],
    rejects: ["margin_remove_too_much"],
    accounts: {
      A: ["86.4", "9.6", 6n, "180"],
      B: ["84.2", "19.8", -6n, "180"],
    },
    system: ["0", "0", "0"],
  },
  {
    name: "reverse through zero in one fill",
    market: noFees,
    when: [
      dep("A", "100"),
      dep("B", "100"),
      dep("C", "100"),
      mark("t1", 300_000n),
      fill("A", "B", 5n, 300_000n),
      mark("t2", 302_000n),
      // A sells 8 at 30,200: closes 5 (+1 USDT), opens 3 short at 30,200 (90.6).
      fill("C", "A", 8n, 302_000n, "sell"),
    ],
    accounts: {
      A: ["101", "0", -3n, "90.6"],
      B: ["100", "0", -5n, "150"],
      C: ["100", "0", 8n, "241.6"],
    },
    // Clearing paid A's +1: −1 = −(241.6 − 90.6 − 150).
    system: ["0", "0", "-1"],
  },
  {
    name: "funding with an odd remainder: longs pay 0.15 %, rounded up; shorts get it rounded down",
    market: noFees,
    when: [
      dep("A", "100"),
      dep("B", "100"),
      dep("C", "100"),
      dep("D", "100"),
      mark("t1", 300_001n),
      fill("A", "B", 1n, 300_000n),
      fill("A", "C", 1n, 300_000n),
      fill("A", "D", 1n, 300_000n),
      // Mid 30,060 over index 30,000: premium 0.2 %; rate 0.2 % − 0.05 % = 0.15 %.
      {
        type: "premium",
        atMs: 0,
        tickId: "p1",
        indexTicks: 300_000n,
        bidTicks: 300_500n,
        askTicks: 300_700n,
      },
      // At mark 30,000.1: A owes 3 × 30.0001 × 0.15 % = 0.13500045 → 0.135001; each short is
      // owed 0.04500015 → 0.045; 1 unit to the remainder.
      { type: "settle_funding", atMs: 28_800_000 },
    ],
    accounts: {
      A: ["99.864999", "0", 3n, "90"],
      B: ["100.045", "0", -1n, "30"],
      C: ["100.045", "0", -1n, "30"],
      D: ["100.045", "0", -1n, "30"],
    },
    system: ["0", "0.000001", "0"],
    events: {
      types: ["funding"],
      expected: [
        {
          type: "funding",
          settlement: {
            rateE8: 150_000n,
            markTicks: 300_001n,
            tickIds: ["p1", "t1"],
            payments: [
              { id: "A", sizeLots: 3n, amount: -135_001n },
              { id: "B", sizeLots: -1n, amount: 45_000n },
              { id: "C", sizeLots: -1n, amount: 45_000n },
              { id: "D", sizeLots: -1n, amount: 45_000n },
            ],
            paidTotal: 135_001n,
            receivedTotal: 135_000n,
            remainder: 1n,
          },
        },
      ],
    },
  },
  {
    name: "rejections change nothing",
    market: noFees,
    when: [
      dep("A", "10"),
      mark("t1", 300_000n),
      fill("A", "B", 10n, 300_000n),
      dep("B", "100"),
      // 20x needs 15 USDT for 300 of notional.
      fill("A", "B", 10n, 300_000n),
      leverage("A", 125),
      fill("A", "B", 10n, 300_000n),
      isolated("A"),
      leverage("A", 200),
      // 10 % away from the mark; the band is 5 %.
      fill("A", "B", 1n, 330_000n),
      // Selling 10 at 28,550 would lose 14.5 of A's 10 USDT: beyond bankruptcy.
      fill("B", "A", 10n, 285_500n, "sell"),
      dep("A", "10000"),
      // 2,000 more lots (60,000 USDT) is above 125x's tier (below 50,000).
      fill("A", "B", 2_000n, 300_000n),
      { type: "withdraw", ownerId: "A", amount: usdt("10007.61") },
      // A may withdraw wallet − IM (300 / 125 = 2.4).
      { type: "withdraw", ownerId: "A", amount: usdt("10007.6") },
    ],
    rejects: [
      "account_not_found",
      "insufficient_margin",
      "margin_mode_locked",
      "leverage_invalid",
      "price_outside_band",
      "price_beyond_bankruptcy",
      "leverage_above_tier",
      "insufficient_balance",
    ],
    accounts: {
      A: ["2.4", "0", 10n, "300"],
      B: ["100", "0", -10n, "300"],
    },
    system: ["0", "0", "0"],
  },
];

describe.each(scenarios)("reference: $name", (scenario) => {
  it("matches the hand-checked table and keeps every invariant", () => checkScenario(scenario));
});
