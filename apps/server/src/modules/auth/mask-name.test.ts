import { expect, it } from "vitest";
import { maskName } from "./auth.service.ts";

it("keeps only the first and last character of a name, in any script", () => {
  expect(maskName("Alice")).toBe("A***e");
  expect(maskName("Al")).toBe("A*");
  expect(maskName("X")).toBe("X*");
  expect(maskName("  ")).toBe("***");
  expect(maskName("王小明")).toBe("王***明");
  expect(maskName("a😀b😀c")).toBe("a***c");
  // The length is not told either.
  expect(maskName("Bartholomew")).toBe("B***w");
});
