// The fast book's storage: orders are nodes in typed-array columns (a free list recycles them),
// linked into one FIFO queue per price level; levels sit in a price ladder indexed by tick offset
// from `base`, with one bitmap per side to find the next best level in a few word scans.
// `FastBook` (order-book.ts) matches on top of it.
import { assert } from "../assert.ts";
import { highestAtOrBelow, lowestAtOrAbove, powerOfTwoAtLeast, powerOfTwoAtMost } from "./bits.ts";
import { growFloat, growInt, IdTable } from "./id-table.ts";
import type { BookLimits, RestingOrder } from "./types.ts";
import { priceSpanTicksMaxDefault } from "./types.ts";

export const buy = 0;
export const sell = 1;
/** Index 0 of the node and level tables means "none". */
export const none = 0;
const ladderWidthInitial = 1024;
const capacityInitial = 256;

export class BookStore {
  protected readonly priceSpanTicksMax: number;
  protected readonly levelsPerSideMax: number;
  protected readonly ordersMax: number;
  private readonly ladderWidthMax: number;

  // Order nodes: columns indexed by node number.
  private nodeCapacity = capacityInitial;
  protected nodeOrderId = new Float64Array(capacityInitial);
  protected nodeOwnerId = new Float64Array(capacityInitial);
  protected nodeLots = new Float64Array(capacityInitial);
  protected nodeLevel = new Int32Array(capacityInitial);
  protected nodePrevious = new Int32Array(capacityInitial);
  protected nodeNext = new Int32Array(capacityInitial);
  private nodeFree = none;
  private nodeHighWater = 1;
  protected readonly nodeByOrderId = new IdTable();
  protected restingCount = 0;

  // Price levels: columns indexed by level number. A level with no orders is freed at once.
  private levelCapacity = 64;
  protected levelPrice = new Float64Array(64);
  protected levelSide = new Uint8Array(64);
  protected levelHead = new Int32Array(64);
  protected levelTail = new Int32Array(64);
  protected levelLots = new Float64Array(64);
  protected levelOrders = new Int32Array(64);
  private levelFree = none;
  private levelHighWater = 1;
  protected readonly levelsOnSide = [0, 0];

  // The ladder: slot `price - base` holds that price's level. At most one side rests at a price,
  // because the book is never left crossed.
  protected ladderWidth: number;
  protected base = 0;
  protected slots: Int32Array;
  protected bidBits: Int32Array;
  protected askBits: Int32Array;
  /** Ladder offsets of the best bid and ask, -1 when that side is empty. */
  protected bestBid = -1;
  protected bestAsk = -1;

  constructor(limits: BookLimits) {
    const priceSpanTicksMax = limits.priceSpanTicksMax ?? priceSpanTicksMaxDefault;
    assert(limits.levelsPerSideMax > 0, "levelsPerSideMax must be positive");
    assert(limits.ordersMax > 0, "ordersMax must be positive");
    assert(
      Number.isSafeInteger(priceSpanTicksMax) && priceSpanTicksMax > 0,
      "bad priceSpanTicksMax",
    );
    this.priceSpanTicksMax = priceSpanTicksMax;
    this.levelsPerSideMax = limits.levelsPerSideMax;
    this.ordersMax = limits.ordersMax;
    this.ladderWidthMax = powerOfTwoAtLeast(priceSpanTicksMax);
    this.ladderWidth = Math.min(ladderWidthInitial, powerOfTwoAtMost(priceSpanTicksMax));
    this.slots = new Int32Array(this.ladderWidth);
    this.bidBits = new Int32Array(this.ladderWidth >>> 5);
    this.askBits = new Int32Array(this.ladderWidth >>> 5);
  }

  protected nodeAllocate(): number {
    if (this.nodeFree !== none) {
      const node = this.nodeFree;
      this.nodeFree = this.nodeNext[node]!;
      return node;
    }
    if (this.nodeHighWater === this.nodeCapacity) {
      const capacity = (this.nodeCapacity *= 2);
      this.nodeOrderId = growFloat(this.nodeOrderId, capacity);
      this.nodeOwnerId = growFloat(this.nodeOwnerId, capacity);
      this.nodeLots = growFloat(this.nodeLots, capacity);
      this.nodeLevel = growInt(this.nodeLevel, capacity);
      this.nodePrevious = growInt(this.nodePrevious, capacity);
      this.nodeNext = growInt(this.nodeNext, capacity);
    }
    return this.nodeHighWater++;
  }

  protected nodeRelease(node: number): void {
    this.nodeLevel[node] = none;
    this.nodeNext[node] = this.nodeFree;
    this.nodeFree = node;
  }

  private levelAllocate(): number {
    if (this.levelFree !== none) {
      const level = this.levelFree;
      this.levelFree = this.levelHead[level]!;
      return level;
    }
    if (this.levelHighWater === this.levelCapacity) {
      const capacity = (this.levelCapacity *= 2);
      this.levelPrice = growFloat(this.levelPrice, capacity);
      const sides = new Uint8Array(capacity);
      sides.set(this.levelSide);
      this.levelSide = sides;
      this.levelHead = growInt(this.levelHead, capacity);
      this.levelTail = growInt(this.levelTail, capacity);
      this.levelLots = growFloat(this.levelLots, capacity);
      this.levelOrders = growInt(this.levelOrders, capacity);
    }
    return this.levelHighWater++;
  }

  /** Puts a new, empty level for `side` at ladder offset `offset` (which must be free). */
  protected levelOpen(side: number, priceTicks: number, offset: number): number {
    const level = this.levelAllocate();
    this.levelPrice[level] = priceTicks;
    this.levelSide[level] = side;
    this.levelHead[level] = none;
    this.levelTail[level] = none;
    this.levelLots[level] = 0;
    this.levelOrders[level] = 0;
    this.slots[offset] = level;
    this.levelsOnSide[side]!++;
    if (side === buy) {
      this.bidBits[offset >>> 5]! |= 1 << (offset & 31);
      if (offset > this.bestBid) this.bestBid = offset;
    } else {
      this.askBits[offset >>> 5]! |= 1 << (offset & 31);
      if (this.bestAsk < 0 || offset < this.bestAsk) this.bestAsk = offset;
    }
    return level;
  }

  /** Removes an empty level from the ladder and finds the next best when it was the best. */
  protected levelClose(level: number): void {
    const offset = this.levelPrice[level]! - this.base;
    this.slots[offset] = none;
    if (this.levelSide[level] === buy) {
      this.bidBits[offset >>> 5]! &= ~(1 << (offset & 31));
      this.levelsOnSide[buy]!--;
      if (offset === this.bestBid) this.bestBid = highestAtOrBelow(this.bidBits, offset - 1);
    } else {
      this.askBits[offset >>> 5]! &= ~(1 << (offset & 31));
      this.levelsOnSide[sell]!--;
      if (offset === this.bestAsk) this.bestAsk = lowestAtOrAbove(this.askBits, offset + 1);
    }
    this.levelOrders[level] = 0;
    this.levelHead[level] = this.levelFree;
    this.levelFree = level;
  }

  /** Takes a node out of its level's queue (the level stays, possibly empty). */
  protected unlink(node: number): void {
    const level = this.nodeLevel[node]!;
    const previous = this.nodePrevious[node]!;
    const next = this.nodeNext[node]!;
    if (previous === none) this.levelHead[level] = next;
    else this.nodeNext[previous] = next;
    if (next === none) this.levelTail[level] = previous;
    else this.nodePrevious[next] = previous;
    this.levelOrders[level]!--;
    this.levelLots[level]! -= this.nodeLots[node]!;
  }

  /** Removes a resting order completely: queue, level if emptied, id table. */
  protected remove(node: number): void {
    const level = this.nodeLevel[node]!;
    this.unlink(node);
    if (this.levelOrders[level] === 0) this.levelClose(level);
    this.nodeByOrderId.remove(this.nodeOrderId[node]!);
    this.restingCount--;
    this.nodeRelease(node);
  }

  /** Appends a node to the tail of a level's queue. */
  protected append(level: number, node: number): void {
    const tail = this.levelTail[level]!;
    this.nodeLevel[node] = level;
    this.nodePrevious[node] = tail;
    this.nodeNext[node] = none;
    if (tail === none) this.levelHead[level] = node;
    else this.nodeNext[tail] = node;
    this.levelTail[level] = node;
    this.levelOrders[level]!++;
    this.levelLots[level]! += this.nodeLots[node]!;
  }

  /** Every live level, in table order (slow; for rare paths only). */
  protected liveLevels(): number[] {
    const levels: number[] = [];
    for (let level = 1; level < this.levelHighWater; level++) {
      if (this.levelOrders[level]! > 0) levels.push(level);
    }
    return levels;
  }

  /** Moves and widens the ladder so that `priceTicks` and every live level fit. */
  protected ladderRebuild(priceTicks: number): void {
    const levels = this.liveLevels();
    let low = priceTicks;
    let high = priceTicks;
    for (const level of levels) {
      low = Math.min(low, this.levelPrice[level]!);
      high = Math.max(high, this.levelPrice[level]!);
    }
    const span = high - low + 1;
    let width = this.ladderWidth;
    while (width < 2 * span && width < this.ladderWidthMax) width *= 2;
    assert(span <= width, "the span check keeps resting prices within the widest ladder");
    this.base = Math.max(0, low - Math.floor((width - span) / 2));
    if (width !== this.ladderWidth) {
      this.ladderWidth = width;
      this.slots = new Int32Array(width);
      this.bidBits = new Int32Array(width >>> 5);
      this.askBits = new Int32Array(width >>> 5);
    } else {
      this.slots.fill(0);
      this.bidBits.fill(0);
      this.askBits.fill(0);
    }
    this.bestBid = -1;
    this.bestAsk = -1;
    for (const level of levels) {
      const offset = this.levelPrice[level]! - this.base;
      this.slots[offset] = level;
      if (this.levelSide[level] === buy) {
        this.bidBits[offset >>> 5]! |= 1 << (offset & 31);
        if (offset > this.bestBid) this.bestBid = offset;
      } else {
        this.askBits[offset >>> 5]! |= 1 << (offset & 31);
        if (this.bestAsk < 0 || offset < this.bestAsk) this.bestAsk = offset;
      }
    }
  }

  /** The live level of `side` at `priceTicks`, or none. */
  protected levelAt(side: number, priceTicks: number): number {
    const offset = priceTicks - this.base;
    if (offset < 0 || offset >= this.ladderWidth) return none;
    const level = this.slots[offset]!;
    return level !== none && this.levelSide[level] === side ? level : none;
  }

  /** The next level's offset after `offset` on `side`, going away from the best; or -1. */
  protected nextOffset(side: number, offset: number): number {
    return side === buy
      ? highestAtOrBelow(this.bidBits, offset - 1)
      : lowestAtOrAbove(this.askBits, offset + 1);
  }

  protected view(node: number): RestingOrder {
    const level = this.nodeLevel[node]!;
    return {
      orderId: this.nodeOrderId[node]!,
      ownerId: this.nodeOwnerId[node]!,
      side: this.levelSide[level] === buy ? "buy" : "sell",
      priceTicks: this.levelPrice[level]!,
      remainingLots: this.nodeLots[node]!,
    };
  }
}
