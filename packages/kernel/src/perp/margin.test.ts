// Margin arithmetic, hand-checked on BTC-PERP (one lot at one tick = 100 units; 30,000.0 USDT
// = 300,000 ticks; tier 0: 0.40 % maintenance up to 50,000 USDT of notional).
import { describe, expect, it } from "vitest";
import type { CrossPosition } from "./margin.ts";
import {
  bankruptcyLimitTicks,
  bankruptcyPrice,
  crossEquity,
  crossMaintenance,
  crossPool,
  initialMargin,
  isolatedPool,
  liquidationPriceTicks,
  maintenanceMargin,
  marginRatioBps,
  marginState,
  maxOrderLots,
  maxRemovableMargin,
  maxWithdrawable,
  orderMarginHold,
} from "./margin.ts";
import type { Position } from "./position.ts";
import { btcPerp, usdt } from "./testing.ts";

const market = btcPerp();
const long10: Position = { sizeLots: 10n, entryCost: usdt("300") };
const short10: Position = { sizeLots: -10n, entryCost: usdt("300") };

describe("initial and maintenance margin", () => {
  it.each([
    // [notional, leverage, initial margin]
    [usdt("300"), 20, usdt("15")],
    // 300 / 7 = 42.857142857…: up.
    [usdt("300"), 7, 42_857_143n],
    [1n, 125, 1n],
  ])("initial margin of %s at %sx is %s", (value, leverage, expected) => {
    expect(initialMargin(value, leverage)).toBe(expected);
  });

  it.each([
    // [notional, maintenance]: tier 0: 0.40 %.
    [usdt("300"), usdt("1.2")],
    // 333 units × 0.004 = 1.332: up to 2.
    [333n, 2n],
    // The tier edge: 50,000 × 0.40 % = 200 = 50,000 × 0.50 % − 50.
    [usdt("50000") - 1n, usdt("200")],
    [usdt("50000"), usdt("200")],
    // Tier 1: 60,000 × 0.50 % − 50 = 250.
    [usdt("60000"), usdt("250")],
    // Tier 3: 3,500,032.458 × 2.50 % − 16,300 = 71,200.81145, up in the last unit.
    [3_500_032_458_000n, 71_200_811_450n],
    [0n, 0n],
  ])("maintenance of %s is %s", (value, expected) => {
    expect(maintenanceMargin(market, value)).toBe(expected);
  });
});

describe("equity, margin ratio and the liquidation test", () => {
  it("isolated long 10 lots at 30,000, 20x (15 USDT margin), mark 29,000", () => {
    // Equity 15 − 10 = 5 USDT; maintenance 290 × 0.4 % = 1.16; ratio 23.2 %.
    expect(marginState(market, long10, isolatedPool(usdt("15")), 290_000n)).toEqual({
      equity: usdt("5"),
      maintenance: 1_160_000n,
      marginRatioBps: 2_320n,
      liquidatable: false,
    });
  });

  it("the same at 28,600: equity 1 USDT < maintenance 1.144 USDT", () => {
    expect(marginState(market, long10, isolatedPool(usdt("15")), 286_000n)).toEqual({
      equity: usdt("1"),
      maintenance: 1_144_000n,
      marginRatioBps: 11_440n,
      liquidatable: true,
    });
  });

  it("margin ratio: up; null past 100 % with no equity", () => {
    expect(marginRatioBps(1n, 3n)).toBe(3_334n);
    expect(marginRatioBps(5n, 0n)).toBeNull();
    expect(marginRatioBps(5n, -1n)).toBeNull();
    expect(marginRatioBps(0n, 0n)).toBe(0n);
  });

  it("cross equity and maintenance add up every position at its own mark", () => {
    const eth = btcPerp({ marketId: "ETH-PERP", instrumentId: "ETH-USDT", priceStep: "0.01" });
    const positions: CrossPosition[] = [
      { market, position: long10, markTicks: 290_000n },
      // ETH: 10 lots × 0.001 × 2,000 = 20 USDT short entered at 2,100: +1 USDT.
      { market: eth, position: { sizeLots: -10n, entryCost: usdt("21") }, markTicks: 200_000n },
    ];
    expect(eth.tickLotUnits).toBe(10n);
    expect(crossEquity(usdt("100"), positions)).toBe(usdt("91"));
    expect(crossMaintenance(positions)).toBe(1_160_000n + 80_000n);
    expect(crossPool(usdt("100"), positions.slice(1))).toEqual({
      collateral: usdt("101"),
      maintenanceOther: 80_000n,
    });
  });
});

describe("liquidation and bankruptcy prices", () => {
  it.each([
    // [name, position, pool, liquidation ticks, bankruptcy ticks (exact), limit ticks]
    // Long: (300 − 15) / (10 × 0.001 × 0.996) = 28,614.457…: liquidated at ≤ 28,614.4.
    [
      "isolated long 20x",
      long10,
      isolatedPool(usdt("15")),
      286_144n,
      [285_000_000n, 1_000n],
      285_000n,
    ],
    // Short: (300 + 15) / (10 × 0.001 × 1.004) = 31,374.50…: liquidated at ≥ 31,374.6.
    [
      "isolated short 20x",
      short10,
      isolatedPool(usdt("15")),
      313_746n,
      [315_000_000n, 1_000n],
      315_000n,
    ],
    // Cross long, 100 USDT wallet: (300 − 100) / 0.00996 = 20,080.32…
    [
      "cross long, 100 USDT",
      long10,
      { collateral: usdt("100"), maintenanceOther: 0n },
      200_803n,
      [200_000_000n, 1_000n],
      200_000n,
    ],
    // With another cross position at −20 USDT and 5 USDT maintenance: (300 − 80 + 5) / 0.00996.
    [
      "cross long with another position",
      long10,
      { collateral: usdt("80"), maintenanceOther: usdt("5") },
      225_903n,
      [220_000_000n, 1_000n],
      220_000n,
    ],
    // 1x long: never liquidated; bankrupt only at a price of zero.
    ["isolated long 1x", long10, isolatedPool(usdt("300")), null, [0n, 1_000n], 1n],
    // Odd numbers: 3 lots, cost 90,000,200, margin 4,500,001 (20x): bankruptcy 85,500,199 / 300
    // (up to 285,001 for the limit); 85,500,199 / 298.8 = 286,145.24… for the liquidation.
    [
      "odd long",
      { sizeLots: 3n, entryCost: 90_000_200n },
      isolatedPool(4_500_001n),
      286_145n,
      [85_500_199n, 300n],
      285_001n,
    ],
    [
      "odd short",
      { sizeLots: -3n, entryCost: 90_000_200n },
      isolatedPool(4_500_001n),
      313_746n,
      [94_500_201n, 300n],
      315_000n,
    ],
  ] as const)("%s", (_name, position, pool, liquidation, bankruptcy, limit) => {
    expect(liquidationPriceTicks(market, position, pool)).toBe(liquidation);
    expect(bankruptcyPrice(position, pool.collateral, market.tickLotUnits)).toEqual({
      num: bankruptcy[0],
      den: bankruptcy[1],
    });
    expect(bankruptcyLimitTicks(position, pool.collateral, market.tickLotUnits)).toBe(limit);
  });

  it("the liquidation price is exactly where the test flips", () => {
    const pool = isolatedPool(usdt("15"));
    expect(marginState(market, long10, pool, 286_144n).liquidatable).toBe(true);
    expect(marginState(market, long10, pool, 286_145n).liquidatable).toBe(false);
    expect(marginState(market, short10, pool, 313_746n).liquidatable).toBe(true);
    expect(marginState(market, short10, pool, 313_745n).liquidatable).toBe(false);
  });

  it("agrees with the closed form within a tick across tiers", () => {
    // 2,000 lots at 30,000 = 60,000 USDT (tier 1, 0.50 %, amount 50), 50x: margin 1,200.
    const position = { sizeLots: 2_000n, entryCost: usdt("60000") };
    const price = liquidationPriceTicks(market, position, isolatedPool(usdt("1200")))!;
    // (60,000 − (1,200 + 50)) / (2,000 × 0.001 × 0.995) = 29,522.61…
    expect(price).toBe(295_226n);
  });

  it("a short that cannot be bought back without a deficit has no limit price", () => {
    expect(bankruptcyLimitTicks({ sizeLots: -1n, entryCost: 50n }, -60n, 100n)).toBeNull();
  });
});

describe("what may leave, and what an order holds", () => {
  it("removable margin keeps the initial margin and leaves unrealised profit in", () => {
    // Margin 20, IM at mark 15: 5 may go; with a 3 USDT loss, 2; with a profit still 5.
    expect(maxRemovableMargin(usdt("20"), 0n, usdt("15"))).toBe(usdt("5"));
    expect(maxRemovableMargin(usdt("20"), usdt("-3"), usdt("15"))).toBe(usdt("2"));
    expect(maxRemovableMargin(usdt("20"), usdt("30"), usdt("15"))).toBe(usdt("5"));
    expect(maxRemovableMargin(usdt("10"), usdt("-3"), usdt("15"))).toBe(0n);
    expect(maxWithdrawable(usdt("100"), usdt("-10"), usdt("15"))).toBe(usdt("75"));
    expect(maxWithdrawable(usdt("100"), usdt("50"), usdt("15"))).toBe(usdt("85"));
  });

  const base = {
    market,
    leverage: 20,
    side: "buy" as const,
    priceTicks: 300_000n,
    markTicks: 300_000n,
    positionSizeLots: 0n,
    reducingLotsOpen: 0n,
  };

  it("holds margin, open loss and a fee reserve on the opening lots only", () => {
    // 10 lots at 30,100 with the mark at 30,000: IM 301 / 20 = 15.05, open loss 10 × 0.001 × 100
    // = 1, fee reserve 301 × 0.05 % = 0.1505.
    expect(orderMarginHold({ ...base, priceTicks: 301_000n, lots: 10n })).toEqual({
      reducingLots: 0n,
      openingLots: 10n,
      initialMargin: 15_050_000n,
      openLoss: usdt("1"),
      feeReserve: 150_500n,
      total: 16_200_500n,
    });
    // Short 6 with 2 lots already being bought back: 4 of 10 reduce, 6 open.
    const hold = orderMarginHold({
      ...base,
      lots: 10n,
      positionSizeLots: -6n,
      reducingLotsOpen: 2n,
    });
    expect([hold.reducingLots, hold.openingLots, hold.initialMargin]).toEqual([4n, 6n, usdt("9")]);
    // A sell above the mark has no open loss.
    expect(
      orderMarginHold({ ...base, side: "sell", priceTicks: 301_000n, lots: 1n }).openLoss,
    ).toBe(0n);
  });

  it.each([
    // [name, changes, available, lots]: 1,515,000 units a lot at 30,000 and 20x.
    ["flat, 100 USDT", {}, usdt("100"), 66n],
    ["buying 1,000 ticks above the mark", { priceTicks: 301_000n }, usdt("100"), 61n],
    ["short 10: those 10 need nothing", { positionSizeLots: -10n }, usdt("100"), 76n],
    // 125x stops below the 50,000 USDT tier: 1,666 lots = 49,980 USDT.
    ["125x meets the tier cap", { leverage: 125 }, usdt("10000"), 1_666n],
    ["nothing available", {}, 0n, 0n],
  ] as const)("max order lots: %s", (_name, changes, available, lots) => {
    expect(maxOrderLots({ ...base, ...changes }, available)).toBe(lots);
  });
});
