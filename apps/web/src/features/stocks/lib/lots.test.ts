import { describe, expect, it } from "vitest";
import { sharesOf, signOf } from "./lots.ts";

describe("stock lots", () => {
  it("multiplies whole lots by the board lot on bigints", () => {
    expect(sharesOf("2", "100")).toBe("200");
    expect(sharesOf("123456789", "400")).toBe("49382715600");
    expect(sharesOf("1.5", "100")).toBeUndefined();
    expect(sharesOf("0", "1")).toBeUndefined();
    expect(sharesOf("-1", "1")).toBeUndefined();
  });
  it("reads the sign of a decimal string", () => {
    expect(signOf("-1.5")).toBe("down");
    expect(signOf("0.00")).toBe("flat");
    expect(signOf("2")).toBe("up");
    expect(signOf(null)).toBe("flat");
  });
});
