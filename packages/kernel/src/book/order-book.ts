// The fast book. Orders are nodes in typed-array columns (an id table with a free list), linked
// into one FIFO queue per price level; levels sit in a price ladder indexed by tick offset from
// `base`, with one bitmap per side to find the next best level in a few word scans. Matching,
// resting and cancelling allocate nothing but the objects the contract hands back (results,
// fills, cancelled orders). `order-book.reference.ts` is the specification: the property tests
// hold this book to its fills, events and depth.
import { assert } from "../assert.ts";
import type {
  BookLimits,
  BookListener,
  BookOrderInput,
  DepthLevel,
  OrderBook,
  OrderChange,
  RestingOrder,
  Side,
  SubmitResult,
  TimeInForce,
} from "./types.ts";
import { priceSpanTicksMaxDefault } from "./types.ts";

const buy = 0;
const sell = 1;
/** Index 0 of the node and level tables means "none". */
const none = 0;
const ladderWidthInitial = 1024;
const capacityInitial = 256;

function powerOfTwoAtLeast(value: number): number {
  let power = 32;
  while (power < value) power *= 2;
  return power;
}

function powerOfTwoAtMost(value: number): number {
  let power = 32;
  while (power * 2 <= value) power *= 2;
  return power;
}

/** Highest set bit at or below `index`, or -1. */
function highestAtOrBelow(bits: Int32Array, index: number): number {
  if (index < 0) return -1;
  let wordIndex = index >>> 5;
  let word = bits[wordIndex]! & (0xffffffff >>> (31 - (index & 31)));
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word);
    if (--wordIndex < 0) return -1;
    word = bits[wordIndex]!;
  }
}

/** Lowest set bit at or above `index`, or -1. */
function lowestAtOrAbove(bits: Int32Array, index: number): number {
  let wordIndex = index >>> 5;
  if (wordIndex >= bits.length) return -1;
  let word = bits[wordIndex]! & (0xffffffff << (index & 31));
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word & -word);
    if (++wordIndex >= bits.length) return -1;
    word = bits[wordIndex]!;
  }
}

/**
 * Order id → node number, open addressing with linear probing in typed arrays (no per-insert
 * allocation, unlike a Map). Key 0 marks an empty slot: order ids are positive.
 */
class IdTable {
  private keys = new Float64Array(1024);
  private values = new Int32Array(1024);
  private mask = 1023;
  private count = 0;

  private home(key: number): number {
    // Fibonacci hashing of both 32-bit halves: rising ids spread evenly.
    const mixed = (key | 0) ^ ((key / 4294967296) | 0);
    return (Math.imul(mixed, 0x9e3779b1) >>> 0) & this.mask;
  }

  /** The node for `key`, or 0. */
  get(key: number): number {
    const keys = this.keys;
    let index = this.home(key);
    while (true) {
      const found = keys[index]!;
      if (found === key) return this.values[index]!;
      if (found === 0) return 0;
      index = (index + 1) & this.mask;
    }
  }

  /** Adds a key that is not present. */
  insert(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let index = this.home(key);
    while (keys[index] !== 0) index = (index + 1) & this.mask;
    keys[index] = key;
    this.values[index] = value;
    this.count++;
  }

  /** Removes a key that is present, shifting later entries of its probe run back. */
  remove(key: number): void {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let hole = this.home(key);
    while (keys[hole] !== key) hole = (hole + 1) & mask;
    let index = hole;
    while (true) {
      index = (index + 1) & mask;
      const moving = keys[index]!;
      if (moving === 0) break;
      const home = this.home(moving);
      // Move the entry into the hole unless its home lies cyclically in (hole, index].
      const stays = hole <= index ? hole < home && home <= index : hole < home || home <= index;
      if (!stays) {
        keys[hole] = moving;
        values[hole] = values[index]!;
        hole = index;
      }
    }
    keys[hole] = 0;
    this.count--;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.count = 0;
    for (let index = 0; index < keys.length; index++) {
      if (keys[index] !== 0) this.insert(keys[index]!, values[index]!);
    }
  }
}

function growFloat(array: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(length);
  grown.set(array);
  return grown;
}

function growInt(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}

/** Builds the fast book. Same contract and behaviour as `createReferenceBook`. */
export function createOrderBook(limits: BookLimits): OrderBook {
  const priceSpanTicksMax = limits.priceSpanTicksMax ?? priceSpanTicksMaxDefault;
  const { levelsPerSideMax, ordersMax } = limits;
  assert(levelsPerSideMax > 0, "levelsPerSideMax must be positive");
  assert(ordersMax > 0, "ordersMax must be positive");
  assert(Number.isSafeInteger(priceSpanTicksMax) && priceSpanTicksMax > 0, "bad priceSpanTicksMax");
  const ladderWidthMax = powerOfTwoAtLeast(priceSpanTicksMax);

  // Order nodes: columns indexed by node number.
  let nodeCapacity = capacityInitial;
  let nodeOrderId = new Float64Array(nodeCapacity);
  let nodeOwnerId = new Float64Array(nodeCapacity);
  let nodeLots = new Float64Array(nodeCapacity);
  let nodeLevel = new Int32Array(nodeCapacity);
  let nodePrevious = new Int32Array(nodeCapacity);
  let nodeNext = new Int32Array(nodeCapacity);
  let nodeFree = none;
  let nodeHighWater = 1;
  const nodeByOrderId = new IdTable();
  let orderCount = 0;

  // Price levels: columns indexed by level number. A level with no orders is freed at once.
  let levelCapacity = 64;
  let levelPrice = new Float64Array(levelCapacity);
  let levelSide = new Uint8Array(levelCapacity);
  let levelHead = new Int32Array(levelCapacity);
  let levelTail = new Int32Array(levelCapacity);
  let levelLots = new Float64Array(levelCapacity);
  let levelOrders = new Int32Array(levelCapacity);
  let levelFree = none;
  let levelHighWater = 1;
  const levelsOnSide = [0, 0];

  // The ladder: slot `price - base` holds that price's level. At most one side rests at a price,
  // because the book is never left crossed.
  let ladderWidth = Math.min(ladderWidthInitial, powerOfTwoAtMost(priceSpanTicksMax));
  let base = 0;
  let slots = new Int32Array(ladderWidth);
  let bidBits = new Int32Array(ladderWidth >>> 5);
  let askBits = new Int32Array(ladderWidth >>> 5);
  /** Ladder offsets of the best bid and ask, -1 when that side is empty. */
  let bestBid = -1;
  let bestAsk = -1;

  function nodeAllocate(): number {
    if (nodeFree !== none) {
      const node = nodeFree;
      nodeFree = nodeNext[node]!;
      return node;
    }
    if (nodeHighWater === nodeCapacity) {
      nodeCapacity *= 2;
      nodeOrderId = growFloat(nodeOrderId, nodeCapacity);
      nodeOwnerId = growFloat(nodeOwnerId, nodeCapacity);
      nodeLots = growFloat(nodeLots, nodeCapacity);
      nodeLevel = growInt(nodeLevel, nodeCapacity);
      nodePrevious = growInt(nodePrevious, nodeCapacity);
      nodeNext = growInt(nodeNext, nodeCapacity);
    }
    return nodeHighWater++;
  }

  function nodeRelease(node: number): void {
    nodeLevel[node] = none;
    nodeNext[node] = nodeFree;
    nodeFree = node;
  }

  function levelAllocate(): number {
    if (levelFree !== none) {
      const level = levelFree;
      levelFree = levelHead[level]!;
      return level;
    }
    if (levelHighWater === levelCapacity) {
      levelCapacity *= 2;
      levelPrice = growFloat(levelPrice, levelCapacity);
      const sides = new Uint8Array(levelCapacity);
      sides.set(levelSide);
      levelSide = sides;
      levelHead = growInt(levelHead, levelCapacity);
      levelTail = growInt(levelTail, levelCapacity);
      levelLots = growFloat(levelLots, levelCapacity);
      levelOrders = growInt(levelOrders, levelCapacity);
    }
    return levelHighWater++;
  }

  /** Puts a new, empty level for `side` at ladder offset `offset` (which must be free). */
  function levelOpen(side: number, priceTicks: number, offset: number): number {
    const level = levelAllocate();
    levelPrice[level] = priceTicks;
    levelSide[level] = side;
    levelHead[level] = none;
    levelTail[level] = none;
    levelLots[level] = 0;
    levelOrders[level] = 0;
    slots[offset] = level;
    levelsOnSide[side]!++;
    if (side === buy) {
      bidBits[offset >>> 5]! |= 1 << (offset & 31);
      if (offset > bestBid) bestBid = offset;
    } else {
      askBits[offset >>> 5]! |= 1 << (offset & 31);
      if (bestAsk < 0 || offset < bestAsk) bestAsk = offset;
    }
    return level;
  }

  /** Removes an empty level from the ladder and finds the next best when it was the best. */
  function levelClose(level: number): void {
    const offset = levelPrice[level]! - base;
    slots[offset] = none;
    if (levelSide[level] === buy) {
      bidBits[offset >>> 5]! &= ~(1 << (offset & 31));
      levelsOnSide[buy]!--;
      if (offset === bestBid) bestBid = highestAtOrBelow(bidBits, offset - 1);
    } else {
      askBits[offset >>> 5]! &= ~(1 << (offset & 31));
      levelsOnSide[sell]!--;
      if (offset === bestAsk) bestAsk = lowestAtOrAbove(askBits, offset + 1);
    }
    levelOrders[level] = 0;
    levelHead[level] = levelFree;
    levelFree = level;
  }

  /** Takes a node out of its level's queue (the level stays, possibly empty). */
  function unlink(node: number): void {
    const level = nodeLevel[node]!;
    const previous = nodePrevious[node]!;
    const next = nodeNext[node]!;
    if (previous === none) levelHead[level] = next;
    else nodeNext[previous] = next;
    if (next === none) levelTail[level] = previous;
    else nodePrevious[next] = previous;
    levelOrders[level]!--;
    levelLots[level]! -= nodeLots[node]!;
  }

  /** Removes a resting order completely: queue, level if emptied, id table. */
  function remove(node: number): void {
    const level = nodeLevel[node]!;
    unlink(node);
    if (levelOrders[level] === 0) levelClose(level);
    nodeByOrderId.remove(nodeOrderId[node]!);
    orderCount--;
    nodeRelease(node);
  }

  /** Appends a node to the tail of a level's queue. */
  function append(level: number, node: number): void {
    const tail = levelTail[level]!;
    nodeLevel[node] = level;
    nodePrevious[node] = tail;
    nodeNext[node] = none;
    if (tail === none) levelHead[level] = node;
    else nodeNext[tail] = node;
    levelTail[level] = node;
    levelOrders[level]!++;
    levelLots[level]! += nodeLots[node]!;
  }

  /** Every live level, in table order (slow; for rare paths only). */
  function liveLevels(): number[] {
    const levels: number[] = [];
    for (let level = 1; level < levelHighWater; level++) {
      if (levelOrders[level]! > 0) levels.push(level);
    }
    return levels;
  }

  /** Moves and widens the ladder so that `priceTicks` and every live level fit. */
  function ladderRebuild(priceTicks: number): void {
    const levels = liveLevels();
    let low = priceTicks;
    let high = priceTicks;
    for (const level of levels) {
      low = Math.min(low, levelPrice[level]!);
      high = Math.max(high, levelPrice[level]!);
    }
    const span = high - low + 1;
    let width = ladderWidth;
    while (width < 2 * span && width < ladderWidthMax) width *= 2;
    assert(span <= width, "the span check keeps resting prices within the widest ladder");
    base = Math.max(0, low - Math.floor((width - span) / 2));
    if (width !== ladderWidth) {
      ladderWidth = width;
      slots = new Int32Array(width);
      bidBits = new Int32Array(width >>> 5);
      askBits = new Int32Array(width >>> 5);
    } else {
      slots.fill(0);
      bidBits.fill(0);
      askBits.fill(0);
    }
    bestBid = -1;
    bestAsk = -1;
    for (const level of levels) {
      const offset = levelPrice[level]! - base;
      slots[offset] = level;
      if (levelSide[level] === buy) {
        bidBits[offset >>> 5]! |= 1 << (offset & 31);
        if (offset > bestBid) bestBid = offset;
      } else {
        askBits[offset >>> 5]! |= 1 << (offset & 31);
        if (bestAsk < 0 || offset < bestAsk) bestAsk = offset;
      }
    }
  }

  /** The live level of `side` at `priceTicks`, or none. */
  function levelAt(side: number, priceTicks: number): number {
    const offset = priceTicks - base;
    if (offset < 0 || offset >= ladderWidth) return none;
    const level = slots[offset]!;
    return level !== none && levelSide[level] === side ? level : none;
  }

  /** True when an incoming order on `side` at `limitPriceTicks` would trade with the best. */
  function crossesBest(side: number, limitPriceTicks: number): boolean {
    if (side === buy) return bestAsk >= 0 && base + bestAsk <= limitPriceTicks;
    return bestBid >= 0 && base + bestBid >= limitPriceTicks;
  }

  function fillable(side: number, limitPriceTicks: number, ownerId: number, lotsWanted: number) {
    let lots = 0;
    let offset = side === buy ? bestAsk : bestBid;
    while (offset >= 0 && lots < lotsWanted) {
      const level = slots[offset]!;
      const priceTicks = levelPrice[level]!;
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      for (let node = levelHead[level]!; node !== none; node = nodeNext[node]!) {
        if (nodeOwnerId[node] !== ownerId) lots += nodeLots[node]!;
        if (lots >= lotsWanted) break;
      }
      offset =
        side === buy ? lowestAtOrAbove(askBits, offset + 1) : highestAtOrBelow(bidBits, offset - 1);
    }
    return Math.min(lots, lotsWanted);
  }

  /** Cheap test: could resting this order break a limit? False means it certainly cannot. */
  function mayBreakLimits(side: number, priceTicks: number): boolean {
    if (orderCount + 1 > ordersMax) return true;
    if (levelAt(side, priceTicks) !== none) return false;
    if (levelsOnSide[side]! >= levelsPerSideMax) return true;
    const offset = priceTicks - base;
    return offset < 0 || offset >= ladderWidth || ladderWidth > priceSpanTicksMax;
  }

  /**
   * Exact test, for an order that will rest: every crossing order on the other side leaves the
   * book first, so only the levels that do not cross remain there.
   */
  function breaksLimits(side: number, priceTicks: number): boolean {
    let ordersAfter = orderCount + 1;
    let low = priceTicks;
    let high = priceTicks;
    for (const level of liveLevels()) {
      const levelPriceTicks = levelPrice[level]!;
      const crossing =
        levelSide[level] !== side &&
        (side === buy ? levelPriceTicks <= priceTicks : levelPriceTicks >= priceTicks);
      if (crossing) {
        ordersAfter -= levelOrders[level]!;
        continue;
      }
      low = Math.min(low, levelPriceTicks);
      high = Math.max(high, levelPriceTicks);
    }
    if (ordersAfter > ordersMax) return true;
    if (levelAt(side, priceTicks) === none && levelsOnSide[side]! >= levelsPerSideMax) return true;
    return high - low + 1 > priceSpanTicksMax;
  }

  /** Trades an incoming order against the other side; returns the lots left unfilled. */
  function match(
    side: number,
    limitPriceTicks: number,
    ownerId: number,
    quantityLots: number,
    listener: BookListener,
  ): number {
    let remaining = quantityLots;
    let offset = side === buy ? bestAsk : bestBid;
    while (offset >= 0) {
      const level = slots[offset]!;
      const priceTicks = levelPrice[level]!;
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      let node = levelHead[level]!;
      while (node !== none) {
        const next = nodeNext[node]!;
        const makerLots = nodeLots[node]!;
        const makerOrderId = nodeOrderId[node]!;
        const makerOwnerId = nodeOwnerId[node]!;
        if (makerOwnerId === ownerId) {
          remove(node);
          listener.onSelfTradeCancel(makerOrderId, makerLots);
        } else {
          const lots = remaining < makerLots ? remaining : makerLots;
          const makerRemainingLots = makerLots - lots;
          remaining -= lots;
          if (makerRemainingLots === 0) {
            remove(node);
          } else {
            nodeLots[node] = makerRemainingLots;
            levelLots[level]! -= lots;
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
      offset = side === buy ? bestAsk : bestBid;
    }
    return remaining;
  }

  function rest(
    orderId: number,
    ownerId: number,
    side: number,
    priceTicks: number,
    lots: number,
  ): void {
    let offset = priceTicks - base;
    if (offset < 0 || offset >= ladderWidth) {
      ladderRebuild(priceTicks);
      offset = priceTicks - base;
    }
    let level = slots[offset]!;
    if (level === none) level = levelOpen(side, priceTicks, offset);
    const node = nodeAllocate();
    nodeOrderId[node] = orderId;
    nodeOwnerId[node] = ownerId;
    nodeLots[node] = lots;
    append(level, node);
    nodeByOrderId.insert(orderId, node);
    orderCount++;
  }

  function submit(order: BookOrderInput, listener: BookListener): SubmitResult {
    const { orderId, ownerId, priceTicks, quantityLots, timeInForce } = order;
    assert(Number.isSafeInteger(orderId) && orderId > 0, "orderId must be positive");
    assert(Number.isSafeInteger(ownerId) && ownerId > 0, "ownerId must be positive");
    assert(nodeByOrderId.get(orderId) === none, "orderId already resting");
    const side = order.side === "buy" ? buy : order.side === "sell" ? sell : -1;
    assert(side >= 0, "side must be buy or sell");
    return place(orderId, ownerId, side, priceTicks, quantityLots, timeInForce, listener);
  }

  /** Submits an order given as scalars (no input object), after the caller checked ids. */
  function place(
    orderId: number,
    ownerId: number,
    side: number,
    priceTicks: number,
    quantityLots: number,
    timeInForce: TimeInForce,
    listener: BookListener,
  ): SubmitResult {
    assert(Number.isSafeInteger(priceTicks) && priceTicks > 0, "price must be positive");
    assert(Number.isSafeInteger(quantityLots) && quantityLots > 0, "quantity must be positive");
    const crosses = crossesBest(side, priceTicks);
    if (timeInForce === "post_only" && crosses) {
      return { outcome: "rejected_post_only", filledLots: 0, restingLots: 0 };
    }
    let fillableLots = -1;
    if (timeInForce === "fok") {
      fillableLots = crosses ? fillable(side, priceTicks, ownerId, quantityLots) : 0;
      if (fillableLots < quantityLots) {
        return { outcome: "rejected_fok", filledLots: 0, restingLots: 0 };
      }
    }
    const rests = timeInForce === "gtc" || timeInForce === "post_only";
    if (rests && mayBreakLimits(side, priceTicks)) {
      if (fillableLots < 0) {
        fillableLots = crosses ? fillable(side, priceTicks, ownerId, quantityLots) : 0;
      }
      if (fillableLots < quantityLots && breaksLimits(side, priceTicks)) {
        return { outcome: "rejected_book_full", filledLots: 0, restingLots: 0 };
      }
    }

    const remaining = crosses
      ? match(side, priceTicks, ownerId, quantityLots, listener)
      : quantityLots;
    const filledLots = quantityLots - remaining;
    if (remaining === 0) return { outcome: "filled", filledLots, restingLots: 0 };
    if (!rests) return { outcome: "expired", filledLots, restingLots: 0 };
    rest(orderId, ownerId, side, priceTicks, remaining);
    return { outcome: "rested", filledLots, restingLots: remaining };
  }

  function view(node: number): RestingOrder {
    const level = nodeLevel[node]!;
    return {
      orderId: nodeOrderId[node]!,
      ownerId: nodeOwnerId[node]!,
      side: levelSide[level] === buy ? "buy" : "sell",
      priceTicks: levelPrice[level]!,
      remainingLots: nodeLots[node]!,
    };
  }

  function nextOffset(side: number, offset: number): number {
    return side === buy
      ? highestAtOrBelow(bidBits, offset - 1)
      : lowestAtOrAbove(askBits, offset + 1);
  }

  function sideNumber(side: Side): number {
    return side === "buy" ? buy : sell;
  }

  return {
    submit,

    cancel(orderId) {
      const node = nodeByOrderId.get(orderId);
      if (node === none) return undefined;
      const cancelled = view(node);
      remove(node);
      return cancelled;
    },

    replace(orderId: number, change: OrderChange, listener: BookListener) {
      const node = nodeByOrderId.get(orderId);
      if (node === none) return undefined;
      const level = nodeLevel[node]!;
      const previous = nodePrevious[node]!;
      const side = levelSide[level]!;
      const priceTicks = levelPrice[level]!;
      const ownerId = nodeOwnerId[node]!;
      // Take the order out (keeping its node), try the new one, and put the old one back in
      // its place when the new one is rejected: a rejection changes nothing, so the neighbours
      // and the ladder are as they were.
      unlink(node);
      const levelClosed = levelOrders[level] === 0;
      if (levelClosed) levelClose(level);
      nodeByOrderId.remove(orderId);
      orderCount--;
      const result = place(
        orderId,
        ownerId,
        side,
        change.priceTicks,
        change.quantityLots,
        change.timeInForce ?? "gtc",
        listener,
      );
      if (
        result.outcome === "rejected_book_full" ||
        result.outcome === "rejected_fok" ||
        result.outcome === "rejected_post_only"
      ) {
        if (levelClosed) {
          append(levelOpen(side, priceTicks, priceTicks - base), node);
        } else {
          const next = previous === none ? levelHead[level]! : nodeNext[previous]!;
          nodeLevel[node] = level;
          nodePrevious[node] = previous;
          nodeNext[node] = next;
          if (previous === none) levelHead[level] = node;
          else nodeNext[previous] = node;
          if (next === none) levelTail[level] = node;
          else nodePrevious[next] = node;
          levelOrders[level]!++;
          levelLots[level]! += nodeLots[node]!;
        }
        nodeByOrderId.insert(orderId, node);
        orderCount++;
      } else {
        nodeRelease(node);
      }
      return result;
    },

    get(orderId) {
      const node = nodeByOrderId.get(orderId);
      return node === none ? undefined : view(node);
    },

    fillableLots(side, limitPriceTicks, ownerId, lotsWanted) {
      return fillable(sideNumber(side), limitPriceTicks, ownerId, lotsWanted);
    },

    walk(side, ownerId, visit) {
      const other = sideNumber(side) === buy ? sell : buy;
      let offset = other === buy ? bestBid : bestAsk;
      while (offset >= 0) {
        const level = slots[offset]!;
        let lots = levelLots[level]!;
        for (let node = levelHead[level]!; node !== none; node = nodeNext[node]!) {
          if (nodeOwnerId[node] === ownerId) lots -= nodeLots[node]!;
        }
        if (lots > 0 && !visit(levelPrice[level]!, lots)) return;
        offset = nextOffset(other, offset);
      }
    },

    bestPrice(side) {
      const offset = side === "buy" ? bestBid : bestAsk;
      return offset >= 0 ? base + offset : undefined;
    },

    depth(side, levelsMax) {
      const sideIndex = sideNumber(side);
      const levels: DepthLevel[] = [];
      let offset = sideIndex === buy ? bestBid : bestAsk;
      while (offset >= 0 && levels.length < levelsMax) {
        const level = slots[offset]!;
        levels.push({
          priceTicks: levelPrice[level]!,
          quantityLots: levelLots[level]!,
          orderCount: levelOrders[level]!,
        });
        offset = nextOffset(sideIndex, offset);
      }
      return levels;
    },

    *orders() {
      for (const sideIndex of [buy, sell]) {
        let offset = sideIndex === buy ? bestBid : bestAsk;
        while (offset >= 0) {
          const level = slots[offset]!;
          for (let node = levelHead[level]!; node !== none; node = nodeNext[node]!) {
            yield view(node);
          }
          offset = nextOffset(sideIndex, offset);
        }
      }
    },

    get orderCount() {
      return orderCount;
    },

    levelCount(side) {
      return levelsOnSide[sideNumber(side)]!;
    },
  };
}
