import { describe, expect, it } from "vitest";
import { formatAmount } from "./format-amount.ts";

describe("formatAmount", () => {
  it("groups and marks decimals as the locale does", () => {
    expect(formatAmount("1234.5", { locale: "en" })).toBe("1,234.5");
    expect(formatAmount("1234.5", { locale: "de" })).toBe("1.234,5");
    expect(formatAmount("-9007199254740993.25", { locale: "en" })).toBe(
      "-9,007,199,254,740,993.25",
    );
  });

  it("truncates toward zero and trims trailing zeros to the minimum", () => {
    expect(formatAmount("1.123456789", { locale: "en" })).toBe("1.12345678");
    expect(formatAmount("-1.999", { locale: "en", decimalsMax: 2 })).toBe("-1.99");
    expect(formatAmount("-0.000000001", { locale: "en" })).toBe("0");
    expect(formatAmount("2.5000", { locale: "en" })).toBe("2.5");
    expect(formatAmount("2", { locale: "en", decimalsMin: 2, decimalsMax: 2 })).toBe("2.00");
    expect(formatAmount("0.1", { locale: "en", decimalsMin: 2, decimalsMax: 2 })).toBe("0.10");
  });

  it("shows what is not a decimal string as invalid", () => {
    expect(formatAmount("abc", { locale: "en" })).toBe("--");
    expect(formatAmount("1e3", { locale: "en", invalid: "?" })).toBe("?");
  });
});
