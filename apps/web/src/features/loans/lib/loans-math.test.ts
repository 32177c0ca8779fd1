import { describe, expect, it } from "vitest";
import { bpsToPercent, decimalsOf, ppmToPercent } from "./loans-math.ts";

describe("loan percentages", () => {
  it("writes basis points and parts per million as percents without floats", () => {
    expect(bpsToPercent(6_500)).toBe("65");
    expect(bpsToPercent(3_334)).toBe("33.34");
    expect(bpsToPercent(5)).toBe("0.05");
    expect(ppmToPercent(300)).toBe("0.03");
    expect(ppmToPercent(1)).toBe("0.0001");
    expect(ppmToPercent(11_000)).toBe("1.1");
    expect(decimalsOf("0.03")).toBe(2);
    expect(decimalsOf("65")).toBe(0);
  });
});
