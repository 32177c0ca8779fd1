// Position arithmetic, hand-checked. BTC-PERP: one lot at one tick is 100 quote units, so a
// lot at 300,000 ticks (30,000.0 USDT) is 30,000,000 units (30 USDT).
import { describe, expect, it } from "vitest";
import type { Position } from "./position.ts";
import {
  applyFill,
  applyTradeForQuote,
  closeForQuote,
  entryPriceTicks,
  FLAT,
  unrealisedPnl,
} from "./position.ts";

const U = 100n;

/** [delta lots, price ticks] → [size, entryCost, realised, closed, opened] after each fill. */
type Step = [bigint, bigint, [bigint, bigint, bigint, bigint, bigint]];

const scenarios: { name: string; steps: Step[] }[] = [
  {
    name: "long: open, increase, partial close in profit, close the rest",
    steps: [
      [10n, 300_000n, [10n, 300_000_000n, 0n, 0n, 10n]],
      // Average entry (300 + 310) / 20 lots = 30,500.0: cost 610 USDT.
      [10n, 310_000n, [20n, 610_000_000n, 0n, 0n, 10n]],
      // 7 lots out at 32,000: 7 × 0.001 × (32,000 − 30,500) = 10.5 USDT.
      [-7n, 320_000n, [13n, 396_500_000n, 10_500_000n, 7n, 0n]],
      // 13 lots out at 30,000: 13 × 0.001 × (30,000 − 30,500) = −6.5 USDT.
      [-13n, 300_000n, [0n, 0n, -6_500_000n, 13n, 0n]],
    ],
  },
  {
    name: "short: open, partial close at a loss, increase",
    steps: [
      [-5n, 300_000n, [-5n, 150_000_000n, 0n, 0n, 5n]],
      // Buy back 2 at 30,100: 2 × 0.001 × (30,000 − 30,100) = −0.2 USDT.
      [2n, 301_000n, [-3n, 90_000_000n, -200_000n, 2n, 0n]],
      [-1n, 290_000n, [-4n, 119_000_000n, 0n, 0n, 1n]],
    ],
  },
  {
    name: "reverse through zero: the long closes at the fill price, the rest opens short",
    steps: [
      [13n, 305_000n, [13n, 396_500_000n, 0n, 0n, 13n]],
      // Close 13 at 30,000: 390 − 396.5 = −6.5 USDT; open 7 short at 30,000.
      [-20n, 300_000n, [-7n, 210_000_000n, -6_500_000n, 13n, 7n]],
      // And back: close 7 short at 29,000 (+7 USDT), open 3 long at 29,000.
      [10n, 290_000n, [3n, 87_000_000n, 7_000_000n, 7n, 3n]],
    ],
  },
  {
    name: "odd cost split: a long realises the rounded-down share first, exact over its life",
    steps: [
      [1n, 300_000n, [1n, 30_000_000n, 0n, 0n, 1n]],
      [2n, 300_001n, [3n, 90_000_200n, 0n, 0n, 2n]],
      // Cost out ceil(90,000,200 / 3) = 30,000,067: −67 now (exact share −66.67).
      [-1n, 300_000n, [2n, 60_000_133n, -67n, 1n, 0n]],
      // −133 later: −200 in all, what 90,000,000 − 90,000,200 says.
      [-2n, 300_000n, [0n, 0n, -133n, 2n, 0n]],
    ],
  },
  {
    name: "odd cost split: a short takes the cost out rounded down",
    steps: [
      [-1n, 300_000n, [-1n, 30_000_000n, 0n, 0n, 1n]],
      [-2n, 300_001n, [-3n, 90_000_200n, 0n, 0n, 2n]],
      // Cost out floor(30,000,066.67) = 30,000,066: +66 now, +134 later, +200 in all.
      [1n, 300_000n, [-2n, 60_000_134n, 66n, 1n, 0n]],
      [2n, 300_000n, [0n, 0n, 134n, 2n, 0n]],
    ],
  },
];

describe.each(scenarios)("position: $name", ({ steps }) => {
  it("matches the hand-checked table", () => {
    let position: Position = FLAT;
    let realisedTotal = 0n;
    for (const [delta, price, expected] of steps) {
      const outcome = applyFill(position, delta, price, U);
      position = outcome.position;
      realisedTotal += outcome.realisedPnl;
      expect([
        position.sizeLots,
        position.entryCost,
        outcome.realisedPnl,
        outcome.closedLots,
        outcome.openedLots,
      ]).toEqual(expected);
    }
    expect(realisedTotal).toBe(steps.reduce((sum, step) => sum + step[2][2], 0n));
  });
});

describe("position values", () => {
  const long: Position = { sizeLots: 20n, entryCost: 610_000_000n };
  const short: Position = { sizeLots: -10n, entryCost: 300_000_000n };

  it("unrealised PnL at the mark is exact", () => {
    // 20 × 0.001 × (29,000 − 30,500) = −30 USDT; 10 × 0.001 × (30,000 − 29,000) = +10.
    expect(unrealisedPnl(long, 290_000n, U)).toBe(-30_000_000n);
    expect(unrealisedPnl(short, 290_000n, U)).toBe(10_000_000n);
    expect(unrealisedPnl(FLAT, 290_000n, U)).toBe(0n);
  });

  it("the entry price is an exact fraction of ticks", () => {
    expect(entryPriceTicks(long, U)).toEqual({ num: 610_000_000n, den: 2_000n });
    expect(entryPriceTicks({ sizeLots: 3n, entryCost: 90_000_200n }, U)).toEqual({
      num: 90_000_200n,
      den: 300n,
    });
    expect(entryPriceTicks(FLAT, U)).toBeNull();
  });

  it("closes for a quote amount (takeover, ADL) with the same cost rule", () => {
    const closed = closeForQuote({ sizeLots: 10n, entryCost: 300_000_000n }, 4n, 114_000_000n);
    expect(closed.position).toEqual({ sizeLots: 6n, entryCost: 180_000_000n });
    expect(closed.realisedPnl).toBe(-6_000_000n);
    const shortClosed = closeForQuote(short, 10n, 315_000_000n);
    expect(shortClosed.position).toEqual({ sizeLots: 0n, entryCost: 0n });
    expect(shortClosed.realisedPnl).toBe(-15_000_000n);
    expect(() => closeForQuote(short, 11n, 1n)).toThrow(RangeError);
  });

  it("trades for a quote amount through zero, the closing part rounded against the trader", () => {
    // Short 2 (cost 60,000,000) buys 3 for 100,000,001: closing share ceil(66,666,667.33).
    const outcome = applyTradeForQuote({ sizeLots: -2n, entryCost: 60_000_000n }, 3n, 100_000_001n);
    expect(outcome.realisedPnl).toBe(60_000_000n - 66_666_668n);
    expect(outcome.position).toEqual({ sizeLots: 1n, entryCost: 100_000_001n - 66_666_668n });
    const opened = applyTradeForQuote(FLAT, -2n, 57_000_000n);
    expect(opened.position).toEqual({ sizeLots: -2n, entryCost: 57_000_000n });
  });

  it("rejects empty fills", () => {
    expect(() => applyFill(FLAT, 0n, 1n, U)).toThrow(RangeError);
  });
});
