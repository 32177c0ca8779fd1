// One scenario suite, run against every book implementation (the reference and the fast book).
import { describe, expect, it } from "vitest";
import { bookFactories, recorder, type BookEvent } from "./testing.ts";
import type { BookOrderInput, OrderBook, Side, TimeInForce } from "./types.ts";
import { priceSpanTicksMaxDefault } from "./types.ts";

const limits = { levelsPerSideMax: 3, ordersMax: 6 };

function order(
  orderId: number,
  ownerId: number,
  side: Side,
  priceTicks: number,
  quantityLots: number,
  timeInForce: TimeInForce = "gtc",
): BookOrderInput {
  return { orderId, ownerId, side, priceTicks, quantityLots, timeInForce };
}

function place(book: OrderBook, ...orders: BookOrderInput[]): BookEvent[] {
  const { events, listener } = recorder();
  for (const input of orders) book.submit(input, listener);
  return events;
}

describe.each(bookFactories)("order book: %s", (_name, createBook) => {
  describe("self-trade prevention modes", () => {
    // Resting: owner 2 sells 1 lot at 100, owner 1 sells 2 at 100, owner 3 sells 2 at 101.
    function setup(): OrderBook {
      const book = createBook(limits);
      place(book, order(1, 2, "sell", 100, 1), order(2, 1, "sell", 100, 2));
      place(book, order(3, 3, "sell", 101, 2));
      return book;
    }

    it("cancel_resting (the default) removes the own order and keeps matching", () => {
      const book = setup();
      const { events, listener } = recorder();
      const result = book.submit(order(4, 1, "buy", 101, 4), listener);
      expect(result).toEqual({ outcome: "rested", filledLots: 3, restingLots: 1 });
      expect(events).toEqual([
        ["fill", 1, 2, 100, 1, 0],
        ["self_trade_cancel", 2, 2],
        ["fill", 3, 3, 101, 2, 0],
      ]);
    });

    it("cancel_incoming stops at the own order, keeps it and drops the incoming rest", () => {
      const book = setup();
      const { events, listener } = recorder();
      const input = { ...order(4, 1, "buy", 101, 4), selfTradeMode: "cancel_incoming" as const };
      const result = book.submit(input, listener);
      expect(result).toEqual({
        outcome: "expired",
        filledLots: 1,
        restingLots: 0,
        selfTradeStopped: true,
      });
      expect(events).toEqual([["fill", 1, 2, 100, 1, 0]]);
      expect(book.get(2)?.remainingLots).toBe(2);
      expect(book.get(4)).toBeUndefined();
    });

    it("cancel_both removes the own order and drops the incoming rest", () => {
      const book = setup();
      const { events, listener } = recorder();
      const input = { ...order(4, 1, "buy", 101, 4), selfTradeMode: "cancel_both" as const };
      const result = book.submit(input, listener);
      expect(result).toEqual({
        outcome: "expired",
        filledLots: 1,
        restingLots: 0,
        selfTradeStopped: true,
      });
      expect(events).toEqual([
        ["fill", 1, 2, 100, 1, 0],
        ["self_trade_cancel", 2, 2],
      ]);
      expect(book.get(2)).toBeUndefined();
      expect(book.get(3)?.remainingLots).toBe(2);
    });

    it("a fok order under cancel_incoming counts only what lies before the own order", () => {
      const book = setup();
      const { listener } = recorder();
      const input = {
        ...order(4, 1, "buy", 101, 3, "fok"),
        selfTradeMode: "cancel_incoming" as const,
      };
      expect(book.submit(input, listener).outcome).toBe("rejected_fok");
      expect(book.orderCount).toBe(3);
    });
  });

  it("reduce lowers a resting order in place and keeps its time priority", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "sell", 100, 5), order(2, 2, "sell", 100, 5));
    expect(book.reduce(1, 2)).toEqual({
      orderId: 1,
      ownerId: 1,
      side: "sell",
      priceTicks: 100,
      remainingLots: 2,
    });
    expect(book.depth("sell", 1)).toEqual([{ priceTicks: 100, quantityLots: 7, orderCount: 2 }]);
    const { events, listener } = recorder();
    book.submit(order(3, 3, "buy", 100, 3), listener);
    expect(events).toEqual([
      ["fill", 1, 1, 100, 2, 0],
      ["fill", 2, 2, 100, 1, 4],
    ]);
    expect(book.reduce(99, 1)).toBeUndefined();
  });

  it("rests orders on both sides and reports depth best first", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "buy", 100, 5),
      order(2, 2, "buy", 101, 3),
      order(3, 3, "buy", 100, 2),
      order(4, 4, "sell", 105, 7),
      order(5, 5, "sell", 103, 1),
    );
    expect(book.bestPrice("buy")).toBe(101);
    expect(book.bestPrice("sell")).toBe(103);
    expect(book.depth("buy", 10)).toEqual([
      { priceTicks: 101, quantityLots: 3, orderCount: 1 },
      { priceTicks: 100, quantityLots: 7, orderCount: 2 },
    ]);
    expect(book.depth("sell", 1)).toEqual([{ priceTicks: 103, quantityLots: 1, orderCount: 1 }]);
    expect(book.orderCount).toBe(5);
    expect(book.levelCount("buy")).toBe(2);
    expect([...book.orders()].map((resting) => resting.orderId)).toEqual([2, 1, 3, 5, 4]);
  });

  it("matches in price-time priority at the maker's price", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "sell", 101, 2),
      order(2, 2, "sell", 100, 2),
      order(3, 3, "sell", 100, 2),
    );
    const { events, listener } = recorder();
    const result = book.submit(order(4, 4, "buy", 101, 5), listener);
    expect(result).toEqual({ outcome: "filled", filledLots: 5, restingLots: 0 });
    expect(events).toEqual([
      ["fill", 2, 2, 100, 2, 0],
      ["fill", 3, 3, 100, 2, 0],
      ["fill", 1, 1, 101, 1, 1],
    ]);
    expect(book.get(1)).toEqual({
      orderId: 1,
      ownerId: 1,
      side: "sell",
      priceTicks: 101,
      remainingLots: 1,
    });
    expect(book.levelCount("sell")).toBe(1);
  });

  it("rests what a gtc order could not fill and drops what an ioc order could not", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "buy", 100, 3));
    const gtc = book.submit(order(2, 2, "sell", 99, 5), recorder().listener);
    expect(gtc).toEqual({ outcome: "rested", filledLots: 3, restingLots: 2 });
    expect(book.bestPrice("sell")).toBe(99);
    const ioc = book.submit(order(3, 3, "buy", 100, 4, "ioc"), recorder().listener);
    expect(ioc).toEqual({ outcome: "expired", filledLots: 2, restingLots: 0 });
    expect(book.orderCount).toBe(0);
  });

  it("fills a fok order completely or changes nothing", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "sell", 100, 2), order(2, 2, "sell", 101, 2));
    const { events, listener } = recorder();
    expect(book.submit(order(3, 3, "buy", 100, 3, "fok"), listener).outcome).toBe("rejected_fok");
    expect(events).toEqual([]);
    expect(book.orderCount).toBe(2);
    expect(book.submit(order(4, 3, "buy", 101, 4, "fok"), listener)).toEqual({
      outcome: "filled",
      filledLots: 4,
      restingLots: 0,
    });
  });

  it("rejects a post-only order that would take liquidity, and rests one that would not", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "sell", 100, 2));
    const { events, listener } = recorder();
    expect(book.submit(order(2, 2, "buy", 100, 1, "post_only"), listener).outcome).toBe(
      "rejected_post_only",
    );
    expect(book.submit(order(3, 2, "buy", 99, 1, "post_only"), listener).outcome).toBe("rested");
    expect(events).toEqual([]);
  });

  it("cancels the resting order on a self-trade and keeps matching", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "sell", 100, 2),
      order(2, 7, "sell", 100, 2),
      order(3, 1, "sell", 101, 2),
    );
    const { events, listener } = recorder();
    const result = book.submit(order(4, 1, "buy", 101, 3), listener);
    expect(events).toEqual([
      ["self_trade_cancel", 1, 2],
      ["fill", 2, 7, 100, 2, 0],
      ["self_trade_cancel", 3, 2],
    ]);
    expect(result).toEqual({ outcome: "rested", filledLots: 2, restingLots: 1 });
    expect(book.fillableLots("sell", 1, 1, 10)).toBe(0);
  });

  it("counts fillable lots without the owner's own orders and stops at the limit", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "sell", 100, 2),
      order(2, 2, "sell", 100, 3),
      order(3, 3, "sell", 102, 4),
    );
    expect(book.fillableLots("buy", 101, 1, 100)).toBe(3);
    expect(book.fillableLots("buy", 102, 9, 100)).toBe(9);
    expect(book.fillableLots("buy", 102, 9, 6)).toBe(6);
    const visited: [number, number][] = [];
    book.walk("buy", 2, (priceTicks, quantityLots) => {
      visited.push([priceTicks, quantityLots]);
      return true;
    });
    expect(visited).toEqual([
      [100, 2],
      [102, 4],
    ]);
    const first: number[] = [];
    book.walk("buy", 9, (priceTicks) => {
      first.push(priceTicks);
      return false;
    });
    expect(first).toEqual([100]);
  });

  it("rejects a new level on a full side, but not an order joining a level", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "buy", 100, 1), order(2, 1, "buy", 99, 1), order(3, 1, "buy", 98, 1));
    const { listener } = recorder();
    expect(book.submit(order(4, 2, "buy", 97, 1), listener).outcome).toBe("rejected_book_full");
    expect(book.submit(order(5, 2, "buy", 99, 1), listener).outcome).toBe("rested");
    // An ioc order never rests, so a full side does not stop it.
    expect(book.submit(order(6, 2, "sell", 50, 1, "ioc"), listener).outcome).toBe("filled");
  });

  it("rejects an order beyond the book's order limit, counting what matching removes", () => {
    const book = createBook({ levelsPerSideMax: 10, ordersMax: 3 });
    place(book, order(1, 1, "buy", 100, 1), order(2, 1, "buy", 99, 1), order(3, 2, "sell", 105, 1));
    const { events, listener } = recorder();
    expect(book.submit(order(4, 3, "sell", 106, 1), listener).outcome).toBe("rejected_book_full");
    // This one fills order 1 and rests the rest: three orders remain.
    expect(book.submit(order(5, 3, "sell", 100, 2), listener)).toEqual({
      outcome: "rested",
      filledLots: 1,
      restingLots: 1,
    });
    expect(events).toEqual([["fill", 1, 1, 100, 1, 0]]);
  });

  it("rejects an order that would rest too far from the rest of the book", () => {
    const book = createBook({ levelsPerSideMax: 10, ordersMax: 10, priceSpanTicksMax: 100 });
    place(book, order(1, 1, "buy", 1000, 1));
    const { listener } = recorder();
    expect(book.submit(order(2, 1, "sell", 1100, 1), listener).outcome).toBe("rejected_book_full");
    expect(book.submit(order(3, 1, "sell", 1099, 1), listener).outcome).toBe("rested");
    expect(book.submit(order(4, 1, "buy", 999, 1), listener).outcome).toBe("rejected_book_full");
    // Far away is fine once the order it would be far from is gone.
    expect(book.submit(order(5, 2, "buy", 1099, 2), listener).outcome).toBe("rested");
    expect(book.cancel(1)?.orderId).toBe(1);
    expect(book.submit(order(6, 3, "sell", 5000, 1), listener).outcome).toBe("rejected_book_full");
    expect(book.submit(order(7, 3, "sell", 1198, 1), listener).outcome).toBe("rested");
  });

  it("spans up to the default price-span limit, and not one tick more", () => {
    const book = createBook({ levelsPerSideMax: 10, ordersMax: 10 });
    const { listener } = recorder();
    expect(book.submit(order(1, 1, "buy", 1, 1), listener).outcome).toBe("rested");
    const far = 1 + priceSpanTicksMaxDefault;
    expect(book.submit(order(2, 1, "sell", far, 1), listener).outcome).toBe("rejected_book_full");
    expect(book.submit(order(3, 1, "sell", far - 1, 1), listener).outcome).toBe("rested");
    expect(book.submit(order(4, 2, "buy", 500_000, 1), listener).outcome).toBe("rested");
    expect(book.depth("buy", 5).map((level) => level.priceTicks)).toEqual([500_000, 1]);
    expect(book.cancel(1)?.priceTicks).toBe(1);
    // With the low bid gone the book may reach further up, and the ladder moves along.
    expect(book.submit(order(5, 3, "sell", far + 400_000, 1), listener).outcome).toBe("rested");
    expect(book.bestPrice("sell")).toBe(far - 1);
    expect(book.submit(order(6, 4, "buy", far + 400_000, 2), listener)).toEqual({
      outcome: "filled",
      filledLots: 2,
      restingLots: 0,
    });
  });

  it("cancels a resting order once", () => {
    const book = createBook(limits);
    place(book, order(1, 1, "buy", 100, 4));
    expect(book.cancel(1)).toEqual({
      orderId: 1,
      ownerId: 1,
      side: "buy",
      priceTicks: 100,
      remainingLots: 4,
    });
    expect(book.cancel(1)).toBeUndefined();
    expect(book.cancel(99)).toBeUndefined();
    expect(book.get(1)).toBeUndefined();
    expect(book.bestPrice("buy")).toBeUndefined();
    expect(book.levelCount("buy")).toBe(0);
  });

  it("moves an order to the back of its new level, where it may trade", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "buy", 100, 4),
      order(2, 2, "buy", 100, 4),
      order(3, 3, "sell", 103, 2),
    );
    expect(book.replace(1, { priceTicks: 100, quantityLots: 3 }, recorder().listener)).toEqual({
      outcome: "rested",
      filledLots: 0,
      restingLots: 3,
    });
    expect([...book.orders()].map((resting) => resting.orderId)).toEqual([2, 1, 3]);
    const { events, listener } = recorder();
    expect(book.replace(2, { priceTicks: 104, quantityLots: 5 }, listener)).toEqual({
      outcome: "rested",
      filledLots: 2,
      restingLots: 3,
    });
    expect(events).toEqual([["fill", 3, 3, 103, 2, 0]]);
    expect(book.bestPrice("buy")).toBe(104);
    expect(book.replace(42, { priceTicks: 100, quantityLots: 1 }, listener)).toBeUndefined();
  });

  it("leaves an order in place when its replacement is rejected", () => {
    const book = createBook(limits);
    place(
      book,
      order(1, 1, "buy", 100, 1),
      order(2, 2, "buy", 100, 1),
      order(3, 1, "buy", 99, 1),
      order(4, 1, "buy", 98, 1),
      order(5, 5, "sell", 110, 1),
    );
    const { events, listener } = recorder();
    expect(book.replace(1, { priceTicks: 97, quantityLots: 1 }, listener)?.outcome).toBe(
      "rejected_book_full",
    );
    expect(
      book.replace(1, { priceTicks: 110, quantityLots: 1, timeInForce: "post_only" }, listener)
        ?.outcome,
    ).toBe("rejected_post_only");
    expect(events).toEqual([]);
    expect([...book.orders()].map((resting) => resting.orderId)).toEqual([1, 2, 3, 4, 5]);
    // Moving the only order of a level frees that level for the move itself.
    expect(book.replace(4, { priceTicks: 97, quantityLots: 1 }, listener)?.outcome).toBe("rested");
    expect(book.depth("buy", 5).map((level) => level.priceTicks)).toEqual([100, 99, 97]);
  });
});

describe.each(bookFactories)("order book with many orders: %s", (_name, createBook) => {
  it("finds, cancels and keeps orders with large, sparse ids", () => {
    const book = createBook({ levelsPerSideMax: 1000, ordersMax: 5000 });
    const { listener } = recorder();
    const ids: number[] = [];
    for (let index = 0; index < 1500; index++) {
      const orderId = 2 ** 40 + index * 7919;
      ids.push(orderId);
      book.submit(order(orderId, 1 + (index % 7), "buy", 1000 - (index % 400), 1), listener);
    }
    ids.forEach((orderId, index) => {
      if (index % 3 === 0) expect(book.cancel(orderId)?.orderId).toBe(orderId);
    });
    ids.forEach((orderId, index) => {
      expect(book.get(orderId)?.orderId).toBe(index % 3 === 0 ? undefined : orderId);
    });
    expect(book.orderCount).toBe(1000);
  });
});
