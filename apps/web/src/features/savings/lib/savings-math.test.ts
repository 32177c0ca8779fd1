import { describe, expect, it } from "vitest";
import { bpsToPercent, expectedInterest, hoursOf } from "./savings-math.ts";

describe("savings math", () => {
  it("computes the reserved interest exactly as the kernel, rounded down", () => {
    expect(expectedInterest("100", 1_000_000, 7, 6)).toBe("7");
    expect(expectedInterest("30", 500_000, 2, 6)).toBe("0.3");
    expect(expectedInterest("10", 3, 1, 6)).toBe("0");
    expect(expectedInterest("0.0000001", 1, 1, 6)).toBeUndefined();
    expect(expectedInterest("abc", 1, 1, 6)).toBeUndefined();
    expect(expectedInterest("0", 1, 1, 6)).toBeUndefined();
  });
  it("writes bps as percent and delays as hours", () => {
    expect(bpsToPercent(50)).toBe("0.5");
    expect(bpsToPercent(100)).toBe("1");
    expect(hoursOf(600)).toBe(1);
    expect(hoursOf(7_200)).toBe(2);
  });
});
