// Test helpers shared by the book's suites: the implementations under test and a listener that
// records what matching reports.
import { createOrderBook } from "./order-book.ts";
import { createReferenceBook } from "./order-book.reference.ts";
import type { BookListener, OrderBookFactory } from "./types.ts";

/** Every book implementation, by name, for `describe.each`. */
export const bookFactories: [string, OrderBookFactory][] = [
  ["reference", createReferenceBook],
  ["fast", createOrderBook],
];

/**
 * One thing matching reported: `["fill", makerOrderId, makerOwnerId, priceTicks, lots,
 * makerRemainingLots]` or `["self_trade_cancel", restingOrderId, remainingLots]`.
 */
export type BookEvent =
  ["fill", number, number, number, number, number] | ["self_trade_cancel", number, number];

/** A listener that records every event into `events`. */
export function recorder(): { events: BookEvent[]; listener: BookListener } {
  const events: BookEvent[] = [];
  return {
    events,
    listener: {
      onFill(fill) {
        events.push([
          "fill",
          fill.makerOrderId,
          fill.makerOwnerId,
          fill.priceTicks,
          fill.quantityLots,
          fill.makerRemainingLots,
        ]);
      },
      onSelfTradeCancel(restingOrderId, remainingLots) {
        events.push(["self_trade_cancel", restingOrderId, remainingLots]);
      },
    },
  };
}
