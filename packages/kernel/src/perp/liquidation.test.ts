// Liquidation pieces, hand-checked on BTC-PERP (one lot at one tick = 100 units, tier 0
// maintenance 0.40 %, liquidation fee 0.10 %). The whole sequence runs in the reference model's
// scenarios (reference.scenarios.test.ts).
import { describe, expect, it } from "vitest";
import {
  adlRanking,
  closeValueAtBankruptcy,
  liquidationFee,
  liquidationLots,
  liquidationPlan,
  negativeBalanceCover,
  takeoverLots,
} from "./liquidation.ts";
import { isolatedPool } from "./margin.ts";
import type { Position } from "./position.ts";
import { btcPerp, usdt } from "./testing.ts";

const market = btcPerp();
const U = market.tickLotUnits;
/** 10 lots long at 30,000.0 with 15 USDT isolated margin (20x): bankrupt at 28,500.0. */
const long10: Position = { sizeLots: 10n, entryCost: usdt("300") };
const pool = isolatedPool(usdt("15"));

describe("liquidation plan", () => {
  it("is null while equity covers maintenance", () => {
    expect(
      liquidationPlan(market, long10, pool, { priceTicks: 286_145n, tickIds: ["t"] }),
    ).toBeNull();
  });

  it("at 28,600: equity 1 < maintenance 1.144; close 6 of 10 lots, limit 28,500.0", () => {
    // After closing k at the mark, 4 lots need 4 × 28.6 × 0.4 % = 0.4576 ≤ half of 1 USDT.
    expect(
      liquidationPlan(market, long10, pool, { priceTicks: 286_000n, tickIds: ["t7"] }),
    ).toEqual({
      markTicks: 286_000n,
      tickIds: ["t7"],
      equity: usdt("1"),
      maintenance: 1_144_000n,
      side: "sell",
      lots: 6n,
      limitTicks: 285_000n,
      bankruptcyTicks: { num: usdt("285"), den: 1_000n },
      reduceOnly: true,
      timeInForce: "ioc",
    });
  });

  const lotCases: [string, Position, bigint, bigint, bigint, number][] = [
    // [name, position, margin, mark, lots to close, smallest order]
    ["bankrupt already: everything", long10, usdt("15"), 280_000n, 10n, 1],
    // 4 lots would be left, below a smallest order of 5.
    ["the rest would be below the smallest order", long10, usdt("15"), 286_000n, 10n, 5],
    // Equity 15 + 300 − 314 = 1; 3 lots need 3 × 31.4 × 0.4 % = 0.3768 ≤ 0.5, 4 need 0.5024.
    ["a short: buys back", { sizeLots: -10n, entryCost: usdt("300") }, usdt("15"), 314_000n, 7n, 1],
  ];
  it.each(lotCases)("%s", (_name, position, margin, mark, lots, lotsMin) => {
    const m = btcPerp({ quantityLotsMin: lotsMin });
    expect(liquidationLots(m, position, isolatedPool(margin), mark)).toBe(lots);
  });

  it("a short is bought back at most at its bankruptcy price, rounded down", () => {
    const plan = liquidationPlan(
      market,
      { sizeLots: -3n, entryCost: 90_000_200n },
      isolatedPool(4_500_001n),
      { priceTicks: 314_000n, tickIds: ["t"] },
    )!;
    expect([plan.side, plan.limitTicks]).toEqual(["buy", 315_000n]);
  });
});

describe("liquidation fee", () => {
  it("is 0.10 % of the fill, rounded up", () => {
    // 6 lots at 28,600: 171.6 USDT × 0.1 % = 0.1716.
    expect(liquidationFee(market, long10, pool, 6n, 286_000n)).toBe(171_600n);
    // 1 lot at 28,600.1: 28.6001 × 0.1 % = 0.0286001 → 28,601 units.
    expect(liquidationFee(market, long10, pool, 1n, 286_001n)).toBe(28_601n);
  });

  it("never takes the position below bankruptcy: at most the closed lots' share of equity", () => {
    const costly = btcPerp({ liquidationFeeBps: 100 });
    // Full fee 6 × 28.6 × 1 % = 1.716; equity at 28,600 is 1 USDT, 6/10 of it is 0.6.
    expect(liquidationFee(costly, long10, pool, 6n, 286_000n)).toBe(600_000n);
    // At the bankruptcy price nothing is left to take.
    expect(liquidationFee(costly, long10, pool, 6n, 285_000n)).toBe(0n);
  });
});

describe("closing at the bankruptcy value", () => {
  it.each([
    // [name, position, collateral, lots, value]
    ["whole long: cost − margin", long10, usdt("15"), 10n, usdt("285")],
    // 3 × 285 / 10 = 85.5 exactly.
    ["part of a long", long10, usdt("15"), 3n, 85_500_000n],
    // 1 × 85,500,199 / 3 = 28,500,066.33: up, the user's way.
    ["odd long", { sizeLots: 3n, entryCost: 90_000_200n }, 4_500_001n, 1n, 28_500_067n],
    // 1 × 94,500,201 / 3 = 31,500,067: exact.
    ["odd short", { sizeLots: -3n, entryCost: 90_000_200n }, 4_500_001n, 1n, 31_500_067n],
    ["short, 2 of 3: down", { sizeLots: -3n, entryCost: 90_000_200n }, 4_500_000n, 2n, 63_000_133n],
    ["a short beyond zero closes for nothing", { sizeLots: -1n, entryCost: 50n }, -60n, 1n, 0n],
  ] as const)("%s", (_name, position, collateral, lots, value) => {
    expect(closeValueAtBankruptcy(position, collateral, lots)).toBe(value);
  });

  it("the taker takes what its equity can carry", () => {
    // Mark 28,000 after a gap: each lot taken at 28,500 costs the taker 0.5 USDT.
    expect(takeoverLots(usdt("100"), long10, usdt("15"), 10n, 280_000n, U)).toBe(10n);
    expect(takeoverLots(usdt("1"), long10, usdt("15"), 10n, 280_000n, U)).toBe(2n);
    expect(takeoverLots(usdt("0.4"), long10, usdt("15"), 10n, 280_000n, U)).toBe(0n);
    // Above the bankruptcy price the taker gains: any equity takes all.
    expect(takeoverLots(0n, long10, usdt("15"), 10n, 286_000n, U)).toBe(10n);
    // A short bankrupt at 31,500 with the mark at 32,000: the taker (a long) loses 0.5 a lot.
    const short = { sizeLots: -10n, entryCost: usdt("300") };
    expect(takeoverLots(usdt("2"), short, usdt("15"), 10n, 320_000n, U)).toBe(4n);
  });

  it("negative-balance protection covers only what is below zero", () => {
    expect(negativeBalanceCover(-5n)).toBe(5n);
    expect(negativeBalanceCover(5n)).toBe(0n);
  });
});

describe("auto-deleveraging queue", () => {
  // Shorts at mark 28,000: B 5 lots from 30,000 (U = +10, equity 60), C 5 lots from 29,000
  // (U = +5, equity 55), D 5 lots from 27,000 (U = −5, equity 45), E 1 lot, equity 0.
  const candidates = [
    { id: "C", sizeLots: -5n, entryCost: usdt("145"), equity: usdt("55") },
    { id: "E", sizeLots: -1n, entryCost: usdt("20"), equity: 0n },
    { id: "D", sizeLots: -5n, entryCost: usdt("135"), equity: usdt("45") },
    { id: "B", sizeLots: -5n, entryCost: usdt("150"), equity: usdt("60") },
  ];

  it("ranks profit × leverage first, then losses, then positions without equity", () => {
    const ranking = adlRanking(candidates, 280_000n, U);
    // B: 10/150 × 140/60 = 0.1556; C: 5/145 × 140/55 = 0.0878; D: −5/135 × 45/140 = −0.0119.
    expect(ranking.map((r) => [r.id, r.rank, r.bucket, r.eligible])).toEqual([
      ["B", 1, 5, true],
      ["C", 2, 4, true],
      ["D", 3, 3, true],
      ["E", 4, 2, false],
    ]);
    expect(ranking[0]!.score).toEqual({
      num: usdt("10") * usdt("140"),
      den: usdt("150") * usdt("60"),
    });
    expect(ranking[0]!.unrealisedPnl).toBe(usdt("10"));
  });

  it("breaks ties by id", () => {
    const twins = [
      { id: "Y", sizeLots: 1n, entryCost: usdt("28"), equity: usdt("10") },
      { id: "X", sizeLots: 1n, entryCost: usdt("28"), equity: usdt("10") },
    ];
    expect(adlRanking(twins, 290_000n, U).map((r) => r.id)).toEqual(["X", "Y"]);
  });
});
