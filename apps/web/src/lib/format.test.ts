import { describe, expect, it } from "vitest";
import { bcp47Of, formatterFor } from "./format.ts";

describe("the formatting layer", () => {
  it("formats amounts and fixed-decimal prices from decimal strings, by locale", () => {
    const de = formatterFor("de");
    expect(de.amount("96389.46")).toBe("96.389,46");
    expect(de.fixed("96646.4", 2)).toBe("96.646,40");
    expect(formatterFor("en").fixed("96549.999", 2)).toBe("96,549.99");
    // Beyond a double's precision: the digits are the string's, never a float's.
    expect(formatterFor("en").fixed("9007199254740993.01", 2)).toBe("9,007,199,254,740,993.01");
    expect(de.amount(undefined)).toBe("--");
  });

  it("writes percentages with the locale's pattern and an explicit sign", () => {
    expect(formatterFor("en").percent("1.256", { signed: true })).toBe("+1.25%");
    expect(formatterFor("en").percent("-0.5", { signed: true })).toBe("-0.50%");
    expect(formatterFor("de").percent("1.5")).toBe("1,50\u00a0%");
    expect(formatterFor("en").percent("abc")).toBe("--");
  });

  it("writes dates by locale, and relative dates for the last week", () => {
    const atMs = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(formatterFor("en").date(atMs)).toMatch(/2026/);
    expect(formatterFor("de").dateTime(atMs)).not.toBe(formatterFor("en").dateTime(atMs));
    expect(formatterFor("en").relative(atMs, atMs + 5 * 60_000)).toBe("5 minutes ago");
    expect(formatterFor("de").relative(atMs, atMs + 24 * 3_600_000)).toBe("gestern");
    expect(formatterFor("en").relative(atMs, atMs + 30 * 86_400_000)).toBe(
      formatterFor("en").date(atMs),
    );
    expect(formatterFor("en").time("1767268800")).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(bcp47Of("jp")).toBe("ja");
    expect(bcp47Of("xx")).toBe("en");
  });
});
