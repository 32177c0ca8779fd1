import { describe, expect, it } from "vitest";
import { bpsToPercent } from "./bps.ts";

describe("bpsToPercent", () => {
  it("writes basis points as percent digits without floats", () => {
    expect(bpsToPercent(2_500)).toBe("25");
    expect(bpsToPercent(10_000)).toBe("100");
    expect(bpsToPercent(5)).toBe("0.05");
    expect(bpsToPercent(1_250)).toBe("12.5");
    expect(bpsToPercent(0)).toBe("0");
  });
});
