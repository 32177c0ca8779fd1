import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  changeBps,
  divCeil,
  divFloor,
  formatDecimal,
  formatDecimalFixed,
  mulDiv,
  parseDecimal,
  roundToStep,
} from "./decimal.ts";

describe("parseDecimal", () => {
  const cases: [text: string, scale: number, expected: bigint | string][] = [
    ["0", 2, 0n],
    ["1", 2, 100n],
    ["1.5", 2, 150n],
    ["1.05", 2, 105n],
    ["0.01", 2, 1n],
    ["007", 0, 7n],
    ["123456789012345678901234567890", 0, 123456789012345678901234567890n],
    ["1.000000000000000001", 18, 1000000000000000001n],
    ["", 2, "amount_empty"],
    ["-", 2, "amount_malformed"],
    [" 1", 2, "amount_malformed"],
    ["1 ", 2, "amount_malformed"],
    ["+1", 2, "amount_malformed"],
    ["1e3", 2, "amount_malformed"],
    ["1E3", 2, "amount_malformed"],
    [".5", 2, "amount_malformed"],
    ["5.", 2, "amount_malformed"],
    ["1.2.3", 2, "amount_malformed"],
    ["1,5", 2, "amount_malformed"],
    ["١٢", 2, "amount_malformed"], // Arabic-Indic digits are digits, but not ASCII ones.
    ["１", 2, "amount_malformed"], // Full-width one.
    ["0x10", 2, "amount_malformed"],
    ["1.001", 2, "amount_too_many_decimals"],
    ["1.000", 2, "amount_too_many_decimals"], // Trailing zeros still exceed the scale.
    ["1.5", 0, "amount_too_many_decimals"],
    ["-1", 2, "amount_negative_not_allowed"],
  ];
  it.each(cases)("parses %j at scale %i", (text, scale, expected) => {
    const result = parseDecimal(text, scale);
    if (typeof expected === "bigint") expect(result).toEqual({ ok: true, value: expected });
    else expect(result).toEqual({ ok: false, code: expected });
  });

  it("lets zeros past the scale through only when asked", () => {
    expect(parseDecimal("1.2300", 2, { extraZeros: "accept" })).toEqual({ ok: true, value: 123n });
    expect(parseDecimal("1.2301", 2, { extraZeros: "accept" })).toEqual({
      ok: false,
      code: "amount_too_many_decimals",
    });
    expect(parseDecimal("1.2300", 2)).toEqual({ ok: false, code: "amount_too_many_decimals" });
  });

  it("accepts negatives only when allowed", () => {
    expect(parseDecimal("-1.25", 2, { allowNegative: true })).toEqual({ ok: true, value: -125n });
    expect(parseDecimal("-0", 2)).toEqual({ ok: true, value: 0n });
  });

  it("rejects values above the stated maximum, by magnitude", () => {
    expect(parseDecimal("10.00", 2, { max: 1000n })).toEqual({ ok: true, value: 1000n });
    expect(parseDecimal("10.01", 2, { max: 1000n })).toEqual({
      ok: false,
      code: "amount_above_maximum",
    });
    expect(parseDecimal("-10.01", 2, { max: 1000n, allowNegative: true })).toEqual({
      ok: false,
      code: "amount_above_maximum",
    });
  });
});

describe("formatDecimal", () => {
  it.each([
    [0n, 2, "0"],
    [1n, 2, "0.01"],
    [100n, 2, "1"],
    [150n, 2, "1.5"],
    [-150n, 2, "-1.5"],
    [7n, 0, "7"],
    [1n, 18, "0.000000000000000001"],
  ])("formats %s at scale %i as %s", (amount, scale, text) => {
    expect(formatDecimal(amount, scale)).toBe(text);
  });

  it("is the inverse of parseDecimal for every amount and scale", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat(18), (n, scale) => {
        const text = formatDecimal(n, scale);
        expect(parseDecimal(text, scale, { allowNegative: true })).toEqual({ ok: true, value: n });
      }),
    );
  });
});

describe("formatDecimalFixed", () => {
  it.each([
    [12345n, 2, "123.45"],
    [100n, 2, "1.00"],
    [5n, 3, "0.005"],
    [-5n, 2, "-0.05"],
    [7n, 0, "7"],
  ])("formats %s at scale %i as %s", (value, scale, text) => {
    expect(formatDecimalFixed(value, scale)).toBe(text);
  });

  it("parses back with zeros past the scale accepted", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat(18), (n, scale) => {
        const text = formatDecimalFixed(n, scale);
        expect(parseDecimal(text, scale, { allowNegative: true })).toEqual({ ok: true, value: n });
      }),
    );
  });
});

describe("steps and changes", () => {
  it("rounds to a step and measures change in basis points", () => {
    expect(roundToStep(149n, 100n)).toBe(100n);
    expect(roundToStep(150n, 100n)).toBe(200n);
    expect(changeBps(100n, 105n)).toBe(500n);
    expect(changeBps(100n, 95n)).toBe(-500n);
    expect(changeBps(0n, 5n)).toBe(0n);
  });
});

describe("division helpers", () => {
  it("round in the named direction, also for negatives", () => {
    expect(divFloor(7n, 2n)).toBe(3n);
    expect(divFloor(-7n, 2n)).toBe(-4n);
    expect(divCeil(7n, 2n)).toBe(4n);
    expect(divCeil(-7n, 2n)).toBe(-3n);
    expect(divCeil(6n, 2n)).toBe(3n);
    expect(mulDiv(10n, 3n, 4n, "floor")).toBe(7n);
    expect(mulDiv(10n, 3n, 4n, "ceil")).toBe(8n);
  });

  it("bracket the exact quotient within one unit", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (a, b) => {
          const floor = divFloor(a, b);
          const ceil = divCeil(a, b);
          expect(floor * b <= a && a < (floor + 1n) * b).toBe(true);
          expect((ceil - 1n) * b < a && a <= ceil * b).toBe(true);
        },
      ),
    );
  });

  it("refuse a non-positive divisor as a bug", () => {
    expect(() => divFloor(1n, 0n)).toThrow(/divisor/);
  });
});
