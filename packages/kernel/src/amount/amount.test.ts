import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { divCeil, divFloor, formatAmount, mulDiv, parseAmount } from "./amount.ts";

describe("parseAmount", () => {
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
    const result = parseAmount(text, scale);
    if (typeof expected === "bigint") expect(result).toEqual({ ok: true, value: expected });
    else expect(result).toEqual({ ok: false, code: expected });
  });

  it("accepts negatives only when allowed", () => {
    expect(parseAmount("-1.25", 2, { allowNegative: true })).toEqual({ ok: true, value: -125n });
    expect(parseAmount("-0", 2)).toEqual({ ok: true, value: 0n });
  });

  it("rejects values above the stated maximum, by magnitude", () => {
    expect(parseAmount("10.00", 2, { max: 1000n })).toEqual({ ok: true, value: 1000n });
    expect(parseAmount("10.01", 2, { max: 1000n })).toEqual({
      ok: false,
      code: "amount_above_maximum",
    });
    expect(parseAmount("-10.01", 2, { max: 1000n, allowNegative: true })).toEqual({
      ok: false,
      code: "amount_above_maximum",
    });
  });
});

describe("formatAmount", () => {
  it.each([
    [0n, 2, "0"],
    [1n, 2, "0.01"],
    [100n, 2, "1"],
    [150n, 2, "1.5"],
    [-150n, 2, "-1.5"],
    [7n, 0, "7"],
    [1n, 18, "0.000000000000000001"],
  ])("formats %s at scale %i as %s", (amount, scale, text) => {
    expect(formatAmount(amount, scale)).toBe(text);
  });

  it("is the inverse of parseAmount for every amount and scale", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat(18), (n, scale) => {
        const text = formatAmount(n, scale);
        expect(parseAmount(text, scale, { allowNegative: true })).toEqual({ ok: true, value: n });
      }),
    );
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
