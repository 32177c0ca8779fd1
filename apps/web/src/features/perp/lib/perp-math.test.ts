import { describe, expect, it } from "vitest";
import { bpsText, estimateOrder, percentOfFraction } from "./perp-math.ts";

describe("perpetual order estimates", () => {
  const base = {
    contracts: "10",
    contractSize: "0.001",
    price: "30000",
    leverage: 20,
    feeBps: 5,
    maintenanceRateBps: 50,
    assetDecimals: 6,
    priceStep: "0.1",
  };
  it("notional, margin, fee and isolated liquidation price (long and short)", () => {
    // 10 × 0.001 × 30,000 = 300; /20 = 15; fee 0.05 % = 0.15; long 30,000 × (1 − 0.05 + 0.005).
    expect(estimateOrder({ ...base, side: "buy" })).toEqual({
      notional: "300",
      margin: "15",
      fee: "0.15",
      liquidationPrice: "28650",
    });
    expect(estimateOrder({ ...base, side: "sell" })?.liquidationPrice).toBe("31350");
  });
  it("nothing for what is not a whole number of contracts or a price", () => {
    expect(estimateOrder({ ...base, side: "buy", contracts: "1.5" })).toBeUndefined();
    expect(estimateOrder({ ...base, side: "buy", price: "" })).toBeUndefined();
  });
  it("percent text of basis points and of fractions", () => {
    expect(bpsText(5)).toBe("0.05");
    expect(percentOfFraction("0.0001")).toBe("0.01");
    expect(percentOfFraction("-0.00075")).toBe("-0.075");
  });
});
