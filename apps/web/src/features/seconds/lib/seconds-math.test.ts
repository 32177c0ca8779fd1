import { describe, expect, it } from "vitest";
import { bpsToPercent, payoutOf, secondsLeft } from "./seconds-math.ts";

describe("seconds math", () => {
  it("turns basis points into percent text without floats", () => {
    expect(bpsToPercent(8_500)).toBe("85");
    expect(bpsToPercent(5_406)).toBe("54.06");
    expect(bpsToPercent(5_410)).toBe("54.1");
    expect(bpsToPercent(7)).toBe("0.07");
  });

  it("computes the payout like the kernel: rounded down to the asset's decimals", () => {
    expect(payoutOf("10", 8_500, 6)).toBe("8.5");
    expect(payoutOf("0.000001", 8_500, 6)).toBe("0");
    expect(payoutOf("1.0000001", 8_500, 6)).toBeUndefined();
    expect(payoutOf("-1", 8_500, 6)).toBeUndefined();
  });

  it("counts whole seconds down to zero", () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
});
