import { describe, expect, it } from "vitest";
import { compareDecimal } from "./compare-decimal.ts";

describe("compareDecimal", () => {
  it("orders decimals exactly, beyond float precision", () => {
    expect(compareDecimal("0.30000000000000001", "0.3")).toBe(1);
    expect(compareDecimal("9007199254740993", "9007199254740992")).toBe(1);
    expect(compareDecimal("-1.25", "-1.2")).toBe(-1);
    expect(compareDecimal("2.50", "2.5")).toBe(0);
    expect(compareDecimal("-0", "0")).toBe(0);
  });

  it("sorts a list by change, invalid values first", () => {
    expect(["3.1", "-2", "x", "10", "0.5"].sort(compareDecimal)).toEqual([
      "x",
      "-2",
      "0.5",
      "3.1",
      "10",
    ]);
  });
});
