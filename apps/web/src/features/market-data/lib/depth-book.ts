import type { DepthLevel, WsServerMessage } from "@candor/contract";
import { compareDecimal, isZeroDecimal } from "../../../lib/decimal-text.ts";

/** An order book side as price → quantity, both decimal strings. */
export interface DepthBook {
  sequence: number;
  bids: DepthLevel[];
  asks: DepthLevel[];
  source: "order_book" | "simulated";
}

/** Applies changed levels (quantity "0" removes) and keeps the side sorted best first. */
export function applyLevels(
  levels: readonly DepthLevel[],
  changes: readonly DepthLevel[],
  side: "bids" | "asks",
): DepthLevel[] {
  const byPrice = new Map(levels.map((level) => [level[0], level]));
  for (const change of changes) {
    if (isZeroDecimal(change[1])) byPrice.delete(change[0]);
    else byPrice.set(change[0], change);
  }
  const sorted = [...byPrice.values()].sort((a, b) => compareDecimal(a[0], b[0]));
  return side === "bids" ? sorted.reverse() : sorted;
}

/** Applies one socket message to the book; returns "gap" when a diff does not follow on. */
export function reduceDepth(
  book: DepthBook | undefined,
  message: WsServerMessage,
): DepthBook | "gap" | undefined {
  if (message.type === "depth_snapshot") {
    const { sequence, bids, asks, source } = message.data;
    return { sequence, bids, asks, source };
  }
  if (message.type !== "depth_diff" || !book) return book;
  if (message.previousSequence !== book.sequence) return "gap";
  return {
    sequence: message.sequence,
    bids: applyLevels(book.bids, message.bids, "bids"),
    asks: applyLevels(book.asks, message.asks, "asks"),
    source: book.source,
  };
}
