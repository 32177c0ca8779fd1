// Funding, hand-checked on BTC-PERP: 8 h interval, interest 3 bps a day (0.01 % per interval),
// cap 0.30 %, dampener ±0.05 %. Rates are E8: 0.01 % = 10,000.
import { describe, expect, it } from "vitest";
import {
  averagePremiumE8,
  estimatedFundingRateE8,
  fundingRateE8,
  fundingSettlement,
  interestE8,
  nextFundingAtMs,
  premiumE8FromImpact,
  premiumE8FromMid,
} from "./funding.ts";
import { btcPerp } from "./testing.ts";

const market = btcPerp();
const HOUR = 3_600_000;

describe("premium samples", () => {
  it.each([
    // (300,100 + 300,300) / 2 = 300,200 over 300,000: 0.0667 % → 66,666 (toward zero).
    [300_000n, 300_100n, 300_300n, 66_666n],
    [300_000n, 299_700n, 299_900n, -66_666n],
    [300_000n, 299_999n, 300_001n, 0n],
  ])("mid premium of index %s, bid %s, ask %s is %s", (indexTicks, bid, ask, premium) => {
    expect(premiumE8FromMid(indexTicks, bid, ask)).toBe(premium);
  });

  it("impact premium is zero while the index sits inside the impact spread", () => {
    expect(premiumE8FromImpact(300_000n, 299_900n, 300_100n)).toBe(0n);
    // Impact bid 30,030 above index 30,000: 0.1 %.
    expect(premiumE8FromImpact(300_000n, 300_300n, 300_500n)).toBe(100_000n);
    expect(premiumE8FromImpact(300_000n, 299_500n, 299_700n)).toBe(-100_000n);
  });

  it("averages by the time each sample held, zero before the first", () => {
    const interval = 8 * HOUR;
    const samples = [
      { atMs: 0, tickId: "a", premiumE8: 10_000n },
      { atMs: 4 * HOUR, tickId: "b", premiumE8: 50_000n },
    ];
    expect(averagePremiumE8(samples, 0, interval)).toBe(30_000n);
    // One sample from 2 h on: 40,000 × 6/8.
    expect(
      averagePremiumE8([{ atMs: 2 * HOUR, tickId: "c", premiumE8: 40_000n }], 0, interval),
    ).toBe(30_000n);
    // 1 × 1 ms + 0 over 3 ms: 0.33 → 0 (toward zero); −0.33 → 0.
    expect(
      averagePremiumE8(
        [
          { atMs: 0, tickId: "d", premiumE8: 1n },
          { atMs: 1, tickId: "e", premiumE8: 0n },
        ],
        0,
        3,
      ),
    ).toBe(0n);
    expect(averagePremiumE8([{ atMs: 2, tickId: "f", premiumE8: -1n }], 0, 3)).toBe(0n);
    expect(() => averagePremiumE8([{ atMs: 9, tickId: "g", premiumE8: 1n }], 0, 3)).toThrow(
      RangeError,
    );
  });
});

describe("funding rate", () => {
  it("interest per interval: 3 bps a day over 8 h is 0.01 %", () => {
    expect(interestE8(market)).toBe(10_000n);
    expect(interestE8(btcPerp({ fundingIntervalMs: 4 * HOUR }))).toBe(5_000n);
    expect(interestE8(btcPerp({ fundingIntervalMs: HOUR }))).toBe(1_250n);
  });

  it.each([
    // [premium, rate]: F = P + clamp(I − P, ±0.05 %), then ±0.30 %.
    [0n, 10_000n],
    // |I − P| within 0.05 %: the rate is the interest.
    [30_000n, 10_000n],
    [-40_000n, 10_000n],
    [100_000n, 50_000n],
    [-200_000n, -150_000n],
    [500_000n, 300_000n],
    [-500_000n, -300_000n],
  ])("premium %s gives rate %s", (premium, rate) => {
    expect(fundingRateE8(market, premium)).toBe(rate);
  });

  it("estimates the rate over the interval so far", () => {
    const samples = [{ atMs: 0, tickId: "a", premiumE8: 100_000n }];
    expect(estimatedFundingRateE8(market, samples, 0, HOUR)).toBe(50_000n);
    expect(estimatedFundingRateE8(market, samples, 0, 0)).toBe(10_000n);
  });

  it("settles at 00:00, 08:00 and 16:00 UTC", () => {
    expect(nextFundingAtMs(market, 0)).toBe(8 * HOUR);
    expect(nextFundingAtMs(market, 8 * HOUR - 1)).toBe(8 * HOUR);
    expect(nextFundingAtMs(market, 8 * HOUR)).toBe(16 * HOUR);
  });
});

describe("funding payments", () => {
  const mark = { priceTicks: 300_000n, tickIds: ["t9"] };
  const positions = [
    { id: "A", sizeLots: 3n },
    { id: "B", sizeLots: -1n },
    { id: "C", sizeLots: -1n },
    { id: "D", sizeLots: -1n },
    { id: "E", sizeLots: 0n },
  ];

  it("longs pay a positive rate: payers round up, receivers down, 1 unit to the remainder", () => {
    // A owes 3 × 30 USDT × 0.010001 % = 9,000.9 units; each short is owed 3,000.3.
    const settlement = fundingSettlement(market, positions, mark, 10_001n, [
      { atMs: 0, tickId: "t1", premiumE8: 0n },
      { atMs: 1, tickId: "t9", premiumE8: 0n },
    ]);
    expect(settlement.payments).toEqual([
      { id: "A", sizeLots: 3n, amount: -9_001n },
      { id: "B", sizeLots: -1n, amount: 3_000n },
      { id: "C", sizeLots: -1n, amount: 3_000n },
      { id: "D", sizeLots: -1n, amount: 3_000n },
    ]);
    expect([settlement.paidTotal, settlement.receivedTotal, settlement.remainder]).toEqual([
      9_001n,
      9_000n,
      1n,
    ]);
    expect(settlement.tickIds).toEqual(["t1", "t9"]);
  });

  it("shorts pay a negative rate: three payers round up, 3 units to the remainder", () => {
    const settlement = fundingSettlement(market, positions, mark, -10_001n);
    expect(settlement.payments.map((p) => p.amount)).toEqual([9_000n, -3_001n, -3_001n, -3_001n]);
    expect(settlement.remainder).toBe(3n);
    const sum = settlement.payments.reduce((total, p) => total + p.amount, 0n);
    expect(sum + settlement.remainder).toBe(0n);
  });

  it("exact amounts leave no remainder, and unbalanced open interest is refused", () => {
    const settlement = fundingSettlement(market, positions, mark, 10_000n);
    expect(settlement.payments.map((p) => p.amount)).toEqual([-9_000n, 3_000n, 3_000n, 3_000n]);
    expect(settlement.remainder).toBe(0n);
    expect(() => fundingSettlement(market, [{ id: "A", sizeLots: 1n }], mark, 1n)).toThrow(
      RangeError,
    );
  });
});
