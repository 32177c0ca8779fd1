// Reference-model scenarios of the forced paths, each checked by hand (the comments show the
// arithmetic): partial liquidation into the book, the insurance fund taking over, a gap past
// bankruptcy, auto-deleveraging, and negative-balance protection. The market and the check are in
// reference-scenarios.ts.
import { describe, it } from "vitest";
import { expect } from "vitest";
import { createReferenceState, runReference } from "./reference.ts";
import { referenceViolations } from "./reference-invariants.ts";
import {
  checkScenario,
  dep,
  FUND,
  fill,
  isolated,
  mark,
  noFees,
  bid,
  type Scenario,
} from "./reference-scenarios.ts";
import { btcPerp, usdt } from "./testing.ts";

const scenarios: Scenario[] = [
  {
    name: "partial liquidation into the book restores the position",
    market: noFees,
    when: [
      dep("A", "100"),
      dep("B", "100"),
      dep("M", "1000"),
      isolated("A"),
      mark("t1", 300_000n),
      fill("A", "B", 10n, 300_000n),
      bid("M", 286_000n, 6n),
      bid("M", 285_500n, 10n),
      // Mark 28,600: equity 15 − 14 = 1 < maintenance 286 × 0.4 % = 1.144. Close 6 lots (the
      // rest then needs 0.4576 ≤ 0.5); limit 28,500 (bankruptcy). M's bid takes 6 at 28,600:
      // realised 171.6 − 180 = −8.4, fee 171.6 × 0.1 % = 0.1716; margin 6.4284, 4 lots left
      // with equity 0.8284 ≥ maintenance 0.4576.
      mark("t2", 286_000n),
    ],
    accounts: {
      A: ["85", "6.4284", 4n, "120"],
      B: ["100", "0", -10n, "300"],
      M: ["1000", "0", 6n, "171.6"],
      [FUND]: ["0.1716", "0", 0n, "0"],
    },
    system: ["0", "0", "8.4"],
    events: {
      types: ["liquidation", "fill", "liquidation_fee"],
      expected: [
        {
          type: "liquidation",
          ownerId: "A",
          side: "sell",
          lots: 6n,
          limitTicks: 285_000n,
          markTicks: 286_000n,
          equity: usdt("1"),
          maintenance: usdt("1.144"),
          tickIds: ["t2"],
        },
        {
          type: "fill",
          buyerId: "M",
          sellerId: "A",
          lots: 6n,
          priceTicks: 286_000n,
          feeBuyer: 0n,
          feeSeller: 0n,
          realisedBuyer: 0n,
          realisedSeller: usdt("-8.4"),
          liquidatedId: "A",
          tickIds: ["t2"],
        },
        { type: "liquidation_fee", ownerId: "A", amount: usdt("0.1716"), tickIds: ["t2"] },
      ],
    },
  },
  {
    name: "the insurance fund takes over what the book does not fill",
    market: noFees,
    when: [
      dep(FUND, "100"),
      dep("A", "100"),
      dep("B", "100"),
      dep("M", "1000"),
      isolated("A"),
      mark("t1", 300_000n),
      fill("A", "B", 10n, 300_000n),
      bid("M", 286_000n, 2n),
      // The order for 6 lots fills 2 at 28,600: −2.8 realised, fee 0.0572, margin 12.1428 on
      // 8 lots costing 240. The fund takes all 8 at the bankruptcy value 240 − 12.1428 =
      // 227.8572 (worth 228.8 at the mark: the fund gains A's last 0.9428 of equity).
      mark("t2", 286_000n),
    ],
    accounts: {
      A: ["85", "0", 0n, "0"],
      B: ["100", "0", -10n, "300"],
      M: ["1000", "0", 2n, "57.2"],
      [FUND]: ["100.0572", "0", 8n, "227.8572"],
    },
    system: ["0", "0", "14.9428"],
    events: {
      types: ["takeover"],
      expected: [
        {
          type: "takeover",
          ownerId: "A",
          lots: 8n,
          quoteAmount: usdt("227.8572"),
          forced: false,
          tickIds: ["t2"],
        },
      ],
    },
  },
  {
    name: "a gap past bankruptcy: A loses exactly its margin, the fund the 5 USDT deficit",
    market: noFees,
    when: [
      dep(FUND, "100"),
      dep("A", "100"),
      dep("B", "100"),
      isolated("A"),
      mark("t1", 300_000n),
      fill("A", "B", 10n, 300_000n),
      // Mark 28,000: equity 15 − 20 = −5. No bids: the fund buys all 10 at the bankruptcy value
      // 285, 5 above their worth; A's wallet keeps its 85.
      mark("t2", 280_000n),
    ],
    accounts: {
      A: ["85", "0", 0n, "0"],
      B: ["100", "0", -10n, "300"],
      [FUND]: ["100", "0", 10n, "285"],
    },
    system: ["0", "0", "15"],
  },
  {
    name: "the fund cannot cover: auto-deleveraging by profit × leverage",
    market: noFees,
    when: [
      dep(FUND, "1"),
      dep("A", "100"),
      dep("B", "50"),
      dep("C", "50"),
      isolated("A"),
      mark("t1", 300_000n),
      fill("A", "B", 10n, 300_000n),
      mark("t2", 290_000n),
      // B buys 5 back from C at 29,000: B +5 (wallet 55, short 5 from 30,000), C short 5.
      fill("B", "C", 5n, 290_000n),
      // Mark 28,000: A's equity −5. The fund (1 USDT) can lose 0.5 a lot: it takes 2 for 57.
      // A: margin 12, 8 lots costing 240, still bankrupt at 28,500. ADL ranks B (10/150 ×
      // 140/65) before C (5/145 × 140/55): B closes 5 for 142.5 (+7.5), C closes 3 for 85.5
      // (+1.5). A ends flat with margin 0.
      mark("t3", 280_000n),
    ],
    accounts: {
      A: ["85", "0", 0n, "0"],
      B: ["62.5", "0", 0n, "0"],
      C: ["51.5", "0", -2n, "58"],
      [FUND]: ["1", "0", 2n, "57"],
    },
    system: ["0", "0", "1"],
    events: {
      types: ["liquidation", "takeover", "adl"],
      expected: [
        {
          type: "liquidation",
          ownerId: "A",
          side: "sell",
          lots: 10n,
          limitTicks: 285_000n,
          markTicks: 280_000n,
          equity: usdt("-5"),
          maintenance: usdt("1.12"),
          tickIds: ["t3"],
        },
        {
          type: "takeover",
          ownerId: "A",
          lots: 2n,
          quoteAmount: usdt("57"),
          forced: false,
          tickIds: ["t3"],
        },
        {
          type: "adl",
          ownerId: "A",
          counterpartyId: "B",
          lots: 5n,
          quoteAmount: usdt("142.5"),
          rank: 1,
          tickIds: ["t3"],
        },
        {
          type: "adl",
          ownerId: "A",
          counterpartyId: "C",
          lots: 3n,
          quoteAmount: usdt("85.5"),
          rank: 2,
          tickIds: ["t3"],
        },
      ],
    },
  },
];

describe.each(scenarios)("reference: $name", (scenario) => {
  it("matches the hand-checked table and keeps every invariant", () => checkScenario(scenario));
});

describe("reference: negative-balance protection of a cash deficit", () => {
  it("a short so deep that even a price of zero leaves a deficit: the fund covers the wallet", () => {
    // Crafted state (not reachable by the commands above): a cross short of 1 lot with entry
    // cost 50 units and a wallet of −60 units. At a mark of 1 tick its equity is −60 + 50 − 100
    // = −110. Its bankruptcy value is max(0, 50 − 60) = 0, so it closes for nothing: +50
    // realised, wallet −10, and the fund pays the 10 so the owner ends at zero.
    const market = btcPerp({ ...noFees });
    const state = createReferenceState(market);
    state.accounts.set("A", {
      ownerId: "A",
      wallet: -60n,
      leverage: 20,
      marginMode: "cross",
      position: { sizeLots: -1n, entryCost: 50n },
      isolatedMargin: 0n,
    });
    state.accounts.get(FUND)!.wallet = 1_000n;
    state.accounts.get(FUND)!.position = { sizeLots: 1n, entryCost: 50n };
    state.netDeposits = 940n;
    expect(referenceViolations({ ...state, mark: null })).toEqual([]);
    const { state: after, events } = runReference(state, [mark("t1", 1n)]);
    expect(after.accounts.get("A")).toMatchObject({
      wallet: 0n,
      position: { sizeLots: 0n, entryCost: 0n },
    });
    expect(events.filter((e) => e.type === "negative_balance_cover")).toEqual([
      { type: "negative_balance_cover", ownerId: "A", amount: 10n, tickIds: ["t1"] },
    ]);
    // The fund's long closed against A's short for 0: it realised −50 and paid 10 of cover.
    expect(after.accounts.get(FUND)).toMatchObject({
      wallet: 1_000n - 50n - 10n,
      position: { sizeLots: 0n, entryCost: 0n },
    });
    expect(referenceViolations(after)).toEqual([]);
  });
});
