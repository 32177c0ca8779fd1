import type { DepthLevel, WsServerMessage } from "@candor/contract";
import { describe, expect, it } from "vitest";
import { applyLevels, bookRows, decimalsOfStep, reduceDepth } from "./depth-book.ts";

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

  it("shows rows at fixed decimals with running totals and bars against the deeper side", () => {
    const rows = bookRows(
      {
        bids: [
          ["96549.99", "0.0206"],
          ["96549.5", "0.01"],
          ["96548", "0.1"],
        ],
        asks: [
          ["96646.4", "0.0207"],
          ["96647", "0.02"],
        ],
      },
      "0.01",
      10,
    );
    expect(rows.bids.map((r) => [r.price, r.quantity, r.cumulative])).toEqual([
      ["96549.99", "0.0206", "0.0206"],
      ["96549.50", "0.01", "0.0306"],
      ["96548.00", "0.1", "0.1306"],
    ]);
    expect(rows.asks.map((r) => r.price)).toEqual(["96646.40", "96647.00"]);
    expect(rows.asks.map((r) => r.cumulative)).toEqual(["0.0207", "0.0407"]);
    // The deepest side's last row is the full bar; others are shares of it (per mille, floor).
    expect(rows.bids.map((r) => r.depthPerMille)).toEqual([157, 234, 1000]);
    expect(rows.asks.map((r) => r.depthPerMille)).toEqual([158, 311]);
  });

  it("groups by a coarser step: bids down, asks up, and keeps the count per side", () => {
    const book = {
      bids: [
        ["100.99", "1"],
        ["100.5", "2"],
        ["99.99", "4"],
        ["98.1", "8"],
      ] as DepthLevel[],
      asks: [
        ["101.01", "1"],
        ["101.99", "0.5"],
        ["102", "0.25"],
        ["102.01", "3"],
      ] as DepthLevel[],
    };
    const rows = bookRows(book, "1", 2);
    expect(rows.bids.map((r) => [r.price, r.quantity, r.cumulative])).toEqual([
      ["100", "3", "3"],
      ["99", "4", "7"],
    ]);
    expect(rows.asks.map((r) => [r.price, r.quantity, r.cumulative])).toEqual([
      ["102", "1.75", "1.75"],
      ["103", "3", "4.75"],
    ]);
    expect(decimalsOfStep("0.01")).toBe(2);
    expect(decimalsOfStep("10")).toBe(0);
    expect(bookRows({ bids: [], asks: [] }, "0.01", 5)).toEqual({ bids: [], asks: [] });
  });
});
