import { describe, expect, it } from "vitest";
import type { PerpMarketParams } from "./params.ts";
import {
  definePerpMarket,
  leverageMaxFor,
  notionalMaxForLeverage,
  tierIndexFor,
  validatePerpParams,
} from "./params.ts";
import { btcPerp, btcPerpParams, usdt } from "./testing.ts";

describe("perpetual market parameters", () => {
  it("derive one lot at one tick: 0.1 USDT × 0.001 BTC = 0.0001 USDT = 100 units", () => {
    const market = btcPerp();
    expect(market.tickLotUnits).toBe(100n);
    expect(market.priceStepScaled).toBe(100_000_000_000_000_000n);
  });

  const cases: [string, Partial<PerpMarketParams>, string[]][] = [
    ["valid", {}, []],
    ["bad market id", { marketId: "BTC PERP" }, ["market_invalid"]],
    ["bad instrument", { instrumentId: "" }, ["instrument_id_invalid"]],
    // 0.01 × 0.001 × 10^6 = 10 units; 0.00001 × 0.001 × 10^6 = 0.01: not whole.
    ["lot at one tick not whole", { priceStep: "0.00001" }, ["perp_contract_invalid"]],
    ["zero contract size", { contractSize: "0" }, ["perp_contract_invalid"]],
    ["lots", { quantityLotsMin: 10, quantityLotsMax: 5 }, ["perp_lots_invalid"]],
    ["leverage above 200", { leverageMax: 201 }, ["perp_leverage_invalid"]],
    ["default above max", { leverageDefault: 126 }, ["perp_leverage_invalid"]],
    ["fees", { feeBpsTaker: 1001 }, ["perp_fee_invalid"]],
    ["interval not dividing a day", { fundingIntervalMs: 7 * 3_600_000 }, ["perp_funding_invalid"]],
    ["funding cap 0", { fundingCapBps: 0 }, ["perp_funding_invalid"]],
    ["interest above 100", { interestBpsPerDay: 101 }, ["perp_funding_invalid"]],
    ["basis cap above band", { markBasisCapBps: 600 }, ["perp_band_invalid"]],
    ["liquidation fee", { liquidationFeeBps: -1 }, ["perp_liquidation_fee_invalid"]],
    [
      "several at once, in a fixed order",
      { marketId: "", feeBpsMaker: 2000, liquidationFeeBps: 5000 },
      ["market_invalid", "perp_fee_invalid", "perp_liquidation_fee_invalid"],
    ],
  ];
  it.each(cases)("%s", (_name, overrides, codes) => {
    expect(validatePerpParams(btcPerpParams(overrides))).toEqual(codes);
  });

  const tiers = btcPerpParams().tiers;
  const tierCases: [string, PerpMarketParams["tiers"], string[]][] = [
    ["no tiers", [], ["perp_tiers_invalid"]],
    ["first floor not 0", [{ ...tiers[0]!, notionalFloor: 1n }], ["perp_tiers_invalid"]],
    [
      "first tier below the market cap",
      [{ ...tiers[0]!, leverageMax: 100 }],
      ["perp_tiers_invalid"],
    ],
    [
      "floors not rising",
      [tiers[0]!, { ...tiers[1]!, notionalFloor: 0n }],
      ["perp_tiers_invalid", "perp_tier_amount_mismatch"],
    ],
    [
      "leverage rising",
      [tiers[0]!, { ...tiers[1]!, leverageMax: 60 }, { ...tiers[2]!, leverageMax: 80 }],
      ["perp_tier_margin_too_high", "perp_tiers_invalid"],
    ],
    // 50,000 USDT × (0.50 % − 0.40 %) = 50 USDT, not 49.
    [
      "amount not continuous",
      [tiers[0]!, { ...tiers[1]!, maintenanceAmount: usdt("49") }],
      ["perp_tier_amount_mismatch"],
    ],
    // 0.5 % × 125 = 62.5 % of the initial margin: above half.
    [
      "maintenance above half the initial margin",
      [{ ...tiers[0]!, maintenanceMarginRateBps: 50 }],
      ["perp_tier_margin_too_high"],
    ],
  ];
  it.each(tierCases)("tiers: %s", (_name, tierList, codes) => {
    expect(validatePerpParams(btcPerpParams({ tiers: tierList }))).toEqual(codes);
  });

  it("refuses to define an invalid market and copies the tiers of a valid one", () => {
    expect(definePerpMarket(btcPerpParams({ fundingCapBps: 0 }))).toEqual({
      ok: false,
      codes: ["perp_funding_invalid"],
    });
    const params = btcPerpParams();
    const defined = definePerpMarket(params);
    params.tiers[0]!.maintenanceMarginRateBps = 1;
    expect(defined.ok && defined.value.tiers[0]!.maintenanceMarginRateBps).toBe(40);
  });

  it("picks tiers by notional, a floor belonging to its own tier", () => {
    const market = btcPerp();
    expect(tierIndexFor(market, 0n)).toBe(0);
    expect(tierIndexFor(market, usdt("50000") - 1n)).toBe(0);
    expect(tierIndexFor(market, usdt("50000"))).toBe(1);
    expect(tierIndexFor(market, usdt("20000000"))).toBe(4);
    expect(leverageMaxFor(market, usdt("60000"))).toBe(100);
  });

  it("caps the notional a leverage may reach", () => {
    const market = btcPerp();
    expect(notionalMaxForLeverage(market, 125)).toBe(usdt("50000") - 1n);
    expect(notionalMaxForLeverage(market, 20)).toBe(usdt("10000000") - 1n);
    expect(notionalMaxForLeverage(market, 10)).toBeNull();
  });
});
