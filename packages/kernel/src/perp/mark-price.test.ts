// Mark price, hand-checked on BTC-PERP (basis cap 0.50 % of the index).
import { describe, expect, it } from "vitest";
import { indexTicksFromPrice, markPrice } from "./mark-price.ts";
import { btcPerp } from "./testing.ts";

const market = btcPerp();
const index = { tickId: "BTC-USDT:1001", priceTicks: 300_000n };

describe("index ticks from the tape", () => {
  it.each([
    ["30000", 300_000n],
    ["30000.04", 300_000n],
    // Half a tick rounds up.
    ["30000.05", 300_001n],
    ["30000.0500000000", 300_001n],
    ["0.01", 1n],
    ["-1", null],
    ["abc", null],
  ])("%s → %s", (text, ticks) => {
    expect(indexTicksFromPrice(text, market.priceStepScaled)).toBe(ticks);
  });
});

describe("mark price", () => {
  it.each([
    // [name, bid, ask, mark, basis]
    ["book mid above the index", 300_100n, 300_300n, 300_200n, 200n],
    // (310,000 + 310,002) / 2 − 300,000 = 10,001, clamped to 300,000 × 0.50 % = 1,500.
    ["mid far above: clamped", 310_000n, 310_002n, 301_500n, 1_500n],
    ["mid far below: clamped", 290_000n, 290_002n, 298_500n, -1_500n],
    // A half-tick basis rounds toward the index.
    ["half tick above", 300_000n, 300_001n, 300_000n, 0n],
    ["half tick below", 299_998n, 299_999n, 299_999n, -1n],
    ["no ask", 300_100n, null, 300_000n, 0n],
    ["crossed book", 300_100n, 300_000n, 300_000n, 0n],
  ] as const)("%s", (_name, bidTicks, askTicks, mark, basis) => {
    expect(markPrice(market, index, { bidTicks, askTicks })).toEqual({
      priceTicks: mark,
      indexTicks: 300_000n,
      basisTicks: basis,
      tickIds: ["BTC-USDT:1001"],
    });
  });

  it("is the index when the market takes no basis", () => {
    const plain = btcPerp({ markBasisCapBps: 0 });
    const mark = markPrice(plain, index, { bidTicks: 300_100n, askTicks: 300_300n });
    expect(mark.priceTicks).toBe(300_000n);
    expect(markPrice(market, index, null).priceTicks).toBe(300_000n);
  });

  it("never goes below one tick", () => {
    const low = markPrice(market, { tickId: "t", priceTicks: 1n }, { bidTicks: 1n, askTicks: 2n });
    expect(low.priceTicks).toBe(1n);
  });
});
