import { formatDecimal } from "@candor/decimal";
import { describe, expect, it } from "vitest";
import {
  bpsToPercentText,
  covers,
  deviationBps,
  feeEstimate,
  quantityForPercent,
  quoteForPercent,
  readField,
  totalText,
  unitsOf,
  type PairScales,
} from "./order-math.ts";

const btcUsdt: PairScales = {
  priceScale: 2,
  tickSize: "0.01",
  quantityScale: 6,
  lotSize: "0.000001",
  quoteDecimals: 6,
  baseDecimals: 8,
};

describe("decimal strings and units", () => {
  it("reads and writes without floats, rejecting over-precise input", () => {
    expect(unitsOf("12.5", 3)).toBe(12_500n);
    expect(unitsOf("1.50", 1)).toBe(15n);
    expect(unitsOf("0.1234", 3)).toBeUndefined();
    expect(unitsOf("-1", 2)).toBeUndefined();
    expect(unitsOf("1e3", 2)).toBeUndefined();
    expect(unitsOf("99999999999999999999.99", 2)).toBe(BigInt("9999999999999999999999"));
    expect(formatDecimal(12_500n, 3)).toBe("12.5");
    expect(formatDecimal(5n, 8)).toBe("0.00000005");
    expect(formatDecimal(-150n, 2)).toBe("-1.5");
    expect(formatDecimal(0n, 2)).toBe("0");
  });

  it("checks a field against its scale and step", () => {
    expect(readField("abc", 2, "0.01")).toEqual({ problem: "invalid" });
    expect(readField("1.001", 2, "0.01")).toEqual({ problem: "tooPrecise" });
    expect(readField("0", 2, "0.01")).toEqual({ problem: "notPositive" });
    expect(readField("1.05", 2, "0.1")).toEqual({ problem: "notOnStep" });
    expect(readField("1.1", 2, "0.1")).toEqual({ units: 110n });
  });
});

describe("order form amounts", () => {
  it("computes the total rounded up to the quote's smallest unit", () => {
    expect(totalText("95000.01", "0.5", btcUsdt)).toBe("47500.005");
    expect(totalText("0.01", "0.000001", btcUsdt)).toBe("0.000001"); // 1e-8 rounds up to 1e-6
    expect(totalText("x", "1", btcUsdt)).toBeUndefined();
  });

  it("sells a share of the available base, rounded down to the lot", () => {
    expect(
      quantityForPercent({
        side: "sell",
        percent: 25,
        available: "1.00000003",
        price: undefined,
        pair: btcUsdt,
      }),
    ).toBe("0.25");
    expect(
      quantityForPercent({
        side: "sell",
        percent: 100,
        available: "0.12345678",
        price: undefined,
        pair: btcUsdt,
      }),
    ).toBe("0.123456");
  });

  it("buys what a share of the available quote pays for at the price, rounded down", () => {
    // 1000 USDT × 50 % / 30000 = 0.016666… → 0.016666
    expect(
      quantityForPercent({
        side: "buy",
        percent: 50,
        available: "1000",
        price: "30000",
        pair: btcUsdt,
      }),
    ).toBe("0.016666");
    // Never more than the balance pays for, even at the last unit.
    const quantity = quantityForPercent({
      side: "buy",
      percent: 100,
      available: "123.456789",
      price: "95012.34",
      pair: btcUsdt,
    })!;
    expect(covers("123.456789", totalText("95012.34", quantity, btcUsdt)!, 6)).toBe(true);
    expect(
      quantityForPercent({
        side: "buy",
        percent: 50,
        available: "1000",
        price: undefined,
        pair: btcUsdt,
      }),
    ).toBeUndefined();
    expect(quoteForPercent("10.000001", 75, 6)).toBe("7.5");
  });

  it("measures how far a price is from the last price", () => {
    expect(deviationBps("105", "100")).toEqual({ direction: "above", bps: 500n });
    expect(deviationBps("94.999", "100")).toEqual({ direction: "below", bps: 500n });
    expect(deviationBps("100.00", "100")).toEqual({ direction: "same", bps: 0n });
    expect(bpsToPercentText(500n)).toBe("5");
    expect(bpsToPercentText(125n)).toBe("1.25");
  });

  it("estimates the fee rounded up", () => {
    expect(feeEstimate(1_000_000n, 10n)).toBe(1_000n);
    expect(feeEstimate(1n, 10n)).toBe(1n);
    expect(feeEstimate(0n, 10n)).toBe(0n);
  });
});
