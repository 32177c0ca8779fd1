import { describe, expect, it } from "vitest";
import { followTrade } from "./trade-tape.ts";

describe("trade tape", () => {
  it("follows linked trades and reports a missed one as a gap", () => {
    let last: number | null = null;
    const seen: boolean[] = [];
    const trades = [
      { sequence: 10, previousSequence: null },
      { sequence: 14, previousSequence: 10 },
      // 19 (previous 14) was dropped.
      { sequence: 23, previousSequence: 19 },
      { sequence: 30, previousSequence: 23 },
    ];
    for (const trade of trades) {
      const step = followTrade(last, trade);
      seen.push(step.gap);
      last = step.last;
    }
    expect(seen).toEqual([false, false, true, false]);
    expect(last).toBe(30);
  });

  it("treats an unknown previous trade after one was seen as a gap (a restarted node)", () => {
    expect(followTrade(5, { sequence: 9, previousSequence: null })).toEqual({ gap: true, last: 9 });
    expect(followTrade(null, { sequence: 9, previousSequence: 3 }).gap).toBe(false);
  });
});
