// The perpetuals simulation inside `npm test`: 200 seeds, bounded to a few seconds. Longer runs:
// `npm run sim -- --perp --seeds N --commands M`.

import { describe, expect, it } from "vitest";
import { simulatePerp } from "./simulate.ts";

describe("perpetuals simulation, violent price paths", () => {
  it("keeps every invariant over 200 seeds and replays to the same state hash", () => {
    const totals = {
      fills: 0,
      liquidations: 0,
      takeovers: 0,
      adl: 0,
      fundings: 0,
      spreadSteps: 0,
      resets: 0,
      covers: 0,
      forced: 0,
      amends: 0,
      selfTradeStops: 0,
      conditionalsFired: 0,
      ocoEnded: 0,
    };
    for (let seed = 1; seed <= 200; seed++) {
      const report = simulatePerp(seed, 80);
      totals.fills += report.fills;
      totals.liquidations += report.liquidations;
      totals.takeovers += report.takeovers;
      totals.adl += report.adl;
      totals.fundings += report.fundings;
      totals.spreadSteps += report.spreadSteps;
      totals.resets += report.resets;
      totals.covers += report.covers;
      totals.forced += report.forced;
      totals.amends += report.amends;
      totals.selfTradeStops += report.selfTradeStops;
      totals.conditionalsFired += report.conditionalsFired;
      totals.ocoEnded += report.ocoEnded;
    }
    console.log(JSON.stringify(totals));
    // The paths must actually reach the interesting code.
    expect(totals.fills).toBeGreaterThan(500);
    expect(totals.liquidations).toBeGreaterThan(0);
    expect(totals.takeovers).toBeGreaterThan(0);
    expect(totals.adl).toBeGreaterThan(0);
    expect(totals.spreadSteps).toBeGreaterThan(0);
    expect(totals.resets).toBeGreaterThan(0);
    expect(totals.fundings).toBeGreaterThan(20);
    expect(totals.amends).toBeGreaterThan(20);
    expect(totals.selfTradeStops).toBeGreaterThan(5);
    expect(totals.conditionalsFired).toBeGreaterThan(50);
    expect(totals.ocoEnded).toBeGreaterThan(20);
  });
});
