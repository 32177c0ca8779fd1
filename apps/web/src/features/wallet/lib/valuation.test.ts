import { describe, expect, it } from "vitest";
import { totalValue, valueOf } from "./valuation.ts";

describe("valuation", () => {
  it("values balances exactly at last prices, rounding the total down", () => {
    const prices = new Map([
      ["BTC", "96389.46"],
      ["ETH", "3000.123456789"],
    ]);
    const { total, unpriced } = totalValue(
      [
        { asset: "USDT", total: "100.5" },
        { asset: "BTC", total: "0.00010001" },
        { asset: "ETH", total: "2" },
        { asset: "XYZ", total: "5" },
        { asset: "ABC", total: "0" },
      ],
      "USDT",
      (asset) => prices.get(asset),
      2,
    );
    // 100.5 + 9.6399099... + 6000.246913578 = 6110.3868... → 6110.38 (down, never up).
    expect(total).toBe("6110.38");
    expect(unpriced).toEqual(["XYZ"]);
    // Beyond a double's precision: the digits stay exact.
    expect(valueOf("90071992547409.93", "100", 2)).toBe(900719925474099300n);
    expect(valueOf("1", undefined, 2)).toBeUndefined();
  });
});
