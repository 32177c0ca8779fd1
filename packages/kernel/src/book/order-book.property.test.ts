// Property tests: the fast book and the reference book, fed the same random command stream,
// report the same results and events and end with the same orders and depth. fast-check prints
// the seed and the shrunk stream of any failure; replay it with `{ seed, path }`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOrderBook } from "./order-book.ts";
import { createReferenceBook } from "./order-book.reference.ts";
import { recorder } from "./testing.ts";
import type { BookLimits, OrderBook, SelfTradeMode, Side, TimeInForce } from "./types.ts";

type Command =
  | {
      type: "submit";
      ownerId: number;
      side: Side;
      priceTicks: number;
      quantityLots: number;
      timeInForce: TimeInForce;
      selfTradeMode: SelfTradeMode;
    }
  | { type: "cancel"; pick: number }
  | { type: "reduce"; pick: number; by: number }
  | {
      type: "replace";
      pick: number;
      priceTicks: number;
      quantityLots: number;
      timeInForce: TimeInForce;
      selfTradeMode: SelfTradeMode;
    }
  | { type: "query"; ownerId: number; side: Side; priceTicks: number; lotsWanted: number };

interface Profile {
  name: string;
  limits: BookLimits;
  priceLow: number;
  priceHigh: number;
  owners: number;
  quantityMax: number;
}

function commandArbitrary(profile: Profile): fc.Arbitrary<Command> {
  const price = fc.integer({ min: profile.priceLow, max: profile.priceHigh });
  const owner = fc.integer({ min: 1, max: profile.owners });
  const quantity = fc.integer({ min: 1, max: profile.quantityMax });
  const side = fc.constantFrom<Side>("buy", "sell");
  const timeInForce = fc.constantFrom<TimeInForce>("gtc", "gtc", "gtc", "ioc", "fok", "post_only");
  const selfTradeMode = fc.constantFrom<SelfTradeMode>(
    "cancel_resting",
    "cancel_resting",
    "cancel_incoming",
    "cancel_both",
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        type: fc.constant("submit" as const),
        ownerId: owner,
        side,
        priceTicks: price,
        quantityLots: quantity,
        timeInForce,
        selfTradeMode,
      }),
    },
    { weight: 2, arbitrary: fc.record({ type: fc.constant("cancel" as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constant("reduce" as const),
        pick: fc.nat(),
        by: fc.integer({ min: 1, max: profile.quantityMax }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        type: fc.constant("replace" as const),
        pick: fc.nat(),
        priceTicks: price,
        quantityLots: quantity,
        timeInForce,
        selfTradeMode,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant("query" as const),
        ownerId: owner,
        side,
        priceTicks: price,
        lotsWanted: quantity,
      }),
    },
  );
}

/** Runs one command on a book and returns everything observable about it. */
function run(book: OrderBook, command: Command, orderIds: number[], orderIdNext: number): unknown {
  const { events, listener } = recorder();
  switch (command.type) {
    case "submit": {
      const { type: _type, ...order } = command;
      const result = book.submit({ orderId: orderIdNext, ...order }, listener);
      return { result, events };
    }
    case "cancel":
      return book.cancel(orderIds[command.pick % orderIds.length] ?? 1);
    case "reduce": {
      const orderId = orderIds[command.pick % orderIds.length] ?? 1;
      const resting = book.get(orderId);
      if (resting === undefined || resting.remainingLots <= command.by) {
        return book.reduce(orderId + 1_000_000, 1);
      }
      return book.reduce(orderId, resting.remainingLots - command.by);
    }
    case "replace": {
      const orderId = orderIds[command.pick % orderIds.length] ?? 1;
      const { type: _type, pick: _pick, ...change } = command;
      return { result: book.replace(orderId, change, listener), events };
    }
    case "query": {
      const walked: number[][] = [];
      book.walk(command.side, command.ownerId, (priceTicks, quantityLots) => {
        walked.push([priceTicks, quantityLots]);
        return walked.length < 3;
      });
      return {
        fillable: book.fillableLots(
          command.side,
          command.priceTicks,
          command.ownerId,
          command.lotsWanted,
        ),
        walked,
        best: [book.bestPrice("buy"), book.bestPrice("sell")],
      };
    }
  }
}

function observe(book: OrderBook): unknown {
  return {
    orders: [...book.orders()],
    bids: book.depth("buy", 1000),
    asks: book.depth("sell", 1000),
    orderCount: book.orderCount,
    levels: [book.levelCount("buy"), book.levelCount("sell")],
  };
}

const profiles: Profile[] = [
  {
    name: "a wide book",
    limits: { levelsPerSideMax: 50, ordersMax: 200 },
    priceLow: 90,
    priceHigh: 130,
    owners: 8,
    quantityMax: 20,
  },
  {
    name: "few price levels and tight limits",
    limits: { levelsPerSideMax: 2, ordersMax: 6 },
    priceLow: 100,
    priceHigh: 103,
    owners: 4,
    quantityMax: 5,
  },
  {
    name: "heavy self-trade",
    limits: { levelsPerSideMax: 10, ordersMax: 40 },
    priceLow: 100,
    priceHigh: 106,
    owners: 2,
    quantityMax: 6,
  },
  {
    name: "prices far apart (ladder moves and grows, span limit)",
    limits: { levelsPerSideMax: 20, ordersMax: 60, priceSpanTicksMax: 3000 },
    priceLow: 1,
    priceHigh: 5000,
    owners: 5,
    quantityMax: 10,
  },
];

describe.each(profiles)("fast book agrees with the reference: $name", (profile) => {
  it("on random command streams", () => {
    fc.assert(
      fc.property(
        fc.array(commandArbitrary(profile), { minLength: 20, maxLength: 400, size: "max" }),
        (commands) => {
          const fast = createOrderBook(profile.limits);
          const reference = createReferenceBook(profile.limits);
          const orderIds: number[] = [];
          let orderIdNext = 1;
          for (const command of commands) {
            const expected = run(reference, command, orderIds, orderIdNext);
            const actual = run(fast, command, orderIds, orderIdNext);
            expect(actual).toEqual(expected);
            if (command.type === "submit") orderIds.push(orderIdNext++);
          }
          expect(observe(fast)).toEqual(observe(reference));
        },
      ),
      { numRuns: 200 },
    );
  });
});
