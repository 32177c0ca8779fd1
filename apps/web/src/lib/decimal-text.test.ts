import { describe, expect, it } from "vitest";
import { compareDecimal, isZeroDecimal, readDecimal } from "./decimal-text.ts";

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

describe("readDecimal", () => {
  it("reads a decimal string at the scale it is written in", () => {
    expect(readDecimal("-1234.5600")).toEqual({ units: -12_345_600n, scale: 4 });
    expect(readDecimal("7")).toEqual({ units: 7n, scale: 0 });
  });

  it("refuses what the codec refuses", () => {
    for (const text of ["", "x", "1e3", "+1", "1.", ".5", " 1", "0.1234567890123456789"]) {
      expect(readDecimal(text), text).toBeUndefined();
    }
  });

  it("knows zero in any spelling", () => {
    expect(isZeroDecimal("0")).toBe(true);
    expect(isZeroDecimal("-0.000")).toBe(true);
    expect(isZeroDecimal("0.001")).toBe(false);
    expect(isZeroDecimal("x")).toBe(false);
  });
});
