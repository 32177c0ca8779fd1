// The fast book: matching, resting and cancelling over the typed-array storage of
// `book-store.ts`. Matching, resting and cancelling allocate nothing but the objects the
// contract hands back (results, fills, cancelled orders). `order-book.reference.ts` is the
// specification: the property tests hold this book to its fills, events and depth.
import { assert } from "../assert.ts";
import { lowestAtOrAbove, highestAtOrBelow } from "./bits.ts";
import { BookStore, buy, none, sell } from "./book-store.ts";
import type {
  BookLimits,
  BookListener,
  BookOrderInput,
  DepthLevel,
  OrderBook,
  OrderChange,
  RestingOrder,
  SelfTradeMode,
  Side,
  SubmitResult,
  TimeInForce,
} from "./types.ts";

function sideNumber(side: Side): number {
  return side === "buy" ? buy : sell;
}

class FastBook extends BookStore implements OrderBook {
  /** Set by `match` when self-trade prevention dropped the incoming remainder. */
  private selfTradeStopped = false;

  /** True when an incoming order on `side` at `limitPriceTicks` would trade with the best. */
  private crossesBest(side: number, limitPriceTicks: number): boolean {
    if (side === buy) return this.bestAsk >= 0 && this.base + this.bestAsk <= limitPriceTicks;
    return this.bestBid >= 0 && this.base + this.bestBid >= limitPriceTicks;
  }

  private fillable(
    side: number,
    limitPriceTicks: number,
    ownerId: number,
    lotsWanted: number,
    stopAtOwn = false,
  ): number {
    let lots = 0;
    let offset = side === buy ? this.bestAsk : this.bestBid;
    while (offset >= 0 && lots < lotsWanted) {
      const level = this.slots[offset]!;
      const priceTicks = this.levelPrice[level]!;
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      for (let node = this.levelHead[level]!; node !== none; node = this.nodeNext[node]!) {
        if (this.nodeOwnerId[node] !== ownerId) lots += this.nodeLots[node]!;
        else if (stopAtOwn) return Math.min(lots, lotsWanted);
        if (lots >= lotsWanted) break;
      }
      offset =
        side === buy
          ? lowestAtOrAbove(this.askBits, offset + 1)
          : highestAtOrBelow(this.bidBits, offset - 1);
    }
    return Math.min(lots, lotsWanted);
  }

  /** Cheap test: could resting this order break a limit? False means it certainly cannot. */
  private mayBreakLimits(side: number, priceTicks: number): boolean {
    if (this.restingCount + 1 > this.ordersMax) return true;
    if (this.levelAt(side, priceTicks) !== none) return false;
    if (this.levelsOnSide[side]! >= this.levelsPerSideMax) return true;
    const offset = priceTicks - this.base;
    return offset < 0 || offset >= this.ladderWidth || this.ladderWidth > this.priceSpanTicksMax;
  }

  /**
   * Exact test, for an order that will rest: every crossing order on the other side leaves the
   * book first, so only the levels that do not cross remain there.
   */
  private breaksLimits(side: number, priceTicks: number): boolean {
    let ordersAfter = this.restingCount + 1;
    let low = priceTicks;
    let high = priceTicks;
    for (const level of this.liveLevels()) {
      const levelPriceTicks = this.levelPrice[level]!;
      const crossing =
        this.levelSide[level] !== side &&
        (side === buy ? levelPriceTicks <= priceTicks : levelPriceTicks >= priceTicks);
      if (crossing) {
        ordersAfter -= this.levelOrders[level]!;
        continue;
      }
      low = Math.min(low, levelPriceTicks);
      high = Math.max(high, levelPriceTicks);
    }
    if (ordersAfter > this.ordersMax) return true;
    if (
      this.levelAt(side, priceTicks) === none &&
      this.levelsOnSide[side]! >= this.levelsPerSideMax
    ) {
      return true;
    }
    return high - low + 1 > this.priceSpanTicksMax;
  }

  /** Trades an incoming order against the other side; returns the lots left unfilled. */
  private match(
    side: number,
    limitPriceTicks: number,
    ownerId: number,
    quantityLots: number,
    listener: BookListener,
    selfTradeMode: SelfTradeMode,
  ): number {
    let remaining = quantityLots;
    let offset = side === buy ? this.bestAsk : this.bestBid;
    while (offset >= 0) {
      const level = this.slots[offset]!;
      const priceTicks = this.levelPrice[level]!;
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      let node = this.levelHead[level]!;
      while (node !== none) {
        const next = this.nodeNext[node]!;
        const makerLots = this.nodeLots[node]!;
        const makerOrderId = this.nodeOrderId[node]!;
        const makerOwnerId = this.nodeOwnerId[node]!;
        if (makerOwnerId === ownerId) {
          if (selfTradeMode === "cancel_incoming") {
            this.selfTradeStopped = true;
            return remaining;
          }
          this.remove(node);
          listener.onSelfTradeCancel(makerOrderId, makerLots);
          if (selfTradeMode === "cancel_both") {
            this.selfTradeStopped = true;
            return remaining;
          }
        } else {
          const lots = remaining < makerLots ? remaining : makerLots;
          const makerRemainingLots = makerLots - lots;
          remaining -= lots;
          if (makerRemainingLots === 0) {
            this.remove(node);
          } else {
            this.nodeLots[node] = makerRemainingLots;
            this.levelLots[level]! -= lots;
          }
          listener.onFill({
            makerOrderId,
            makerOwnerId,
            priceTicks,
            quantityLots: lots,
            makerRemainingLots,
          });
          if (remaining === 0) return 0;
        }
        node = next;
      }
      // The level emptied and was closed, so the side's best is already the next level.
      offset = side === buy ? this.bestAsk : this.bestBid;
    }
    return remaining;
  }

  private rest(
    orderId: number,
    ownerId: number,
    side: number,
    priceTicks: number,
    lots: number,
  ): void {
    let offset = priceTicks - this.base;
    if (offset < 0 || offset >= this.ladderWidth) {
      this.ladderRebuild(priceTicks);
      offset = priceTicks - this.base;
    }
    let level = this.slots[offset]!;
    if (level === none) level = this.levelOpen(side, priceTicks, offset);
    const node = this.nodeAllocate();
    this.nodeOrderId[node] = orderId;
    this.nodeOwnerId[node] = ownerId;
    this.nodeLots[node] = lots;
    this.append(level, node);
    this.nodeByOrderId.insert(orderId, node);
    this.restingCount++;
  }

  submit(order: BookOrderInput, listener: BookListener): SubmitResult {
    const { orderId, ownerId, priceTicks, quantityLots, timeInForce } = order;
    assert(Number.isSafeInteger(orderId) && orderId > 0, "orderId must be positive");
    assert(Number.isSafeInteger(ownerId) && ownerId > 0, "ownerId must be positive");
    assert(this.nodeByOrderId.get(orderId) === none, "orderId already resting");
    const side = order.side === "buy" ? buy : order.side === "sell" ? sell : -1;
    assert(side >= 0, "side must be buy or sell");
    return this.place(
      orderId,
      ownerId,
      side,
      priceTicks,
      quantityLots,
      timeInForce,
      listener,
      order.selfTradeMode ?? "cancel_resting",
    );
  }

  /** Submits an order given as scalars (no input object), after the caller checked ids. */
  private place(
    orderId: number,
    ownerId: number,
    side: number,
    priceTicks: number,
    quantityLots: number,
    timeInForce: TimeInForce,
    listener: BookListener,
    selfTradeMode: SelfTradeMode,
  ): SubmitResult {
    assert(Number.isSafeInteger(priceTicks) && priceTicks > 0, "price must be positive");
    assert(Number.isSafeInteger(quantityLots) && quantityLots > 0, "quantity must be positive");
    const crosses = this.crossesBest(side, priceTicks);
    const stopAtOwn = selfTradeMode !== "cancel_resting";
    if (timeInForce === "post_only" && crosses) {
      return { outcome: "rejected_post_only", filledLots: 0, restingLots: 0 };
    }
    let fillableLots = -1;
    if (timeInForce === "fok") {
      fillableLots = crosses
        ? this.fillable(side, priceTicks, ownerId, quantityLots, stopAtOwn)
        : 0;
      if (fillableLots < quantityLots) {
        return { outcome: "rejected_fok", filledLots: 0, restingLots: 0 };
      }
    }
    const rests = timeInForce === "gtc" || timeInForce === "post_only";
    if (rests && this.mayBreakLimits(side, priceTicks)) {
      if (fillableLots < 0) {
        fillableLots = crosses
          ? this.fillable(side, priceTicks, ownerId, quantityLots, stopAtOwn)
          : 0;
      }
      if (fillableLots < quantityLots && this.breaksLimits(side, priceTicks)) {
        return { outcome: "rejected_book_full", filledLots: 0, restingLots: 0 };
      }
    }

    this.selfTradeStopped = false;
    const remaining = crosses
      ? this.match(side, priceTicks, ownerId, quantityLots, listener, selfTradeMode)
      : quantityLots;
    const filledLots = quantityLots - remaining;
    if (remaining === 0) return { outcome: "filled", filledLots, restingLots: 0 };
    if (this.selfTradeStopped) {
      return { outcome: "expired", filledLots, restingLots: 0, selfTradeStopped: true };
    }
    if (!rests) return { outcome: "expired", filledLots, restingLots: 0 };
    this.rest(orderId, ownerId, side, priceTicks, remaining);
    return { outcome: "rested", filledLots, restingLots: remaining };
  }

  cancel(orderId: number): RestingOrder | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === none) return undefined;
    const cancelled = this.view(node);
    this.remove(node);
    return cancelled;
  }

  replace(orderId: number, change: OrderChange, listener: BookListener): SubmitResult | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === none) return undefined;
    const level = this.nodeLevel[node]!;
    const previous = this.nodePrevious[node]!;
    const side = this.levelSide[level]!;
    const priceTicks = this.levelPrice[level]!;
    const ownerId = this.nodeOwnerId[node]!;
    // Take the order out (keeping its node), try the new one, and put the old one back in
    // its place when the new one is rejected: a rejection changes nothing, so the neighbours
    // and the ladder are as they were.
    this.unlink(node);
    const levelClosed = this.levelOrders[level] === 0;
    if (levelClosed) this.levelClose(level);
    this.nodeByOrderId.remove(orderId);
    this.restingCount--;
    const result = this.place(
      orderId,
      ownerId,
      side,
      change.priceTicks,
      change.quantityLots,
      change.timeInForce ?? "gtc",
      listener,
      change.selfTradeMode ?? "cancel_resting",
    );
    if (
      result.outcome === "rejected_book_full" ||
      result.outcome === "rejected_fok" ||
      result.outcome === "rejected_post_only"
    ) {
      if (levelClosed) {
        this.append(this.levelOpen(side, priceTicks, priceTicks - this.base), node);
      } else {
        const next = previous === none ? this.levelHead[level]! : this.nodeNext[previous]!;
        this.nodeLevel[node] = level;
        this.nodePrevious[node] = previous;
        this.nodeNext[node] = next;
        if (previous === none) this.levelHead[level] = node;
        else this.nodeNext[previous] = node;
        if (next === none) this.levelTail[level] = node;
        else this.nodePrevious[next] = node;
        this.levelOrders[level]!++;
        this.levelLots[level]! += this.nodeLots[node]!;
      }
      this.nodeByOrderId.insert(orderId, node);
      this.restingCount++;
    } else {
      this.nodeRelease(node);
    }
    return result;
  }

  reduce(orderId: number, remainingLots: number): RestingOrder | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === none) return undefined;
    const lots = this.nodeLots[node]!;
    assert(
      Number.isSafeInteger(remainingLots) && remainingLots > 0 && remainingLots < lots,
      "a reduction must leave between 1 lot and less than before",
    );
    this.nodeLots[node] = remainingLots;
    this.levelLots[this.nodeLevel[node]!]! -= lots - remainingLots;
    return this.view(node);
  }

  get(orderId: number): RestingOrder | undefined {
    const node = this.nodeByOrderId.get(orderId);
    return node === none ? undefined : this.view(node);
  }

  fillableLots(side: Side, limitPriceTicks: number, ownerId: number, lotsWanted: number): number {
    return this.fillable(sideNumber(side), limitPriceTicks, ownerId, lotsWanted);
  }

  walk(
    side: Side,
    ownerId: number,
    visit: (priceTicks: number, quantityLots: number) => boolean,
  ): void {
    const other = sideNumber(side) === buy ? sell : buy;
    let offset = other === buy ? this.bestBid : this.bestAsk;
    while (offset >= 0) {
      const level = this.slots[offset]!;
      let lots = this.levelLots[level]!;
      for (let node = this.levelHead[level]!; node !== none; node = this.nodeNext[node]!) {
        if (this.nodeOwnerId[node] === ownerId) lots -= this.nodeLots[node]!;
      }
      if (lots > 0 && !visit(this.levelPrice[level]!, lots)) return;
      offset = this.nextOffset(other, offset);
    }
  }

  bestPrice(side: Side): number | undefined {
    const offset = side === "buy" ? this.bestBid : this.bestAsk;
    return offset >= 0 ? this.base + offset : undefined;
  }

  depth(side: Side, levelsMax: number): DepthLevel[] {
    const sideIndex = sideNumber(side);
    const levels: DepthLevel[] = [];
    let offset = sideIndex === buy ? this.bestBid : this.bestAsk;
    while (offset >= 0 && levels.length < levelsMax) {
      const level = this.slots[offset]!;
      levels.push({
        priceTicks: this.levelPrice[level]!,
        quantityLots: this.levelLots[level]!,
        orderCount: this.levelOrders[level]!,
      });
      offset = this.nextOffset(sideIndex, offset);
    }
    return levels;
  }

  *orders(): IterableIterator<RestingOrder> {
    for (const sideIndex of [buy, sell]) {
      let offset = sideIndex === buy ? this.bestBid : this.bestAsk;
      while (offset >= 0) {
        const level = this.slots[offset]!;
        for (let node = this.levelHead[level]!; node !== none; node = this.nodeNext[node]!) {
          yield this.view(node);
        }
        offset = this.nextOffset(sideIndex, offset);
      }
    }
  }

  get orderCount(): number {
    return this.restingCount;
  }

  levelCount(side: Side): number {
    return this.levelsOnSide[sideNumber(side)]!;
  }
}

/** Builds the fast book. Same contract and behaviour as `createReferenceBook`. */
export function createOrderBook(limits: BookLimits): OrderBook {
  return new FastBook(limits);
}
