// The slow reference book: every resting order in one Map, every question answered by sorting
// them again. It is written to be obviously right, not fast; the property tests hold the fast
// book (`order-book.ts`) to the same fills, events and depth.
import { assert } from "../assert.ts";
import type {
  BookFill,
  BookLimits,
  BookListener,
  BookOrderInput,
  DepthLevel,
  OrderBook,
  OrderChange,
  RestingOrder,
  Side,
  SubmitResult,
} from "./types.ts";
import { priceSpanTicksMaxDefault } from "./types.ts";

interface Entry {
  order: RestingOrder;
  /** Arrival number: lower is older, so it goes first within a price. */
  sequence: number;
}

/** True when an incoming order on `side` with limit `limitPriceTicks` trades at `priceTicks`. */
function crosses(side: Side, limitPriceTicks: number, priceTicks: number): boolean {
  return side === "buy" ? priceTicks <= limitPriceTicks : priceTicks >= limitPriceTicks;
}

function opposite(side: Side): Side {
  return side === "buy" ? "sell" : "buy";
}

function checkInput(order: BookOrderInput): void {
  assert(Number.isSafeInteger(order.orderId) && order.orderId > 0, "orderId must be positive");
  assert(Number.isSafeInteger(order.ownerId) && order.ownerId > 0, "ownerId must be positive");
  assert(Number.isSafeInteger(order.priceTicks) && order.priceTicks > 0, "price must be positive");
  assert(
    Number.isSafeInteger(order.quantityLots) && order.quantityLots > 0,
    "quantity must be positive",
  );
  assert(order.side === "buy" || order.side === "sell", "side must be buy or sell");
}

/** Builds the slow, obviously right book. */
export function createReferenceBook(limits: BookLimits): OrderBook {
  const priceSpanTicksMax = limits.priceSpanTicksMax ?? priceSpanTicksMaxDefault;
  assert(limits.levelsPerSideMax > 0, "levelsPerSideMax must be positive");
  assert(limits.ordersMax > 0, "ordersMax must be positive");
  assert(priceSpanTicksMax > 0, "priceSpanTicksMax must be positive");

  const entries = new Map<number, Entry>();
  let sequenceNext = 1;

  /** One side's orders in priority order: best price first, then oldest first. */
  function sideEntries(side: Side): Entry[] {
    const list = [...entries.values()].filter((entry) => entry.order.side === side);
    list.sort((a, b) => {
      if (a.order.priceTicks !== b.order.priceTicks) {
        return side === "buy"
          ? b.order.priceTicks - a.order.priceTicks
          : a.order.priceTicks - b.order.priceTicks;
      }
      return a.sequence - b.sequence;
    });
    return list;
  }

  function levelPrices(side: Side): number[] {
    return [...new Set(sideEntries(side).map((entry) => entry.order.priceTicks))];
  }

  function fillableLots(
    side: Side,
    limitPriceTicks: number,
    ownerId: number,
    lotsWanted: number,
    stopAtOwn = false,
  ) {
    let lots = 0;
    for (const entry of sideEntries(opposite(side))) {
      if (lots >= lotsWanted) break;
      if (!crosses(side, limitPriceTicks, entry.order.priceTicks)) break;
      if (entry.order.ownerId === ownerId) {
        if (stopAtOwn) break;
        continue;
      }
      lots += entry.order.remainingLots;
    }
    return Math.min(lots, lotsWanted);
  }

  /**
   * Would resting `restingLots` of this order break a limit? Called only when the incoming
   * order will rest, which means every crossing order on the other side leaves the book first.
   */
  function breaksLimits(order: BookOrderInput): boolean {
    const after = [...entries.values()]
      .map((entry) => entry.order)
      .filter(
        (resting) =>
          resting.side === order.side || !crosses(order.side, order.priceTicks, resting.priceTicks),
      );
    if (after.length + 1 > limits.ordersMax) return true;
    const ownPrices = new Set(
      after.filter((resting) => resting.side === order.side).map((resting) => resting.priceTicks),
    );
    if (!ownPrices.has(order.priceTicks) && ownPrices.size >= limits.levelsPerSideMax) return true;
    const prices = [...after.map((resting) => resting.priceTicks), order.priceTicks];
    const span = Math.max(...prices) - Math.min(...prices) + 1;
    return span > priceSpanTicksMax;
  }

  function submit(order: BookOrderInput, listener: BookListener): SubmitResult {
    checkInput(order);
    assert(!entries.has(order.orderId), "orderId already resting");
    const { side, priceTicks, quantityLots, timeInForce } = order;

    const others = sideEntries(opposite(side));
    const best = others[0];
    if (timeInForce === "post_only" && best && crosses(side, priceTicks, best.order.priceTicks)) {
      return { outcome: "rejected_post_only", filledLots: 0, restingLots: 0 };
    }
    const selfTradeMode = order.selfTradeMode ?? "cancel_resting";
    const fillable = fillableLots(
      side,
      priceTicks,
      order.ownerId,
      quantityLots,
      selfTradeMode !== "cancel_resting",
    );
    if (timeInForce === "fok" && fillable < quantityLots) {
      return { outcome: "rejected_fok", filledLots: 0, restingLots: 0 };
    }
    const rests = timeInForce === "gtc" || timeInForce === "post_only";
    if (rests && fillable < quantityLots && breaksLimits(order)) {
      return { outcome: "rejected_book_full", filledLots: 0, restingLots: 0 };
    }

    let remainingLots = quantityLots;
    let stopped = false;
    for (const entry of others) {
      if (remainingLots === 0) break;
      const maker = entry.order;
      if (!crosses(side, priceTicks, maker.priceTicks)) break;
      if (maker.ownerId === order.ownerId) {
        if (selfTradeMode !== "cancel_incoming") {
          entries.delete(maker.orderId);
          listener.onSelfTradeCancel(maker.orderId, maker.remainingLots);
        }
        if (selfTradeMode === "cancel_resting") continue;
        stopped = true;
        break;
      }
      const lots = Math.min(remainingLots, maker.remainingLots);
      remainingLots -= lots;
      maker.remainingLots -= lots;
      if (maker.remainingLots === 0) entries.delete(maker.orderId);
      const fill: BookFill = {
        makerOrderId: maker.orderId,
        makerOwnerId: maker.ownerId,
        priceTicks: maker.priceTicks,
        quantityLots: lots,
        makerRemainingLots: maker.remainingLots,
      };
      listener.onFill(fill);
    }
    const filledLots = quantityLots - remainingLots;
    assert(filledLots === fillable, "matching filled what fillableLots promised");

    if (remainingLots === 0) return { outcome: "filled", filledLots, restingLots: 0 };
    if (stopped) {
      return { outcome: "expired", filledLots, restingLots: 0, selfTradeStopped: true };
    }
    if (!rests) return { outcome: "expired", filledLots, restingLots: 0 };
    entries.set(order.orderId, {
      order: {
        orderId: order.orderId,
        ownerId: order.ownerId,
        side,
        priceTicks,
        remainingLots,
      },
      sequence: sequenceNext++,
    });
    return { outcome: "rested", filledLots, restingLots: remainingLots };
  }

  function copy(order: RestingOrder): RestingOrder {
    return { ...order };
  }

  const book: OrderBook = {
    submit,

    cancel(orderId) {
      const entry = entries.get(orderId);
      if (!entry) return undefined;
      entries.delete(orderId);
      return copy(entry.order);
    },

    replace(orderId: number, change: OrderChange, listener: BookListener) {
      const entry = entries.get(orderId);
      if (!entry) return undefined;
      // Take the order out, try the new one, and put the old one back exactly where it was
      // when the new one is rejected: a rejection changes nothing.
      entries.delete(orderId);
      const { order } = entry;
      const result = submit(
        {
          orderId,
          ownerId: order.ownerId,
          side: order.side,
          priceTicks: change.priceTicks,
          quantityLots: change.quantityLots,
          timeInForce: change.timeInForce ?? "gtc",
          selfTradeMode: change.selfTradeMode ?? "cancel_resting",
        },
        listener,
      );
      if (result.outcome.startsWith("rejected_")) entries.set(orderId, entry);
      return result;
    },

    reduce(orderId, remainingLots) {
      const entry = entries.get(orderId);
      if (!entry) return undefined;
      assert(
        Number.isSafeInteger(remainingLots) &&
          remainingLots > 0 &&
          remainingLots < entry.order.remainingLots,
        "a reduction must leave between 1 lot and less than before",
      );
      entry.order.remainingLots = remainingLots;
      return copy(entry.order);
    },

    get(orderId) {
      const entry = entries.get(orderId);
      return entry ? copy(entry.order) : undefined;
    },

    fillableLots,

    walk(side, ownerId, visit) {
      const levels = new Map<number, number>();
      for (const entry of sideEntries(opposite(side))) {
        if (entry.order.ownerId === ownerId) continue;
        levels.set(
          entry.order.priceTicks,
          (levels.get(entry.order.priceTicks) ?? 0) + entry.order.remainingLots,
        );
      }
      for (const [priceTicks, quantityLots] of levels) {
        if (!visit(priceTicks, quantityLots)) return;
      }
    },

    bestPrice(side) {
      return sideEntries(side)[0]?.order.priceTicks;
    },

    depth(side, levelsMax) {
      const levels: DepthLevel[] = [];
      for (const entry of sideEntries(side)) {
        const last = levels[levels.length - 1];
        if (last && last.priceTicks === entry.order.priceTicks) {
          last.quantityLots += entry.order.remainingLots;
          last.orderCount += 1;
        } else {
          if (levels.length >= levelsMax) break;
          levels.push({
            priceTicks: entry.order.priceTicks,
            quantityLots: entry.order.remainingLots,
            orderCount: 1,
          });
        }
      }
      return levels;
    },

    *orders() {
      for (const entry of [...sideEntries("buy"), ...sideEntries("sell")]) {
        yield copy(entry.order);
      }
    },

    get orderCount() {
      return entries.size;
    },

    levelCount(side) {
      return levelPrices(side).length;
    },
  };
  return book;
}
