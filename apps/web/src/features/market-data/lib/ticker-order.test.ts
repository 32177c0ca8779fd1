import { describe, expect, it } from "vitest";
import { nextTicker, type ShownTicker } from "./ticker-order.ts";

describe("ticker order", () => {
  it("shows newer tickers and drops one older than the one shown", () => {
    let shown: ShownTicker<string> | undefined;
    const seen: string[] = [];
    for (const message of [
      { sequence: 10, data: "a" },
      { sequence: 14, data: "b" },
      // Sent by a node further behind after a reconnect: older, dropped.
      { sequence: 12, data: "stale" },
      // The same tick again (a resubscription's first ticker): shown.
      { sequence: 14, data: "b again" },
      { sequence: 20, data: "c" },
    ]) {
      shown = nextTicker(shown, message);
      seen.push(shown.data);
    }
    expect(seen).toEqual(["a", "b", "b", "b again", "c"]);
    expect(shown?.sequence).toBe(20);
  });

  it("keeps the shown object when it drops a ticker", () => {
    const shown = { data: "new", sequence: 30 };
    expect(nextTicker(shown, { sequence: 29, data: "old" })).toBe(shown);
  });

  it("shows tickers without a sequence (no journal, older server): nothing to compare", () => {
    const shown = { data: "a", sequence: 30 };
    expect(nextTicker(shown, { data: "b" })).toEqual({ data: "b", sequence: undefined });
    expect(nextTicker({ data: "a", sequence: undefined }, { sequence: 2, data: "b" })).toEqual({
      data: "b",
      sequence: 2,
    });
    expect(nextTicker(undefined, { sequence: 5, data: "first" })).toEqual({
      data: "first",
      sequence: 5,
    });
  });
});
