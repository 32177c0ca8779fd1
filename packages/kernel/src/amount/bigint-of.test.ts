import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bigintOfSafeInteger } from "./bigint-of.ts";

describe("bigintOfSafeInteger", () => {
  it("equals BigInt(n) at the edges", () => {
    const edges = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, -(2 ** 32)];
    edges.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 52, -(2 ** 52) - 1);
    for (const n of edges) expect(bigintOfSafeInteger(n)).toBe(BigInt(n));
    expect(Object.is(Number(bigintOfSafeInteger(-0)), 0)).toBe(true);
  });

  it("equals BigInt(n) for any safe integer", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => bigintOfSafeInteger(n) === BigInt(n)),
      { numRuns: 20_000 },
    );
  });
});
