import type { DepthLevel, WsServerMessage } from "@candor/contract";
import { describe, expect, it } from "vitest";
import { applyLevels, reduceDepth } from "./depth-book.ts";

describe("depth book", () => {
  it("applies changed levels, removes zero quantities and sorts best first", () => {
    const bids: DepthLevel[] = [
      ["100.5", "1"],
      ["100", "2"],
    ];
    const changes: DepthLevel[] = [
      ["100", "0.000"],
      ["100.25", "3"],
    ];
    expect(applyLevels(bids, changes, "bids")).toEqual([
      ["100.5", "1"],
      ["100.25", "3"],
    ]);
    expect(applyLevels([["101", "1"]], [["100.9", "1"]], "asks")).toEqual([
      ["100.9", "1"],
      ["101", "1"],
    ]);
  });

  it("asks for a fresh snapshot when a diff does not follow on", () => {
    const book = { sequence: 5, bids: [], asks: [], source: "order_book" as const };
    const diff = (previousSequence: number): WsServerMessage => ({
      type: "depth_diff",
      stream: "depth:BTCUSDT:real",
      instrumentId: "BTCUSDT",
      sequence: previousSequence + 1,
      previousSequence,
      bids: [["1", "1"]],
      asks: [],
      atMs: 0,
    });
    expect(reduceDepth(book, diff(4))).toBe("gap");
    expect(reduceDepth(book, diff(5))).toMatchObject({ sequence: 6, bids: [["1", "1"]] });
  });
});
