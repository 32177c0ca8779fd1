"use strict";

// ../../work/wt/w4/packages/kernel/bench/book-streams.ts
var import_nodejs_order_book = require("nodejs-order-book");

// ../../work/wt/w4/packages/kernel/src/book/types.ts
var priceSpanTicksMaxDefault = 1 << 20;

// ../../work/wt/w4/packages/kernel/src/assert.ts
var AssertionError = class extends Error {
  name = "AssertionError";
};
function assert(condition, message = "assertion failed") {
  if (!condition) throw new AssertionError(message);
}

// ../../work/wt/w4/packages/kernel/src/book/bits.ts
function powerOfTwoAtLeast(value) {
  let power = 32;
  while (power < value) power *= 2;
  return power;
}
function powerOfTwoAtMost(value) {
  let power = 32;
  while (power * 2 <= value) power *= 2;
  return power;
}
function highestAtOrBelow(bits, index) {
  if (index < 0) return -1;
  let wordIndex = index >>> 5;
  let word = bits[wordIndex] & 4294967295 >>> 31 - (index & 31);
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word);
    if (--wordIndex < 0) return -1;
    word = bits[wordIndex];
  }
}
function lowestAtOrAbove(bits, index) {
  let wordIndex = index >>> 5;
  if (wordIndex >= bits.length) return -1;
  let word = bits[wordIndex] & 4294967295 << (index & 31);
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word & -word);
    if (++wordIndex >= bits.length) return -1;
    word = bits[wordIndex];
  }
}

// ../../work/wt/w4/packages/kernel/src/book/id-table.ts
var IdTable = class {
  keys = new Float64Array(1024);
  values = new Int32Array(1024);
  mask = 1023;
  count = 0;
  home(key) {
    const mixed = (key | 0) ^ (key / 4294967296 | 0);
    return Math.imul(mixed, 2654435761) >>> 0 & this.mask;
  }
  /** The node for `key`, or 0. */
  get(key) {
    const keys = this.keys;
    let index = this.home(key);
    while (true) {
      const found = keys[index];
      if (found === key) return this.values[index];
      if (found === 0) return 0;
      index = index + 1 & this.mask;
    }
  }
  /** Adds a key that is not present. */
  insert(key, value) {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let index = this.home(key);
    while (keys[index] !== 0) index = index + 1 & this.mask;
    keys[index] = key;
    this.values[index] = value;
    this.count++;
  }
  /** Removes a key that is present, shifting later entries of its probe run back. */
  remove(key) {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let hole = this.home(key);
    while (keys[hole] !== key) hole = hole + 1 & mask;
    let index = hole;
    while (true) {
      index = index + 1 & mask;
      const moving = keys[index];
      if (moving === 0) break;
      const home = this.home(moving);
      const stays = hole <= index ? hole < home && home <= index : hole < home || home <= index;
      if (!stays) {
        keys[hole] = moving;
        values[hole] = values[index];
        hole = index;
      }
    }
    keys[hole] = 0;
    this.count--;
  }
  grow() {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.count = 0;
    for (let index = 0; index < keys.length; index++) {
      if (keys[index] !== 0) this.insert(keys[index], values[index]);
    }
  }
};
function growFloat(array, length) {
  const grown = new Float64Array(length);
  grown.set(array);
  return grown;
}
function growInt(array, length) {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}

// ../../work/wt/w4/packages/kernel/src/book/book-store.ts
var buy = 0;
var sell = 1;
var none = 0;
var ladderWidthInitial = 1024;
var capacityInitial = 256;
var BookStore = class {
  priceSpanTicksMax;
  levelsPerSideMax;
  ordersMax;
  ladderWidthMax;
  // Order nodes: columns indexed by node number.
  nodeCapacity = capacityInitial;
  nodeOrderId = new Float64Array(capacityInitial);
  nodeOwnerId = new Float64Array(capacityInitial);
  nodeLots = new Float64Array(capacityInitial);
  nodeLevel = new Int32Array(capacityInitial);
  nodePrevious = new Int32Array(capacityInitial);
  nodeNext = new Int32Array(capacityInitial);
  nodeFree = none;
  nodeHighWater = 1;
  nodeByOrderId = new IdTable();
  restingCount = 0;
  // Price levels: columns indexed by level number. A level with no orders is freed at once.
  levelCapacity = 64;
  levelPrice = new Float64Array(64);
  levelSide = new Uint8Array(64);
  levelHead = new Int32Array(64);
  levelTail = new Int32Array(64);
  levelLots = new Float64Array(64);
  levelOrders = new Int32Array(64);
  levelFree = none;
  levelHighWater = 1;
  levelsOnSide = [0, 0];
  // The ladder: slot `price - base` holds that price's level. At most one side rests at a price,
  // because the book is never left crossed.
  ladderWidth;
  base = 0;
  slots;
  bidBits;
  askBits;
  /** Ladder offsets of the best bid and ask, -1 when that side is empty. */
  bestBid = -1;
  bestAsk = -1;
  constructor(limits) {
    const priceSpanTicksMax = limits.priceSpanTicksMax ?? priceSpanTicksMaxDefault;
    assert(limits.levelsPerSideMax > 0, "levelsPerSideMax must be positive");
    assert(limits.ordersMax > 0, "ordersMax must be positive");
    assert(
      Number.isSafeInteger(priceSpanTicksMax) && priceSpanTicksMax > 0,
      "bad priceSpanTicksMax"
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
  nodeAllocate() {
    if (this.nodeFree !== none) {
      const node = this.nodeFree;
      this.nodeFree = this.nodeNext[node];
      return node;
    }
    if (this.nodeHighWater === this.nodeCapacity) {
      const capacity = this.nodeCapacity *= 2;
      this.nodeOrderId = growFloat(this.nodeOrderId, capacity);
      this.nodeOwnerId = growFloat(this.nodeOwnerId, capacity);
      this.nodeLots = growFloat(this.nodeLots, capacity);
      this.nodeLevel = growInt(this.nodeLevel, capacity);
      this.nodePrevious = growInt(this.nodePrevious, capacity);
      this.nodeNext = growInt(this.nodeNext, capacity);
    }
    return this.nodeHighWater++;
  }
  nodeRelease(node) {
    this.nodeLevel[node] = none;
    this.nodeNext[node] = this.nodeFree;
    this.nodeFree = node;
  }
  levelAllocate() {
    if (this.levelFree !== none) {
      const level = this.levelFree;
      this.levelFree = this.levelHead[level];
      return level;
    }
    if (this.levelHighWater === this.levelCapacity) {
      const capacity = this.levelCapacity *= 2;
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
  levelOpen(side, priceTicks, offset) {
    const level = this.levelAllocate();
    this.levelPrice[level] = priceTicks;
    this.levelSide[level] = side;
    this.levelHead[level] = none;
    this.levelTail[level] = none;
    this.levelLots[level] = 0;
    this.levelOrders[level] = 0;
    this.slots[offset] = level;
    this.levelsOnSide[side]++;
    if (side === buy) {
      this.bidBits[offset >>> 5] |= 1 << (offset & 31);
      if (offset > this.bestBid) this.bestBid = offset;
    } else {
      this.askBits[offset >>> 5] |= 1 << (offset & 31);
      if (this.bestAsk < 0 || offset < this.bestAsk) this.bestAsk = offset;
    }
    return level;
  }
  /** Removes an empty level from the ladder and finds the next best when it was the best. */
  levelClose(level) {
    const offset = this.levelPrice[level] - this.base;
    this.slots[offset] = none;
    if (this.levelSide[level] === buy) {
      this.bidBits[offset >>> 5] &= ~(1 << (offset & 31));
      this.levelsOnSide[buy]--;
      if (offset === this.bestBid) this.bestBid = highestAtOrBelow(this.bidBits, offset - 1);
    } else {
      this.askBits[offset >>> 5] &= ~(1 << (offset & 31));
      this.levelsOnSide[sell]--;
      if (offset === this.bestAsk) this.bestAsk = lowestAtOrAbove(this.askBits, offset + 1);
    }
    this.levelOrders[level] = 0;
    this.levelHead[level] = this.levelFree;
    this.levelFree = level;
  }
  /** Takes a node out of its level's queue (the level stays, possibly empty). */
  unlink(node) {
    const level = this.nodeLevel[node];
    const previous = this.nodePrevious[node];
    const next = this.nodeNext[node];
    if (previous === none) this.levelHead[level] = next;
    else this.nodeNext[previous] = next;
    if (next === none) this.levelTail[level] = previous;
    else this.nodePrevious[next] = previous;
    this.levelOrders[level]--;
    this.levelLots[level] -= this.nodeLots[node];
  }
  /** Removes a resting order completely: queue, level if emptied, id table. */
  remove(node) {
    const level = this.nodeLevel[node];
    this.unlink(node);
    if (this.levelOrders[level] === 0) this.levelClose(level);
    this.nodeByOrderId.remove(this.nodeOrderId[node]);
    this.restingCount--;
    this.nodeRelease(node);
  }
  /** Appends a node to the tail of a level's queue. */
  append(level, node) {
    const tail = this.levelTail[level];
    this.nodeLevel[node] = level;
    this.nodePrevious[node] = tail;
    this.nodeNext[node] = none;
    if (tail === none) this.levelHead[level] = node;
    else this.nodeNext[tail] = node;
    this.levelTail[level] = node;
    this.levelOrders[level]++;
    this.levelLots[level] += this.nodeLots[node];
  }
  /** Every live level, in table order (slow; for rare paths only). */
  liveLevels() {
    const levels = [];
    for (let level = 1; level < this.levelHighWater; level++) {
      if (this.levelOrders[level] > 0) levels.push(level);
    }
    return levels;
  }
  /** Moves and widens the ladder so that `priceTicks` and every live level fit. */
  ladderRebuild(priceTicks) {
    const levels = this.liveLevels();
    let low = priceTicks;
    let high = priceTicks;
    for (const level of levels) {
      low = Math.min(low, this.levelPrice[level]);
      high = Math.max(high, this.levelPrice[level]);
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
      const offset = this.levelPrice[level] - this.base;
      this.slots[offset] = level;
      if (this.levelSide[level] === buy) {
        this.bidBits[offset >>> 5] |= 1 << (offset & 31);
        if (offset > this.bestBid) this.bestBid = offset;
      } else {
        this.askBits[offset >>> 5] |= 1 << (offset & 31);
        if (this.bestAsk < 0 || offset < this.bestAsk) this.bestAsk = offset;
      }
    }
  }
  /** The live level of `side` at `priceTicks`, or none. */
  levelAt(side, priceTicks) {
    const offset = priceTicks - this.base;
    if (offset < 0 || offset >= this.ladderWidth) return none;
    const level = this.slots[offset];
    return level !== none && this.levelSide[level] === side ? level : none;
  }
  /** The next level's offset after `offset` on `side`, going away from the best; or -1. */
  nextOffset(side, offset) {
    return side === buy ? highestAtOrBelow(this.bidBits, offset - 1) : lowestAtOrAbove(this.askBits, offset + 1);
  }
  view(node) {
    const level = this.nodeLevel[node];
    return {
      orderId: this.nodeOrderId[node],
      ownerId: this.nodeOwnerId[node],
      side: this.levelSide[level] === buy ? "buy" : "sell",
      priceTicks: this.levelPrice[level],
      remainingLots: this.nodeLots[node]
    };
  }
};

// ../../work/wt/w4/packages/kernel/src/book/order-book.ts
function sideNumber(side) {
  return side === "buy" ? buy : sell;
}
var FastBook = class extends BookStore {
  /** True when an incoming order on `side` at `limitPriceTicks` would trade with the best. */
  crossesBest(side, limitPriceTicks) {
    if (side === buy) return this.bestAsk >= 0 && this.base + this.bestAsk <= limitPriceTicks;
    return this.bestBid >= 0 && this.base + this.bestBid >= limitPriceTicks;
  }
  fillable(side, limitPriceTicks, ownerId, lotsWanted) {
    let lots = 0;
    let offset = side === buy ? this.bestAsk : this.bestBid;
    while (offset >= 0 && lots < lotsWanted) {
      const level = this.slots[offset];
      const priceTicks = this.levelPrice[level];
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      for (let node = this.levelHead[level]; node !== none; node = this.nodeNext[node]) {
        if (this.nodeOwnerId[node] !== ownerId) lots += this.nodeLots[node];
        if (lots >= lotsWanted) break;
      }
      offset = side === buy ? lowestAtOrAbove(this.askBits, offset + 1) : highestAtOrBelow(this.bidBits, offset - 1);
    }
    return Math.min(lots, lotsWanted);
  }
  /** Cheap test: could resting this order break a limit? False means it certainly cannot. */
  mayBreakLimits(side, priceTicks) {
    if (this.restingCount + 1 > this.ordersMax) return true;
    if (this.levelAt(side, priceTicks) !== none) return false;
    if (this.levelsOnSide[side] >= this.levelsPerSideMax) return true;
    const offset = priceTicks - this.base;
    return offset < 0 || offset >= this.ladderWidth || this.ladderWidth > this.priceSpanTicksMax;
  }
  /**
   * Exact test, for an order that will rest: every crossing order on the other side leaves the
   * book first, so only the levels that do not cross remain there.
   */
  breaksLimits(side, priceTicks) {
    let ordersAfter = this.restingCount + 1;
    let low = priceTicks;
    let high = priceTicks;
    for (const level of this.liveLevels()) {
      const levelPriceTicks = this.levelPrice[level];
      const crossing = this.levelSide[level] !== side && (side === buy ? levelPriceTicks <= priceTicks : levelPriceTicks >= priceTicks);
      if (crossing) {
        ordersAfter -= this.levelOrders[level];
        continue;
      }
      low = Math.min(low, levelPriceTicks);
      high = Math.max(high, levelPriceTicks);
    }
    if (ordersAfter > this.ordersMax) return true;
    if (this.levelAt(side, priceTicks) === none && this.levelsOnSide[side] >= this.levelsPerSideMax) {
      return true;
    }
    return high - low + 1 > this.priceSpanTicksMax;
  }
  /** Trades an incoming order against the other side; returns the lots left unfilled. */
  match(side, limitPriceTicks, ownerId, quantityLots, listener) {
    let remaining = quantityLots;
    let offset = side === buy ? this.bestAsk : this.bestBid;
    while (offset >= 0) {
      const level = this.slots[offset];
      const priceTicks = this.levelPrice[level];
      if (side === buy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks) break;
      let node = this.levelHead[level];
      while (node !== none) {
        const next = this.nodeNext[node];
        const makerLots = this.nodeLots[node];
        const makerOrderId = this.nodeOrderId[node];
        const makerOwnerId = this.nodeOwnerId[node];
        if (makerOwnerId === ownerId) {
          this.remove(node);
          listener.onSelfTradeCancel(makerOrderId, makerLots);
        } else {
          const lots = remaining < makerLots ? remaining : makerLots;
          const makerRemainingLots = makerLots - lots;
          remaining -= lots;
          if (makerRemainingLots === 0) {
            this.remove(node);
          } else {
            this.nodeLots[node] = makerRemainingLots;
            this.levelLots[level] -= lots;
          }
          listener.onFill({
            makerOrderId,
            makerOwnerId,
            priceTicks,
            quantityLots: lots,
            makerRemainingLots
          });
          if (remaining === 0) return 0;
        }
        node = next;
      }
      offset = side === buy ? this.bestAsk : this.bestBid;
    }
    return remaining;
  }
  rest(orderId, ownerId, side, priceTicks, lots) {
    let offset = priceTicks - this.base;
    if (offset < 0 || offset >= this.ladderWidth) {
      this.ladderRebuild(priceTicks);
      offset = priceTicks - this.base;
    }
    let level = this.slots[offset];
    if (level === none) level = this.levelOpen(side, priceTicks, offset);
    const node = this.nodeAllocate();
    this.nodeOrderId[node] = orderId;
    this.nodeOwnerId[node] = ownerId;
    this.nodeLots[node] = lots;
    this.append(level, node);
    this.nodeByOrderId.insert(orderId, node);
    this.restingCount++;
  }
  submit(order, listener) {
    const { orderId, ownerId, priceTicks, quantityLots, timeInForce } = order;
    assert(Number.isSafeInteger(orderId) && orderId > 0, "orderId must be positive");
    assert(Number.isSafeInteger(ownerId) && ownerId > 0, "ownerId must be positive");
    assert(this.nodeByOrderId.get(orderId) === none, "orderId already resting");
    const side = order.side === "buy" ? buy : order.side === "sell" ? sell : -1;
    assert(side >= 0, "side must be buy or sell");
    return this.place(orderId, ownerId, side, priceTicks, quantityLots, timeInForce, listener);
  }
  /** Submits an order given as scalars (no input object), after the caller checked ids. */
  place(orderId, ownerId, side, priceTicks, quantityLots, timeInForce, listener) {
    assert(Number.isSafeInteger(priceTicks) && priceTicks > 0, "price must be positive");
    assert(Number.isSafeInteger(quantityLots) && quantityLots > 0, "quantity must be positive");
    const crosses = this.crossesBest(side, priceTicks);
    if (timeInForce === "post_only" && crosses) {
      return { outcome: "rejected_post_only", filledLots: 0, restingLots: 0 };
    }
    let fillableLots = -1;
    if (timeInForce === "fok") {
      fillableLots = crosses ? this.fillable(side, priceTicks, ownerId, quantityLots) : 0;
      if (fillableLots < quantityLots) {
        return { outcome: "rejected_fok", filledLots: 0, restingLots: 0 };
      }
    }
    const rests = timeInForce === "gtc" || timeInForce === "post_only";
    if (rests && this.mayBreakLimits(side, priceTicks)) {
      if (fillableLots < 0) {
        fillableLots = crosses ? this.fillable(side, priceTicks, ownerId, quantityLots) : 0;
      }
      if (fillableLots < quantityLots && this.breaksLimits(side, priceTicks)) {
        return { outcome: "rejected_book_full", filledLots: 0, restingLots: 0 };
      }
    }
    const remaining = crosses ? this.match(side, priceTicks, ownerId, quantityLots, listener) : quantityLots;
    const filledLots = quantityLots - remaining;
    if (remaining === 0) return { outcome: "filled", filledLots, restingLots: 0 };
    if (!rests) return { outcome: "expired", filledLots, restingLots: 0 };
    this.rest(orderId, ownerId, side, priceTicks, remaining);
    return { outcome: "rested", filledLots, restingLots: remaining };
  }
  cancel(orderId) {
    const node = this.nodeByOrderId.get(orderId);
    if (node === none) return void 0;
    const cancelled = this.view(node);
    this.remove(node);
    return cancelled;
  }
  replace(orderId, change, listener) {
    const node = this.nodeByOrderId.get(orderId);
    if (node === none) return void 0;
    const level = this.nodeLevel[node];
    const previous = this.nodePrevious[node];
    const side = this.levelSide[level];
    const priceTicks = this.levelPrice[level];
    const ownerId = this.nodeOwnerId[node];
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
      listener
    );
    if (result.outcome === "rejected_book_full" || result.outcome === "rejected_fok" || result.outcome === "rejected_post_only") {
      if (levelClosed) {
        this.append(this.levelOpen(side, priceTicks, priceTicks - this.base), node);
      } else {
        const next = previous === none ? this.levelHead[level] : this.nodeNext[previous];
        this.nodeLevel[node] = level;
        this.nodePrevious[node] = previous;
        this.nodeNext[node] = next;
        if (previous === none) this.levelHead[level] = node;
        else this.nodeNext[previous] = node;
        if (next === none) this.levelTail[level] = node;
        else this.nodePrevious[next] = node;
        this.levelOrders[level]++;
        this.levelLots[level] += this.nodeLots[node];
      }
      this.nodeByOrderId.insert(orderId, node);
      this.restingCount++;
    } else {
      this.nodeRelease(node);
    }
    return result;
  }
  get(orderId) {
    const node = this.nodeByOrderId.get(orderId);
    return node === none ? void 0 : this.view(node);
  }
  fillableLots(side, limitPriceTicks, ownerId, lotsWanted) {
    return this.fillable(sideNumber(side), limitPriceTicks, ownerId, lotsWanted);
  }
  walk(side, ownerId, visit) {
    const other = sideNumber(side) === buy ? sell : buy;
    let offset = other === buy ? this.bestBid : this.bestAsk;
    while (offset >= 0) {
      const level = this.slots[offset];
      let lots = this.levelLots[level];
      for (let node = this.levelHead[level]; node !== none; node = this.nodeNext[node]) {
        if (this.nodeOwnerId[node] === ownerId) lots -= this.nodeLots[node];
      }
      if (lots > 0 && !visit(this.levelPrice[level], lots)) return;
      offset = this.nextOffset(other, offset);
    }
  }
  bestPrice(side) {
    const offset = side === "buy" ? this.bestBid : this.bestAsk;
    return offset >= 0 ? this.base + offset : void 0;
  }
  depth(side, levelsMax) {
    const sideIndex = sideNumber(side);
    const levels = [];
    let offset = sideIndex === buy ? this.bestBid : this.bestAsk;
    while (offset >= 0 && levels.length < levelsMax) {
      const level = this.slots[offset];
      levels.push({
        priceTicks: this.levelPrice[level],
        quantityLots: this.levelLots[level],
        orderCount: this.levelOrders[level]
      });
      offset = this.nextOffset(sideIndex, offset);
    }
    return levels;
  }
  *orders() {
    for (const sideIndex of [buy, sell]) {
      let offset = sideIndex === buy ? this.bestBid : this.bestAsk;
      while (offset >= 0) {
        const level = this.slots[offset];
        for (let node = this.levelHead[level]; node !== none; node = this.nodeNext[node]) {
          yield this.view(node);
        }
        offset = this.nextOffset(sideIndex, offset);
      }
    }
  }
  get orderCount() {
    return this.restingCount;
  }
  levelCount(side) {
    return this.levelsOnSide[sideNumber(side)];
  }
};
function createOrderBook(limits) {
  return new FastBook(limits);
}

// ../../work/wt/w4/packages/kernel/bench/book-streams.ts
var verbose = process.env.BENCH_VERBOSE === "1";
var centerPriceTicks = 1e5;
var marketBuyPriceTicks = 1e6;
var kindGtc = 0;
var kindIoc = 1;
var kindMarket = 2;
var kindCancel = 3;
var kindMove = 4;
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = state + 1831565813 >>> 0;
    let t = state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function generate(shape) {
  const next = random(shape.seed);
  const integer = (low, high) => low + Math.floor(next() * (high - low + 1));
  const capacity = shape.operations + shape.restingTarget;
  const stream2 = {
    length: 0,
    preloadCount: 0,
    kind: new Uint8Array(capacity),
    orderId: new Float64Array(capacity),
    ownerId: new Float64Array(capacity),
    side: new Uint8Array(capacity),
    priceTicks: new Float64Array(capacity),
    quantityLots: new Float64Array(capacity),
    peerIds: [""]
  };
  const book = createOrderBook({ levelsPerSideMax: 1e5, ordersMax: 1e7 });
  const live = [];
  const livePosition = /* @__PURE__ */ new Map();
  const liveSide = /* @__PURE__ */ new Map();
  const liveOwner = /* @__PURE__ */ new Map();
  const livePrice = /* @__PURE__ */ new Map();
  function liveRemove(orderId) {
    const position = livePosition.get(orderId);
    if (position === void 0) return;
    const last = live.pop();
    if (last !== orderId) {
      live[position] = last;
      livePosition.set(last, position);
    }
    livePosition.delete(orderId);
  }
  function liveAdd(orderId, side, priceTicks, ownerId) {
    liveOwner.set(orderId, ownerId);
    livePosition.set(orderId, live.length);
    live.push(orderId);
    liveSide.set(orderId, side);
    livePrice.set(orderId, priceTicks);
  }
  const listener = {
    onFill(fill) {
      if (fill.makerRemainingLots === 0) liveRemove(fill.makerOrderId);
    },
    onSelfTradeCancel(orderId) {
      liveRemove(orderId);
    }
  };
  let orderIdNext = 1;
  function passivePrice(side, near) {
    const bestBid = book.bestPrice("buy");
    const bestAsk = book.bestPrice("sell");
    if (side === 0) {
      let price2 = near === void 0 ? centerPriceTicks - integer(1, shape.levelsPerSide) : near;
      price2 = Math.max(price2, centerPriceTicks - shape.levelsPerSide);
      if (bestAsk !== void 0) price2 = Math.min(price2, bestAsk - 1);
      return Math.min(price2, centerPriceTicks - 1 + shape.levelsPerSide);
    }
    let price = near === void 0 ? centerPriceTicks + integer(0, shape.levelsPerSide - 1) : near;
    price = Math.min(price, centerPriceTicks + shape.levelsPerSide - 1);
    if (bestBid !== void 0) price = Math.max(price, bestBid + 1);
    return Math.max(price, centerPriceTicks - shape.levelsPerSide);
  }
  function aggressivePrice(side) {
    const best2 = book.bestPrice(side === 0 ? "sell" : "buy");
    if (best2 === void 0) return void 0;
    return side === 0 ? best2 + integer(0, 2) : best2 - integer(0, 2);
  }
  function push2(kind, orderId, side, priceTicks, quantityLots) {
    const index = stream2.length++;
    stream2.kind[index] = kind;
    stream2.orderId[index] = orderId;
    stream2.ownerId[index] = liveOwner.get(orderId) ?? integer(1, shape.owners);
    stream2.side[index] = side;
    stream2.priceTicks[index] = priceTicks;
    stream2.quantityLots[index] = quantityLots;
    const ownerId = stream2.ownerId[index];
    const sideName = side === 0 ? "buy" : "sell";
    switch (kind) {
      case kindGtc:
      case kindIoc:
      case kindMarket: {
        const result = book.submit(
          {
            orderId,
            ownerId,
            side: sideName,
            priceTicks,
            quantityLots,
            timeInForce: kind === kindGtc ? "gtc" : "ioc"
          },
          listener
        );
        if (result.outcome === "rested") liveAdd(orderId, side, priceTicks, ownerId);
        break;
      }
      case kindCancel:
        book.cancel(orderId);
        liveRemove(orderId);
        break;
      case kindMove: {
        liveRemove(orderId);
        const result = book.replace(orderId, { priceTicks, quantityLots }, listener);
        if (result?.outcome === "rested") liveAdd(orderId, side, priceTicks, ownerId);
        break;
      }
    }
  }
  function newOrder(kind, side, priceTicks, quantityLots) {
    const orderId = orderIdNext++;
    stream2.peerIds.push(String(orderId));
    push2(kind, orderId, side, priceTicks, quantityLots ?? integer(1, shape.quantityMax));
  }
  while (live.length < shape.restingTarget) {
    const side = integer(0, 1);
    newOrder(kindGtc, side, passivePrice(side));
  }
  stream2.preloadCount = stream2.length;
  const stats = { aggressive: 0, levels: 0, resting: 0 };
  for (let operation = 0; operation < shape.operations; operation++) {
    const roll = next() * 100;
    const side = integer(0, 1);
    const crowded = live.length > shape.restingTarget;
    if (roll < 9 || live.length === 0) {
      const aggressive = crowded && next() < 0.5;
      const price = aggressive ? aggressivePrice(side) : void 0;
      if (price !== void 0) stats.aggressive++;
      newOrder(kindGtc, side, price ?? passivePrice(side));
    } else if (roll < 12) {
      const quantityLots = integer(1, crowded ? shape.quantityMax : 10);
      if (next() < 0.5) {
        newOrder(kindIoc, side, aggressivePrice(side) ?? passivePrice(side), quantityLots);
      } else {
        newOrder(kindMarket, side, side === 0 ? marketBuyPriceTicks : 1, quantityLots);
      }
    } else if (roll < 18) {
      const orderId = live[integer(0, live.length - 1)];
      push2(kindCancel, orderId, liveSide.get(orderId), 0, 0);
    } else {
      const orderId = live[integer(0, live.length - 1)];
      const orderSide = liveSide.get(orderId);
      const aggressive = crowded && next() < 0.1;
      let price = aggressive ? aggressivePrice(orderSide) : void 0;
      if (price === void 0) {
        price = passivePrice(orderSide, livePrice.get(orderId) + integer(-10, 10));
      }
      push2(kindMove, orderId, orderSide, price, integer(1, shape.quantityMax));
    }
    if (operation % 1e3 === 0) {
      stats.levels += book.levelCount("buy") + book.levelCount("sell");
      stats.resting += book.orderCount;
    }
  }
  if (verbose) {
    const samples = Math.ceil(shape.operations / 1e3);
    console.error(
      JSON.stringify({
        seed: shape.seed,
        operations: shape.operations,
        restingMean: Math.round(stats.resting / samples),
        levelsMean: Math.round(stats.levels / samples),
        aggressive: stats.aggressive
      })
    );
  }
  return stream2;
}
var wallClock = process.env.BENCH_CLOCK === "wall";

// ../../work/wt/w4/packages/kernel/src/types.ts
var systemOwners = {
  fees: "system:fees",
  treasury: "system:treasury",
  marketMaker: "system:market_maker",
  house: "system:house",
  insuranceFund: "system:insurance_fund",
  demoFaucet: "system:demo_faucet",
  external: "system:external"
};

// ../../work/wt/w4/packages/kernel/src/ledger/state.ts
function accountKey(ownerId, mode, wallet, assetId) {
  return ownerId + "|" + mode + "|" + wallet + "|" + assetId;
}
function ownerKey(mode, ownerId) {
  return mode + "|" + ownerId;
}
function createLedgerState() {
  return {
    owners: /* @__PURE__ */ new Map(),
    ownersReal: /* @__PURE__ */ new Map(),
    ownersDemo: /* @__PURE__ */ new Map(),
    ownerIndexNext: 1,
    accounts: /* @__PURE__ */ new Map(),
    postingSeqLast: 0,
    touched: [],
    touchedCount: 0
  };
}

// ../../work/wt/w4/packages/kernel/src/ledger/accounts.ts
var OWNER_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
function validOwnerId(ownerId) {
  return OWNER_PATTERN.test(ownerId);
}
function openOwner(state, ownerId, mode) {
  const ledger = state.ledger;
  const key = ownerKey(mode, ownerId);
  assert(!ledger.owners.has(key), "owner already open");
  const owner = {
    key,
    ownerId,
    mode,
    index: ledger.ownerIndexNext++,
    system: ownerId.startsWith("system:"),
    accounts: /* @__PURE__ */ new Map(),
    fund: /* @__PURE__ */ new Map()
  };
  ledger.owners.set(key, owner);
  (mode === "real" ? ledger.ownersReal : ledger.ownersDemo).set(ownerId, owner);
  return owner;
}
function openSystemOwners(state) {
  for (const mode of ["real", "demo"]) {
    for (const ownerId of Object.values(systemOwners)) {
      if (ownerId === systemOwners.external && mode === "demo") continue;
      if (ownerId === systemOwners.demoFaucet && mode === "real") continue;
      openOwner(state, ownerId, mode);
    }
  }
}
function ownerOf(state, mode, ownerId) {
  return (mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo).get(ownerId);
}
function systemOwner(state, mode, ownerId) {
  const owner = ownerOf(state, mode, ownerId);
  assert(owner !== void 0, "system owners always exist");
  return owner;
}
function findOwner(state, ownerId, mode) {
  const owner = ownerOf(state, mode, ownerId);
  if (owner !== void 0) return owner;
  if (!OWNER_PATTERN.test(ownerId) && !ownerId.startsWith("system:")) return "owner_id_invalid";
  return "account_not_found";
}
function accountOf(state, owner, wallet, assetId) {
  if (wallet === "fund") {
    const fund = owner.fund.get(assetId);
    if (fund !== void 0) return fund;
  }
  const walletAsset = wallet + "|" + assetId;
  let account = owner.accounts.get(walletAsset);
  if (account === void 0) {
    const key = accountKey(owner.ownerId, owner.mode, wallet, assetId);
    account = {
      key,
      ownerId: owner.ownerId,
      mode: owner.mode,
      wallet,
      assetId,
      available: 0n,
      held: 0n,
      negativeAllowed: owner.ownerId === systemOwners.external || owner.ownerId === systemOwners.demoFaucet,
      postings: [],
      touchedSerial: 0,
      heldExpected: 0n
    };
    owner.accounts.set(walletAsset, account);
    if (wallet === "fund") owner.fund.set(assetId, account);
    state.ledger.accounts.set(key, account);
  }
  return account;
}
function availableOf(owner, wallet, assetId) {
  if (wallet === "fund") return owner.fund.get(assetId)?.available ?? 0n;
  return owner.accounts.get(wallet + "|" + assetId)?.available ?? 0n;
}
function balanceView(account) {
  return {
    account: account.key,
    ownerId: account.ownerId,
    mode: account.mode,
    wallet: account.wallet,
    assetId: account.assetId,
    available: account.available,
    held: account.held
  };
}
function compareStrings(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ../../work/wt/w4/packages/kernel/src/events.ts
function emit(state, event) {
  state.events[state.eventCount++] = event;
}
function emittedEvents(state) {
  const e = state.events;
  switch (state.eventCount) {
    case 1:
      return [e[0]];
    case 2:
      return [e[0], e[1]];
    case 3:
      return [e[0], e[1], e[2]];
    case 4:
      return [e[0], e[1], e[2], e[3]];
    default:
      return e.slice(0, state.eventCount);
  }
}

// ../../work/wt/w4/packages/kernel/src/ledger/post.ts
var NO_REFS = Object.freeze({});
function post(state, input) {
  const { debit, credit, amount } = input;
  const debitHeld = input.debitHeld === true;
  assert(amount > 0n, "posting amount must be positive");
  assert(debit.assetId === credit.assetId, "posting across assets");
  assert(debit.mode === credit.mode, "posting across modes");
  assert(debit !== credit, "posting to the same account");
  if (debitHeld) {
    debit.held -= amount;
    assert(debit.held >= 0n, "held balance went negative");
  } else {
    debit.available -= amount;
    assert(debit.negativeAllowed || debit.available >= 0n, "available balance went negative");
  }
  credit.available += amount;
  const ledger = state.ledger;
  const seq = ++ledger.postingSeqLast;
  const command = state.command;
  const refs = input.refs ?? NO_REFS;
  const posting = {
    seq,
    debitAccount: debit.key,
    creditAccount: credit.key,
    assetId: debit.assetId,
    amount,
    debitHeld,
    reason: input.reason,
    commandId: command.id,
    atMs: command.atMs,
    orderId: refs.orderId ?? null,
    fillId: refs.fillId ?? null,
    tickId: refs.tickId ?? null,
    operatorId: refs.operatorId ?? null,
    reference: refs.reference ?? null
  };
  const kept = state.options.statementPostingsMax;
  keepPosting(debit, posting, kept);
  keepPosting(credit, posting, kept);
  touch(state, debit);
  touch(state, credit);
  emit(state, { type: "posting", posting });
  return seq;
}
function keepPosting(account, posting, kept) {
  const list = account.postings;
  list.push(posting);
  if (list.length > 2 * kept) list.splice(0, list.length - kept);
}
function hold(state, account, amount) {
  assert(amount >= 0n, "hold must not be negative");
  account.available -= amount;
  assert(account.available >= 0n, "hold exceeds available");
  account.held += amount;
  touch(state, account);
}
function release(state, account, amount) {
  assert(amount >= 0n, "release must not be negative");
  account.held -= amount;
  assert(account.held >= 0n, "release exceeds held");
  account.available += amount;
  touch(state, account);
}
function touch(state, account) {
  if (account.touchedSerial !== state.commandSerial) {
    account.touchedSerial = state.commandSerial;
    const ledger = state.ledger;
    ledger.touched[ledger.touchedCount++] = account;
  }
}
var AMOUNT_SANITY_MAX = 10n ** 36n;
function amountCode(asset, amount) {
  if (amount <= 0n) return "amount_must_be_positive";
  if (amount > (asset.amountMax ?? AMOUNT_SANITY_MAX)) return "amount_above_maximum";
  return null;
}

// ../../work/wt/w4/packages/kernel/src/reject-codes.ts
var rejectCodes = [
  "insufficient_balance",
  "price_must_be_positive",
  "price_not_on_tick",
  "price_too_high",
  "quantity_must_be_positive",
  "quantity_not_on_lot",
  "quantity_below_minimum",
  "quantity_too_high",
  "amount_must_be_positive",
  "amount_empty",
  "amount_malformed",
  "amount_negative_not_allowed",
  "amount_too_many_decimals",
  "amount_above_maximum",
  "market_not_found",
  "market_closed",
  "asset_not_found",
  "command_id_invalid",
  "command_id_reused",
  "command_unknown",
  "demo_not_allowed",
  "real_not_allowed",
  "mode_mismatch",
  "order_not_found",
  "order_type_invalid",
  "time_in_force_invalid",
  "too_many_open_orders",
  "book_full",
  "post_only_would_trade",
  "fok_not_filled",
  "price_outside_band",
  "no_reference_price",
  "account_not_found",
  "accounts_already_open",
  "owner_id_invalid",
  "same_account",
  "wallet_invalid",
  "time_went_backwards",
  "timestamp_invalid",
  "reference_missing",
  "reference_invalid",
  "withdrawal_not_found",
  "withdrawal_not_pending",
  "instrument_id_invalid",
  "nothing_to_cancel",
  "command_malformed",
  "asset_exists",
  "asset_invalid",
  "market_exists",
  "market_invalid",
  "mode_invalid",
  "owner_not_allowed",
  "withdrawal_exists",
  "tick_exists",
  "price_invalid",
  "quote_amount_too_small",
  "tick_out_of_order"
];
function reject(code) {
  return { ok: false, code };
}
var rejections = Object.freeze(
  Object.fromEntries(rejectCodes.map((code) => [code, Object.freeze(reject(code))]))
);
function fail(code) {
  return rejections[code];
}

// ../../work/wt/w4/packages/kernel/src/results.ts
var DONE = Object.freeze({
  ok: true,
  value: Object.freeze({})
});
function ok(value) {
  return { ok: true, value };
}

// ../../work/wt/w4/packages/kernel/src/funds/movements.ts
function fundableSystemOwner(ownerId) {
  return ownerId === systemOwners.marketMaker || ownerId === systemOwners.treasury || ownerId === systemOwners.house || ownerId === systemOwners.insuranceFund;
}
function withdrawalView(withdrawal) {
  return {
    withdrawalId: withdrawal.withdrawalId,
    ownerId: withdrawal.account.ownerId,
    assetId: withdrawal.account.assetId,
    amount: withdrawal.amount,
    status: withdrawal.status,
    reference: withdrawal.reference
  };
}
function reportWithdrawal(state, withdrawal) {
  emit(state, { type: "withdrawal_changed", withdrawal: withdrawalView(withdrawal) });
}
var creditDeposit = (state, command) => {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === void 0) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.reference.length === 0) return fail("reference_missing");
  const external = systemOwner(state, "real", systemOwners.external);
  const postingSeq = post(state, {
    debit: accountOf(state, external, "fund", asset.assetId),
    credit: accountOf(state, owner, "fund", asset.assetId),
    amount: command.amount,
    reason: "deposit",
    refs: { operatorId: command.operatorId, reference: command.reference }
  });
  return ok({ postingSeq });
};
var withdrawalHold = (state, command) => {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === void 0) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.withdrawalId.length === 0) return fail("reference_missing");
  const withdrawals = state.funds.withdrawals;
  if (withdrawals.has(command.withdrawalId)) return fail("withdrawal_exists");
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const account = accountOf(state, owner, "fund", asset.assetId);
  hold(state, account, command.amount);
  const withdrawal = {
    withdrawalId: command.withdrawalId,
    account,
    amount: command.amount,
    status: "pending",
    reference: null
  };
  withdrawals.set(command.withdrawalId, withdrawal);
  reportWithdrawal(state, withdrawal);
  return DONE;
};
var withdrawalComplete = (state, command) => {
  const withdrawal = state.funds.withdrawals.get(command.withdrawalId);
  if (withdrawal === void 0) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  if (command.reference.length === 0) return fail("reference_missing");
  const external = systemOwner(state, "real", systemOwners.external);
  const postingSeq = post(state, {
    debit: withdrawal.account,
    credit: accountOf(state, external, "fund", withdrawal.account.assetId),
    amount: withdrawal.amount,
    debitHeld: true,
    reason: "withdrawal",
    refs: { operatorId: command.operatorId, reference: command.reference }
  });
  withdrawal.status = "completed";
  withdrawal.reference = command.reference;
  reportWithdrawal(state, withdrawal);
  return ok({ postingSeq });
};
var withdrawalCancel = (state, command) => {
  const withdrawal = state.funds.withdrawals.get(command.withdrawalId);
  if (withdrawal === void 0) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  release(state, withdrawal.account, withdrawal.amount);
  withdrawal.status = "cancelled";
  reportWithdrawal(state, withdrawal);
  return DONE;
};
var transferWallet = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === void 0) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.sourceWallet === command.targetWallet) return fail("same_account");
  if (availableOf(owner, command.sourceWallet, asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const postingSeq = post(state, {
    debit: accountOf(state, owner, command.sourceWallet, asset.assetId),
    credit: accountOf(state, owner, command.targetWallet, asset.assetId),
    amount: command.amount,
    reason: "transfer_wallet"
  });
  return ok({ postingSeq });
};
var transferUser = (state, command) => {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const target = findOwner(state, command.targetOwnerId, command.mode);
  if (typeof target === "string") return fail(target);
  if (target.system) return fail("owner_not_allowed");
  if (target === owner) return fail("same_account");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === void 0) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const postingSeq = post(state, {
    debit: accountOf(state, owner, "fund", asset.assetId),
    credit: accountOf(state, target, "fund", asset.assetId),
    amount: command.amount,
    reason: "transfer_user",
    refs: { reference: target.ownerId }
  });
  return ok({ postingSeq });
};

// ../../work/wt/w4/packages/decimal/src/decimal.ts
var SCALE_MAX = 18;
var pow10Cache = [];
function pow10(exponent) {
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > 36) {
    throw new RangeError(`pow10: exponent ${exponent} out of range`);
  }
  let cached = pow10Cache[exponent];
  if (cached === void 0) {
    cached = 10n ** BigInt(exponent);
    pow10Cache[exponent] = cached;
  }
  return cached;
}
function checkScale(scale) {
  if (!Number.isInteger(scale) || scale < 0 || scale > SCALE_MAX) {
    throw new RangeError(`scale ${scale} out of range`);
  }
}
function isDigit(code) {
  return code >= 48 && code <= 57;
}
function refuse(code) {
  return { ok: false, code };
}
function parseDecimal(text, scale, options = {}) {
  checkScale(scale);
  if (text.length === 0) return refuse("amount_empty");
  let start = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45) {
    negative = true;
    start = 1;
  }
  let point = -1;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) continue;
    if (code === 46 && point === -1) {
      point = i;
      continue;
    }
    return refuse("amount_malformed");
  }
  const integerEnd = point === -1 ? text.length : point;
  if (integerEnd === start) return refuse("amount_malformed");
  if (point === text.length - 1) return refuse("amount_malformed");
  let fraction = point === -1 ? "" : text.slice(point + 1);
  if (fraction.length > scale) {
    const extra = fraction.slice(scale);
    if (options.extraZeros !== "accept" || !/^0+$/.test(extra)) {
      return refuse("amount_too_many_decimals");
    }
    fraction = fraction.slice(0, scale);
  }
  const magnitude = BigInt(text.slice(start, integerEnd)) * pow10(scale) + (fraction.length === 0 ? 0n : BigInt(fraction) * pow10(scale - fraction.length));
  if (negative && magnitude !== 0n && options.allowNegative !== true) {
    return refuse("amount_negative_not_allowed");
  }
  if (options.max !== void 0 && magnitude > options.max) return refuse("amount_above_maximum");
  return { ok: true, value: negative ? -magnitude : magnitude };
}
function divFloor(dividend, divisor) {
  if (divisor <= 0n) throw new RangeError("divisor must be positive");
  const quotient = dividend / divisor;
  return dividend % divisor < 0n ? quotient - 1n : quotient;
}
function divCeil(dividend, divisor) {
  if (divisor <= 0n) throw new RangeError("divisor must be positive");
  const quotient = dividend / divisor;
  return dividend % divisor > 0n ? quotient + 1n : quotient;
}

// ../../work/wt/w4/packages/kernel/src/amount/amount.ts
function parseAmount(text, scale, options = {}) {
  return parseDecimal(text, scale, { allowNegative: options.allowNegative, max: options.max });
}

// ../../work/wt/w4/packages/kernel/src/funds/owners.ts
var openAccounts = (state, command) => {
  if (!validOwnerId(command.ownerId)) return fail("owner_id_invalid");
  if (ownerOf(state, command.mode, command.ownerId) !== void 0) {
    return fail("accounts_already_open");
  }
  const owner = openOwner(state, command.ownerId, command.mode);
  emit(state, { type: "accounts_opened", ownerId: owner.ownerId, mode: owner.mode });
  if (owner.mode === "demo") grantDemoDefaults(state, owner);
  return DONE;
};
function grantDemoDefaults(state, owner) {
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  for (const grant of state.options.demoGrants) {
    const asset = state.reference.assets.get(grant.assetId);
    if (asset === void 0) continue;
    const amount = parseAmount(grant.amount, asset.scale);
    if (!amount.ok || amount.value <= 0n) continue;
    post(state, {
      debit: accountOf(state, faucet, "fund", asset.assetId),
      credit: accountOf(state, owner, "fund", asset.assetId),
      amount: amount.value,
      reason: "demo_grant"
    });
  }
}
var grantDemo = (state, command) => {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) {
    return fail("owner_not_allowed");
  }
  const asset = state.reference.assets.get(command.assetId);
  if (asset === void 0) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  const postingSeq = post(state, {
    debit: accountOf(state, faucet, "fund", asset.assetId),
    credit: accountOf(state, owner, "fund", asset.assetId),
    amount: command.amount,
    reason: "demo_grant"
  });
  return ok({ postingSeq });
};
var resetDemo = (state, command) => {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  let cancelledCount = 0;
  for (const module2 of state.modules) cancelledCount += module2.onDemoReset?.(state, owner) ?? 0;
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  const accounts = [...owner.accounts.values()].sort((a, b) => compareStrings(a.key, b.key));
  for (const account of accounts) {
    assert(account.held === 0n, "demo account still holds funds after its products reset");
    if (account.available > 0n) {
      post(state, {
        debit: account,
        credit: accountOf(state, faucet, "fund", account.assetId),
        amount: account.available,
        reason: "demo_reset"
      });
    }
  }
  grantDemoDefaults(state, owner);
  emit(state, { type: "demo_reset", ownerId: owner.ownerId });
  return ok({ cancelledCount });
};

// ../../work/wt/w4/packages/kernel/src/funds/state.ts
function createFundsState() {
  return { withdrawals: /* @__PURE__ */ new Map() };
}

// ../../work/wt/w4/packages/kernel/src/funds/module.ts
var ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"]
];
var fundsModule = {
  name: "funds",
  createState: createFundsState,
  commands: {
    open_accounts: { typeCode: 3, fields: [...ownerMode], result: [] },
    reset_demo: { typeCode: 4, fields: [...ownerMode], result: ["cancelledCount"] },
    grant_demo: {
      typeCode: 5,
      fields: [...ownerMode, ["assetId", "string"], ["amount", "bigint"]],
      result: ["postingSeq"]
    },
    credit_deposit: {
      typeCode: 6,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["reference", "string"],
        ["operatorId", "string?"]
      ],
      result: ["postingSeq"]
    },
    withdrawal_hold: {
      typeCode: 7,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["withdrawalId", "string"]
      ],
      result: []
    },
    withdrawal_complete: {
      typeCode: 8,
      fields: [
        ["withdrawalId", "string"],
        ["reference", "string"],
        ["operatorId", "string?"]
      ],
      result: ["postingSeq"]
    },
    withdrawal_cancel: {
      typeCode: 9,
      fields: [
        ["withdrawalId", "string"],
        ["operatorId", "string?"]
      ],
      result: []
    },
    transfer_wallet: {
      typeCode: 10,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["sourceWallet", "wallet"],
        ["targetWallet", "wallet"]
      ],
      result: ["postingSeq"]
    },
    transfer_user: {
      typeCode: 11,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["targetOwnerId", "string"]
      ],
      result: ["postingSeq"]
    }
  },
  handlers: {
    open_accounts: openAccounts,
    reset_demo: resetDemo,
    grant_demo: grantDemo,
    credit_deposit: creditDeposit,
    withdrawal_hold: withdrawalHold,
    withdrawal_complete: withdrawalComplete,
    withdrawal_cancel: withdrawalCancel,
    transfer_wallet: transferWallet,
    transfer_user: transferUser
  },
  snapshot: {
    write(state) {
      const withdrawals = [...state.funds.withdrawals.values()].sort((a, b) => compareStrings(a.withdrawalId, b.withdrawalId)).map((w) => [
        w.withdrawalId,
        w.account.key,
        w.amount.toString(),
        w.status,
        w.reference
      ]);
      return { withdrawals };
    },
    read(state, json) {
      for (const [withdrawalId, key, amount, status, reference] of json.withdrawals) {
        const account = state.ledger.accounts.get(key);
        assert(account !== void 0, "snapshot withdrawal without account");
        state.funds.withdrawals.set(withdrawalId, {
          withdrawalId,
          account,
          amount: BigInt(amount),
          status,
          reference
        });
      }
    }
  },
  checkInvariants(state) {
    for (const withdrawal of state.funds.withdrawals.values()) {
      if (withdrawal.status === "pending") withdrawal.account.heldExpected += withdrawal.amount;
    }
  }
};

// ../../work/wt/w4/packages/kernel/src/ledger/module.ts
function reportBalances(state) {
  const ledger = state.ledger;
  const count = ledger.touchedCount;
  if (count === 0) return;
  const touched = ledger.touched;
  const balances = new Array(count);
  for (let i = 0; i < count; i++) balances[i] = balanceView(touched[i]);
  emit(state, { type: "balances_changed", balances });
}
var ledgerModule = {
  name: "ledger",
  createState: createLedgerState,
  snapshot: {
    write(state) {
      const ledger = state.ledger;
      const owners2 = [...ledger.owners.values()].sort((a, b) => compareStrings(a.key, b.key)).map((owner) => [owner.mode, owner.ownerId, owner.index]);
      const accountList = [...ledger.accounts.values()].filter((a) => a.available !== 0n || a.held !== 0n || a.postings.length > 0).sort((a, b) => compareStrings(a.key, b.key));
      const accounts = accountList.map((a) => [
        a.ownerId,
        a.mode,
        a.wallet,
        a.assetId,
        a.available.toString(),
        a.held.toString(),
        a.postings.map((p) => p.seq)
      ]);
      const kept = /* @__PURE__ */ new Map();
      for (const account of accountList) for (const p of account.postings) kept.set(p.seq, p);
      const postings = [...kept.values()].sort((a, b) => a.seq - b.seq).map((p) => [
        p.seq,
        p.debitAccount,
        p.creditAccount,
        p.assetId,
        p.amount.toString(),
        p.debitHeld,
        p.reason,
        p.commandId,
        p.atMs,
        p.orderId,
        p.fillId,
        p.tickId,
        p.operatorId,
        p.reference
      ]);
      return {
        postingSeqLast: ledger.postingSeqLast,
        ownerIndexNext: ledger.ownerIndexNext,
        owners: owners2,
        accounts,
        postings
      };
    },
    read(state, json) {
      const ledger = state.ledger;
      ledger.owners.clear();
      ledger.ownersReal.clear();
      ledger.ownersDemo.clear();
      ledger.accounts.clear();
      for (const [mode, ownerId, index] of json.owners) {
        openOwner(state, ownerId, mode).index = index;
      }
      ledger.ownerIndexNext = json.ownerIndexNext;
      ledger.postingSeqLast = json.postingSeqLast;
      const kept = /* @__PURE__ */ new Map();
      for (const p of json.postings) {
        const posting = {
          seq: p[0],
          debitAccount: p[1],
          creditAccount: p[2],
          assetId: p[3],
          amount: BigInt(p[4]),
          debitHeld: p[5],
          reason: p[6],
          commandId: p[7],
          atMs: p[8],
          orderId: p[9],
          fillId: p[10],
          tickId: p[11],
          operatorId: p[12],
          reference: p[13]
        };
        kept.set(posting.seq, posting);
      }
      for (const [ownerId, mode, wallet, assetId, available, held, seqs] of json.accounts) {
        const owner = ledger.owners.get(mode + "|" + ownerId);
        assert(owner !== void 0, "snapshot account without owner");
        const account = accountOf(state, owner, wallet, assetId);
        account.available = BigInt(available);
        account.held = BigInt(held);
        for (const seq of seqs) {
          const posting = kept.get(seq);
          assert(posting !== void 0, "snapshot account keeps an unknown posting");
          account.postings.push(posting);
        }
      }
    }
  }
};

// ../../work/wt/w4/packages/kernel/src/market-units.ts
var PRICE_TICKS_MAX = 1e12;

// ../../work/wt/w4/packages/kernel/src/reference/markets.ts
var ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
var BPS = 10000n;
function buildMarket(state, definition) {
  if (!ID_PATTERN.test(definition.marketId)) return "market_invalid";
  if (definition.instrumentId !== null && !ID_PATTERN.test(definition.instrumentId)) {
    return "instrument_id_invalid";
  }
  const base = state.reference.assets.get(definition.baseAssetId);
  const quote = state.reference.assets.get(definition.quoteAssetId);
  if (base === void 0 || quote === void 0) return "asset_not_found";
  if (base === quote) return "market_invalid";
  const step = parseAmount(definition.priceStep, SCALE_MAX);
  if (!step.ok || step.value <= 0n) return "market_invalid";
  const lot = parseAmount(definition.lotSize, base.scale);
  if (!lot.ok || lot.value <= 0n) return "market_invalid";
  const numerator = step.value * lot.value * pow10(quote.scale);
  const denominator = pow10(SCALE_MAX + base.scale);
  if (numerator % denominator !== 0n) return "market_invalid";
  const tickLotUnits = numerator / denominator;
  if (tickLotUnits <= 0n) return "market_invalid";
  const lotsMin = definition.quantityLotsMin;
  const lotsMax = definition.quantityLotsMax;
  if (lotsMin < 1 || lotsMax < lotsMin || lotsMax > PRICE_TICKS_MAX) return "market_invalid";
  if (definition.feeBpsMaker < 0 || definition.feeBpsMaker > 1e3) return "market_invalid";
  if (definition.feeBpsTaker < 0 || definition.feeBpsTaker > 1e3) return "market_invalid";
  if (definition.priceBandBps < 1 || definition.priceBandBps > 5e3) return "market_invalid";
  const levels = definition.levelsPerSideMax ?? state.options.levelsPerSideMax;
  const ordersMax = definition.ordersPerBookMax ?? state.options.ordersPerBookMax;
  if (levels < 1 || ordersMax < 1) return "market_invalid";
  const limits = { levelsPerSideMax: levels, ordersMax };
  return {
    marketId: definition.marketId,
    base,
    quote,
    instrumentId: definition.instrumentId ?? definition.marketId,
    priceStep: definition.priceStep,
    lotSize: definition.lotSize,
    priceStepScaled: step.value,
    lotUnits: lot.value,
    tickLotUnits,
    lotUnitsNumber: safeNumber(lot.value),
    tickLotUnitsNumber: safeNumber(tickLotUnits),
    quantityLotsMin: lotsMin,
    quantityLotsMax: lotsMax,
    feeBpsMaker: definition.feeBpsMaker,
    feeBpsTaker: definition.feeBpsTaker,
    priceBandBps: definition.priceBandBps,
    levelsPerSideMax: levels,
    ordersPerBookMax: ordersMax,
    open: false,
    bookReal: state.bookFactory(limits),
    bookDemo: state.bookFactory(limits),
    bandBuyMaxTicks: 0,
    bandSellMinTicks: 0,
    tickId: null
  };
}
function safeNumber(value) {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.POSITIVE_INFINITY;
}
function installMarket(state, market) {
  const reference = state.reference;
  reference.markets.set(market.marketId, market);
  let anchored = reference.marketsByInstrument.get(market.instrumentId);
  if (anchored === void 0) {
    anchored = [];
    reference.marketsByInstrument.set(market.instrumentId, anchored);
  }
  anchored.push(market);
  const tick = reference.ticks.get(market.instrumentId);
  if (tick !== void 0) updateBand(market, tick.price, tick.tickId);
}
function updateBand(market, price, tickId) {
  const parsed = parseAmount(price, SCALE_MAX);
  assert(parsed.ok && parsed.value > 0n, "tick price was validated");
  const denominator = market.priceStepScaled * BPS;
  const bps = BigInt(market.priceBandBps);
  const buyMax = divFloor(parsed.value * (BPS + bps), denominator);
  const sellMin = divCeil(parsed.value * (BPS - bps), denominator);
  const cap = BigInt(PRICE_TICKS_MAX);
  market.bandBuyMaxTicks = Number(buyMax > cap ? cap : buyMax);
  market.bandSellMinTicks = Number(sellMin < 1n ? 1n : sellMin > cap ? cap + 1n : sellMin);
  market.tickId = tickId;
}
function marketView(market) {
  return {
    marketId: market.marketId,
    baseAssetId: market.base.assetId,
    quoteAssetId: market.quote.assetId,
    instrumentId: market.instrumentId,
    priceStep: market.priceStep,
    lotSize: market.lotSize,
    lotUnits: market.lotUnits,
    tickLotUnits: market.tickLotUnits,
    quantityLotsMin: market.quantityLotsMin,
    quantityLotsMax: market.quantityLotsMax,
    feeBpsMaker: market.feeBpsMaker,
    feeBpsTaker: market.feeBpsTaker,
    priceBandBps: market.priceBandBps,
    levelsPerSideMax: market.levelsPerSideMax,
    ordersPerBookMax: market.ordersPerBookMax,
    open: market.open,
    baseScale: market.base.scale,
    quoteScale: market.quote.scale
  };
}

// ../../work/wt/w4/packages/kernel/src/reference/handlers.ts
var defineAsset = (state, command) => {
  if (!ID_PATTERN.test(command.assetId)) return fail("asset_invalid");
  if (command.scale < 0 || command.scale > SCALE_MAX) return fail("asset_invalid");
  if (command.amountMax !== null && (command.amountMax <= 0n || command.amountMax > AMOUNT_SANITY_MAX)) {
    return fail("asset_invalid");
  }
  const assets = state.reference.assets;
  if (assets.has(command.assetId)) return fail("asset_exists");
  const asset = {
    assetId: command.assetId,
    scale: command.scale,
    amountMax: command.amountMax
  };
  assets.set(asset.assetId, asset);
  emit(state, { type: "asset_defined", asset: { ...asset } });
  return DONE;
};
var defineMarket = (state, command) => {
  if (state.reference.markets.has(command.marketId)) return fail("market_exists");
  const market = buildMarket(state, command);
  if (typeof market === "string") return fail(market);
  installMarket(state, market);
  emit(state, { type: "market_defined", market: marketView(market) });
  return DONE;
};
var setMarketSession = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === void 0) return fail("market_not_found");
  market.open = command.open;
  emit(state, {
    type: "market_session_changed",
    marketId: market.marketId,
    open: market.open
  });
  return DONE;
};
var recordTick = (state, command) => {
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  if (command.tickId.length === 0 || command.tickId.length > 128) return fail("reference_invalid");
  if (command.tickAtMs < 0) return fail("timestamp_invalid");
  const price = parseAmount(command.price, SCALE_MAX);
  if (!price.ok || price.value <= 0n) return fail("price_invalid");
  const reference = state.reference;
  const last = reference.ticks.get(command.instrumentId);
  if (last !== void 0) {
    if (last.tickId === command.tickId) return fail("tick_exists");
    if (command.tickAtMs < last.tickAtMs) return fail("tick_out_of_order");
  }
  const tick = {
    tickId: command.tickId,
    instrumentId: command.instrumentId,
    price: command.price,
    tickAtMs: command.tickAtMs,
    recordedAtMs: command.atMs
  };
  reference.ticks.set(tick.instrumentId, tick);
  const anchored = reference.marketsByInstrument.get(tick.instrumentId);
  if (anchored !== void 0) {
    for (const market of anchored) updateBand(market, tick.price, tick.tickId);
  }
  emit(state, { type: "tick_recorded", tick: { ...tick } });
  for (const module2 of state.modules) module2.onTick?.(state, tick);
  return DONE;
};

// ../../work/wt/w4/packages/kernel/src/reference/state.ts
function createReferenceState() {
  return {
    assets: /* @__PURE__ */ new Map(),
    markets: /* @__PURE__ */ new Map(),
    marketsByInstrument: /* @__PURE__ */ new Map(),
    ticks: /* @__PURE__ */ new Map()
  };
}

// ../../work/wt/w4/packages/kernel/src/reference/module.ts
function big(value) {
  return value === null ? null : value.toString();
}
var referenceModule = {
  name: "reference",
  createState: createReferenceState,
  commands: {
    define_asset: {
      typeCode: 0,
      fields: [
        ["assetId", "string"],
        ["scale", "int"],
        ["amountMax", "bigint?"]
      ],
      result: []
    },
    define_market: {
      typeCode: 1,
      fields: [
        ["marketId", "string"],
        ["baseAssetId", "string"],
        ["quoteAssetId", "string"],
        ["instrumentId", "string?"],
        ["priceStep", "string"],
        ["lotSize", "string"],
        ["quantityLotsMin", "int"],
        ["quantityLotsMax", "int"],
        ["feeBpsMaker", "int"],
        ["feeBpsTaker", "int"],
        ["priceBandBps", "int"],
        ["levelsPerSideMax", "int?"],
        ["ordersPerBookMax", "int?"]
      ],
      result: []
    },
    set_market_session: {
      typeCode: 2,
      fields: [
        ["marketId", "string"],
        ["open", "bool"]
      ],
      result: []
    },
    record_tick: {
      typeCode: 16,
      fields: [
        ["tickId", "string"],
        ["instrumentId", "string"],
        ["price", "string"],
        ["tickAtMs", "int"]
      ],
      result: []
    }
  },
  handlers: {
    define_asset: defineAsset,
    define_market: defineMarket,
    set_market_session: setMarketSession,
    record_tick: recordTick
  },
  snapshot: {
    write(state) {
      const reference = state.reference;
      const assets = [...reference.assets.values()].sort((a, b) => compareStrings(a.assetId, b.assetId)).map((asset) => [asset.assetId, asset.scale, big(asset.amountMax)]);
      const ticks = [...reference.ticks.values()].sort((a, b) => compareStrings(a.instrumentId, b.instrumentId)).map((tick) => [
        tick.instrumentId,
        tick.tickId,
        tick.price,
        tick.tickAtMs,
        tick.recordedAtMs
      ]);
      const markets = [...reference.markets.values()].sort((a, b) => compareStrings(a.marketId, b.marketId)).map((market) => [
        market.marketId,
        market.base.assetId,
        market.quote.assetId,
        market.instrumentId,
        market.priceStep,
        market.lotSize,
        market.quantityLotsMin,
        market.quantityLotsMax,
        market.feeBpsMaker,
        market.feeBpsTaker,
        market.priceBandBps,
        market.levelsPerSideMax,
        market.ordersPerBookMax,
        market.open
      ]);
      return { assets, ticks, markets };
    },
    read(state, json) {
      const reference = state.reference;
      for (const [assetId, scale, amountMax] of json.assets) {
        reference.assets.set(assetId, {
          assetId,
          scale,
          amountMax: amountMax === null ? null : BigInt(amountMax)
        });
      }
      for (const [instrumentId, tickId, price, tickAtMs, recordedAtMs] of json.ticks) {
        reference.ticks.set(instrumentId, { tickId, instrumentId, price, tickAtMs, recordedAtMs });
      }
      for (const m of json.markets) {
        const market = buildMarket(state, {
          marketId: m[0],
          baseAssetId: m[1],
          quoteAssetId: m[2],
          instrumentId: m[3],
          priceStep: m[4],
          lotSize: m[5],
          quantityLotsMin: m[6],
          quantityLotsMax: m[7],
          feeBpsMaker: m[8],
          feeBpsTaker: m[9],
          priceBandBps: m[10],
          levelsPerSideMax: m[11],
          ordersPerBookMax: m[12]
        });
        assert(typeof market !== "string", "snapshot market does not validate");
        market.open = m[13];
        installMarket(state, market);
      }
    }
  }
};

// ../../work/wt/w4/packages/kernel/src/schedule.ts
function createScheduleState() {
  return { heap: [], seqNext: 1 };
}
function before(a, b) {
  return a.dueMs < b.dueMs || a.dueMs === b.dueMs && a.seq < b.seq;
}
function push(heap, entry) {
  heap.push(entry);
  let index = heap.length - 1;
  while (index > 0) {
    const parent = index - 1 >> 1;
    if (!before(heap[index], heap[parent])) break;
    [heap[index], heap[parent]] = [heap[parent], heap[index]];
    index = parent;
  }
}
function pop(heap) {
  const top = heap[0];
  const last = heap.pop();
  if (top === void 0 || last === void 0 || heap.length === 0) return top;
  heap[0] = last;
  let index = 0;
  for (; ; ) {
    const left = 2 * index + 1;
    const right = left + 1;
    let smallest = index;
    if (left < heap.length && before(heap[left], heap[smallest])) smallest = left;
    if (right < heap.length && before(heap[right], heap[smallest])) smallest = right;
    if (smallest === index) break;
    [heap[index], heap[smallest]] = [heap[smallest], heap[index]];
    index = smallest;
  }
  return top;
}
function takeDue(state, nowMs) {
  const heap = state.schedule.heap;
  const top = heap[0];
  if (top === void 0 || top.dueMs > nowMs) return void 0;
  return pop(heap);
}
function scheduledEntries(state) {
  return [...state.schedule.heap].sort((a, b) => before(a, b) ? -1 : before(b, a) ? 1 : 0);
}
function runDue(state) {
  for (let entry = takeDue(state, state.nowMs); entry; entry = takeDue(state, state.nowMs)) {
    const module2 = state.modules.find((candidate) => candidate.name === entry.module);
    assert(module2?.runScheduled !== void 0, "a scheduled entry's module is gone");
    module2.runScheduled(state, entry);
  }
}
var clockTick = (state) => {
  runDue(state);
  for (const module2 of state.modules) module2.onClock?.(state);
  return DONE;
};
var scheduleModule = {
  name: "schedule",
  createState: createScheduleState,
  commands: { clock_tick: { typeCode: 17, fields: [], result: [] } },
  handlers: { clock_tick: clockTick },
  snapshot: {
    write(state) {
      const schedule = state.schedule;
      if (schedule.seqNext === 1) return { schedule: void 0 };
      const entries = scheduledEntries(state).map((e) => [
        e.seq,
        e.dueMs,
        e.module,
        e.kind,
        e.payload
      ]);
      return { schedule: [schedule.seqNext, entries] };
    },
    read(state, json) {
      const section = json.schedule;
      if (section === void 0) return;
      const [seqNext, entries] = section;
      for (const [seq, dueMs, module2, kind, payload] of entries) {
        push(state.schedule.heap, { seq, dueMs, module: module2, kind, payload });
      }
      state.schedule.seqNext = seqNext;
    }
  }
};

// ../../work/wt/w4/packages/kernel/src/spot/orders.ts
function traderOwner(state, ownerId, mode) {
  const owner = findOwner(state, ownerId, mode);
  if (typeof owner === "string") return owner;
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) return "owner_not_allowed";
  return owner;
}
function openOrdersMax(state, owner) {
  return owner.ownerId === systemOwners.marketMaker ? state.options.openOrdersMarketMakerMax : state.options.openOrdersPerOwnerMax;
}
function commandedOrder(state, ownerId, mode, orderId) {
  const order = state.spot.orders.get(orderId);
  if (order !== void 0 && order.ownerId === ownerId && order.mode === mode) {
    return order;
  }
  const owner = traderOwner(state, ownerId, mode);
  return typeof owner === "string" ? owner : "order_not_found";
}

// ../../work/wt/w4/packages/kernel/src/spot/holds.ts
function holdFor(market, isBuy, priceTicks, lots) {
  if (isBuy) {
    const product2 = priceTicks * lots * market.tickLotUnitsNumber;
    if (product2 <= Number.MAX_SAFE_INTEGER) return BigInt(product2);
    return BigInt(priceTicks) * BigInt(lots) * market.tickLotUnits;
  }
  const product = lots * market.lotUnitsNumber;
  if (product <= Number.MAX_SAFE_INTEGER) return BigInt(product);
  return BigInt(lots) * market.lotUnits;
}
function holdUnits(market, isBuy, priceTicks, lots) {
  const product = isBuy ? priceTicks * lots * market.tickLotUnitsNumber : lots * market.lotUnitsNumber;
  return product <= Number.MAX_SAFE_INTEGER ? product : -1;
}
function limitCode(market, priceTicks, quantityLots) {
  if (priceTicks <= 0) return "price_must_be_positive";
  if (priceTicks > PRICE_TICKS_MAX) return "price_too_high";
  return lotsCode(market, quantityLots);
}
function lotsCode(market, quantityLots) {
  if (quantityLots <= 0) return "quantity_must_be_positive";
  if (quantityLots < market.quantityLotsMin) return "quantity_below_minimum";
  if (quantityLots > market.quantityLotsMax) return "quantity_too_high";
  return null;
}
function bookRejectCode(outcome) {
  return outcome === "rejected_post_only" ? "post_only_would_trade" : outcome === "rejected_fok" ? "fok_not_filled" : "book_full";
}

// ../../work/wt/w4/packages/kernel/src/spot/state.ts
function openOrderIds(spot, owner) {
  let ids = spot.openByOwner[owner.index];
  if (ids === void 0) {
    ids = /* @__PURE__ */ new Set();
    spot.openByOwner[owner.index] = ids;
  }
  return ids;
}
var SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
function setHeld(order, amount) {
  order.heldAmount = amount;
  order.heldUnits = amount >= 0n && amount <= SAFE_MAX ? Number(amount) : -1;
}
function setHeldUnits(order, units) {
  order.heldAmount = BigInt(units);
  order.heldUnits = units;
}
function unitsOf(amount) {
  return amount >= 0n && amount <= SAFE_MAX ? Number(amount) : -1;
}

// ../../work/wt/w4/packages/kernel/src/spot/settle.ts
var BPS2 = 10000n;
function createListener(state) {
  return {
    onFill(fill) {
      settleFill(state, state.spot.taker, fill);
    },
    onSelfTradeCancel(restingOrderId, remainingLots) {
      const order = state.spot.orders.get(restingOrderId);
      assert(order !== void 0, "self-trade cancel of an unknown order");
      assert(order.quantityLots - order.filledLots === remainingLots, "resting lots disagree");
      finishCancelled(state, order, "self_trade");
    }
  };
}
function feeOf(amount, feeBps) {
  if (feeBps === 0) return 0n;
  return divCeil(amount * BigInt(feeBps), BPS2);
}
function settleFill(state, taker, fill) {
  const spot = state.spot;
  const maker = spot.orders.get(fill.makerOrderId);
  assert(maker !== void 0, "fill against an unknown order");
  const market = taker.market;
  const baseAmount = holdFor(market, false, 0, fill.quantityLots);
  const quoteAmount = holdFor(market, true, fill.priceTicks, fill.quantityLots);
  const fillId = spot.fillIdNext++;
  const tickId = market.tickId;
  const takerBuys = taker.side === "buy";
  const buyer = takerBuys ? taker : maker;
  const seller = takerBuys ? maker : taker;
  const buyerRefs = { orderId: buyer.orderId, fillId, tickId };
  const sellerRefs = { orderId: seller.orderId, fillId, tickId };
  post(state, {
    debit: buyer.quoteAccount,
    credit: seller.quoteAccount,
    amount: quoteAmount,
    debitHeld: true,
    reason: "trade",
    refs: buyerRefs
  });
  setHeld(buyer, buyer.heldAmount - quoteAmount);
  post(state, {
    debit: seller.baseAccount,
    credit: buyer.baseAccount,
    amount: baseAmount,
    debitHeld: true,
    reason: "trade",
    refs: sellerRefs
  });
  setHeld(seller, seller.heldAmount - baseAmount);
  assert(buyer.heldAmount >= 0n && seller.heldAmount >= 0n, "order hold went negative");
  const fees = systemOwner(state, taker.owner.mode, systemOwners.fees);
  const makerAccount = takerBuys ? maker.quoteAccount : maker.baseAccount;
  const takerAccount = takerBuys ? taker.baseAccount : taker.quoteAccount;
  const feeMaker = feeOf(takerBuys ? quoteAmount : baseAmount, market.feeBpsMaker);
  const feeTaker = feeOf(takerBuys ? baseAmount : quoteAmount, market.feeBpsTaker);
  if (feeMaker > 0n) {
    post(state, {
      debit: makerAccount,
      credit: accountOf(state, fees, "fund", makerAccount.assetId),
      amount: feeMaker,
      reason: "fee_maker",
      refs: takerBuys ? sellerRefs : buyerRefs
    });
  }
  if (feeTaker > 0n) {
    post(state, {
      debit: takerAccount,
      credit: accountOf(state, fees, "fund", takerAccount.assetId),
      amount: feeTaker,
      reason: "fee_taker",
      refs: takerBuys ? buyerRefs : sellerRefs
    });
  }
  maker.filledLots += fill.quantityLots;
  taker.filledLots += fill.quantityLots;
  assert(
    maker.quantityLots - maker.filledLots === fill.makerRemainingLots,
    "maker lots disagree with the book"
  );
  emit(state, {
    type: "fill",
    fillId,
    marketId: market.marketId,
    mode: taker.owner.mode,
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerOwnerId: maker.owner.ownerId,
    takerOwnerId: taker.owner.ownerId,
    takerSide: taker.side,
    priceTicks: fill.priceTicks,
    quantityLots: fill.quantityLots,
    baseAmount,
    quoteAmount,
    feeMaker,
    feeMakerAssetId: makerAccount.assetId,
    feeTaker,
    feeTakerAssetId: takerAccount.assetId,
    tickId,
    atMs: state.nowMs
  });
  if (fill.makerRemainingLots === 0) {
    assert(maker.heldAmount === 0n, "a filled maker still holds funds");
    removeOpenOrder(state, maker, "filled");
  }
}
function removeOpenOrder(state, order, status) {
  order.status = status;
  state.spot.orders.delete(order.orderId);
  openOrderIds(state.spot, order.owner).delete(order.orderId);
  emit(state, {
    type: "order_done",
    orderId: order.orderId,
    status,
    filledLots: order.filledLots
  });
}
function finishCancelled(state, order, reason) {
  const released = order.heldAmount;
  if (released > 0n) release(state, order.holdAccount, released);
  setHeld(order, 0n);
  emit(state, {
    type: "order_cancelled",
    orderId: order.orderId,
    reason,
    remainingLots: order.quantityLots - order.filledLots,
    releasedAmount: released
  });
  removeOpenOrder(state, order, "cancelled");
}
function cancelOpenOrder(state, order, reason) {
  const resting = order.book.cancel(order.orderId);
  assert(resting !== void 0, "an open order was not in its book");
  finishCancelled(state, order, reason);
}
function cancelOwnerOrders(state, owner, marketId2, reason) {
  const ids = [...openOrderIds(state.spot, owner)].sort((a, b) => a - b);
  let count = 0;
  for (const orderId of ids) {
    const order = state.spot.orders.get(orderId);
    if (marketId2 !== null && order.market.marketId !== marketId2) continue;
    cancelOpenOrder(state, order, reason);
    count++;
  }
  return count;
}
function settleRest(state, order, restingLots, joining, neededUnits) {
  assert(restingLots === order.quantityLots - order.filledLots, "resting lots disagree");
  const isBuy = order.side === "buy";
  const units = neededUnits >= 0 ? neededUnits : holdUnits(order.market, isBuy, order.priceTicks, restingLots);
  const heldUnits = order.heldUnits;
  if (units >= 0 && heldUnits >= 0) {
    if (heldUnits !== units) {
      assert(heldUnits > units, "a resting order holds too little");
      release(state, order.holdAccount, BigInt(heldUnits - units));
      setHeldUnits(order, units);
    }
  } else {
    const needed = holdFor(order.market, isBuy, order.priceTicks, restingLots);
    if (order.heldAmount !== needed) {
      const excess = order.heldAmount - needed;
      assert(excess > 0n, "a resting order holds too little");
      release(state, order.holdAccount, excess);
      setHeld(order, needed);
    }
  }
  if (joining) openOrderIds(state.spot, order.owner).add(order.orderId);
  emit(state, {
    type: "order_rested",
    orderId: order.orderId,
    priceTicks: order.priceTicks,
    remainingLots: restingLots,
    heldAmount: order.heldAmount
  });
}
function settleGone(state, order, status) {
  if (order.heldAmount > 0n) release(state, order.holdAccount, order.heldAmount);
  setHeld(order, 0n);
  removeOpenOrder(state, order, status);
}

// ../../work/wt/w4/packages/kernel/src/spot/cancel.ts
var cancelOrder = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  cancelOpenOrder(state, order, "user");
  return ok({ orderId: order.orderId, cancelledCount: 1 });
};
var cancelAll = (state, command) => {
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (command.marketId !== null && !state.reference.markets.has(command.marketId)) {
    return fail("market_not_found");
  }
  const cancelledCount = cancelOwnerOrders(state, owner, command.marketId, "cancel_all");
  return ok({ cancelledCount });
};

// ../../work/wt/w4/packages/kernel/src/spot/views.ts
function orderView(order) {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    ownerId: order.owner.ownerId,
    mode: order.owner.mode,
    marketId: order.market.marketId,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteAmount: order.quoteAmount,
    filledLots: order.filledLots,
    remainingLots: order.quantityLots - order.filledLots,
    heldAmount: order.heldAmount,
    status: order.status,
    createdAtMs: order.createdAtMs
  };
}

// ../../work/wt/w4/packages/kernel/src/spot/place.ts
var placeOrder = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === void 0) return fail("market_not_found");
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (!market.open) return fail("market_closed");
  const isBuy = command.side === "buy";
  const tif = command.timeInForce;
  let priceTicks;
  let lots;
  let holdAmount;
  let byQuote = false;
  if (command.orderType === "limit") {
    if (command.priceTicks === null || command.quantityLots === null) {
      return fail("command_malformed");
    }
    if (command.quoteAmount !== null) return fail("order_type_invalid");
    const code = limitCode(market, command.priceTicks, command.quantityLots);
    if (code !== null) return fail(code);
    priceTicks = command.priceTicks;
    lots = command.quantityLots;
    holdAmount = holdFor(market, isBuy, priceTicks, lots);
  } else {
    if (tif !== "ioc") return fail("time_in_force_invalid");
    if (command.priceTicks !== null) return fail("order_type_invalid");
    byQuote = isBuy && command.quoteAmount !== null;
    if (byQuote) {
      if (command.quantityLots !== null) return fail("order_type_invalid");
      const code = amountCode(market.quote, command.quoteAmount);
      if (code !== null) return fail(code);
    } else {
      if (command.quantityLots === null || command.quoteAmount !== null) {
        return fail("order_type_invalid");
      }
      const code = lotsCode(market, command.quantityLots);
      if (code !== null) return fail(code);
    }
    if (market.tickId === null) return fail("no_reference_price");
    priceTicks = isBuy ? market.bandBuyMaxTicks : market.bandSellMinTicks;
    if (priceTicks < 1 || priceTicks > PRICE_TICKS_MAX) return fail("price_outside_band");
    if (byQuote) {
      holdAmount = command.quoteAmount;
      lots = 0;
    } else {
      lots = command.quantityLots;
      holdAmount = holdFor(market, isBuy, priceTicks, lots);
    }
  }
  const holdAssetId = isBuy ? market.quote.assetId : market.base.assetId;
  if (availableOf(owner, "fund", holdAssetId) < holdAmount) return fail("insufficient_balance");
  const spot = state.spot;
  const mayRest = tif === "gtc" || tif === "post_only";
  if (mayRest) {
    if (openOrderIds(spot, owner).size >= openOrdersMax(state, owner)) {
      return fail("too_many_open_orders");
    }
  }
  const book = owner.mode === "real" ? market.bookReal : market.bookDemo;
  if (byQuote) lots = lotsForQuote(market, book, owner.index, priceTicks, holdAmount);
  const baseAccount = accountOf(state, owner, "fund", market.base.assetId);
  const quoteAccount = accountOf(state, owner, "fund", market.quote.assetId);
  const holdAccount = isBuy ? quoteAccount : baseAccount;
  const orderId = spot.orderIdNext++;
  const order = {
    orderId,
    clientOrderId: command.id,
    owner,
    ownerId: owner.ownerId,
    mode: owner.mode,
    market,
    book,
    side: command.side,
    orderType: command.orderType,
    timeInForce: tif,
    priceTicks,
    quantityLots: lots,
    quoteAmount: byQuote ? holdAmount : null,
    filledLots: 0,
    heldAmount: holdAmount,
    heldUnits: unitsOf(holdAmount),
    holdAccount,
    baseAccount,
    quoteAccount,
    status: "open",
    createdAtMs: command.atMs
  };
  if (lots === 0) {
    emit(state, { type: "order_accepted", order: orderView(order) });
    setHeld(order, 0n);
    order.status = "expired";
    emit(state, { type: "order_done", orderId, status: "expired", filledLots: 0 });
    return ok({ orderId, orderStatus: "expired", filledLots: 0, restingLots: 0 });
  }
  hold(state, holdAccount, holdAmount);
  spot.orders.set(orderId, order);
  emit(state, { type: "order_accepted", order: orderView(order) });
  spot.taker = order;
  const input = spot.bookInput;
  input.orderId = orderId;
  input.ownerId = owner.index;
  input.side = command.side;
  input.priceTicks = priceTicks;
  input.quantityLots = lots;
  input.timeInForce = tif;
  const outcome = book.submit(input, spot.listener);
  spot.taker = null;
  let orderStatus;
  switch (outcome.outcome) {
    case "rejected_post_only":
    case "rejected_fok":
    case "rejected_book_full":
      assert(order.filledLots === 0, "a rejected submission filled");
      release(state, holdAccount, holdAmount);
      spot.orders.delete(orderId);
      spot.orderIdNext--;
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        true,
        order.filledLots === 0 ? order.heldUnits : -1
      );
      orderStatus = "open";
      break;
    case "filled":
    case "expired":
      settleGone(state, order, outcome.outcome);
      orderStatus = outcome.outcome;
      break;
  }
  return ok({
    orderId,
    orderStatus,
    filledLots: outcome.filledLots,
    restingLots: outcome.restingLots
  });
};
function lotsForQuote(market, book, ownerIndex, priceMaxTicks, quoteAmount) {
  let remaining = quoteAmount;
  let lots = 0;
  const lotsMax = market.quantityLotsMax;
  book.walk("buy", ownerIndex, (priceTicks, quantityLots) => {
    if (priceTicks > priceMaxTicks) return false;
    const lotCost = BigInt(priceTicks) * market.tickLotUnits;
    const affordable = divFloor(remaining, lotCost);
    let take = affordable < BigInt(quantityLots) ? Number(affordable) : quantityLots;
    if (take > lotsMax - lots) take = lotsMax - lots;
    lots += take;
    remaining -= BigInt(take) * lotCost;
    return take === quantityLots && lots < lotsMax;
  });
  return lots;
}

// ../../work/wt/w4/packages/kernel/src/spot/replace.ts
var replaceOrder = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  const market = order.market;
  if (!market.open) return fail("market_closed");
  const priceTicks = command.priceTicks;
  const lots = command.quantityLots;
  const code = limitCode(market, priceTicks, lots);
  if (code !== null) return fail(code);
  const isBuy = order.side === "buy";
  const unitsNew = holdUnits(market, isBuy, priceTicks, lots);
  const unitsOld = order.heldUnits;
  const exact = unitsNew >= 0 && unitsOld >= 0;
  let holdNew = null;
  let holdExtra = 0n;
  let grows;
  if (exact) {
    grows = unitsNew > unitsOld;
    if (grows) holdExtra = BigInt(unitsNew - unitsOld);
  } else {
    holdNew = holdFor(market, isBuy, priceTicks, lots);
    grows = holdNew > order.heldAmount;
    if (grows) holdExtra = holdNew - order.heldAmount;
  }
  if (grows && order.holdAccount.available < holdExtra) {
    return fail("insufficient_balance");
  }
  const priceBefore = order.priceTicks;
  const quantityBefore = order.quantityLots;
  const filledBefore = order.filledLots;
  const heldBefore = order.heldAmount;
  if (grows) {
    hold(state, order.holdAccount, holdExtra);
    if (holdNew === null) setHeldUnits(order, unitsNew);
    else setHeld(order, holdNew);
  }
  order.priceTicks = priceTicks;
  order.quantityLots = filledBefore + lots;
  emit(state, {
    type: "order_replaced",
    orderId: order.orderId,
    priceTicks,
    remainingLots: lots,
    heldAmount: order.heldAmount
  });
  const spot = state.spot;
  spot.taker = order;
  const change = spot.bookChange;
  change.priceTicks = priceTicks;
  change.quantityLots = lots;
  change.timeInForce = order.timeInForce;
  const outcome = order.book.replace(order.orderId, change, spot.listener);
  spot.taker = null;
  assert(outcome !== void 0, "an open order was not in its book");
  let orderStatus;
  switch (outcome.outcome) {
    case "rejected_post_only":
    case "rejected_fok":
    case "rejected_book_full":
      assert(order.filledLots === filledBefore, "a rejected replacement filled");
      order.priceTicks = priceBefore;
      order.quantityLots = quantityBefore;
      if (grows) {
        release(state, order.holdAccount, holdExtra);
        setHeld(order, heldBefore);
      }
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        false,
        order.filledLots === filledBefore ? unitsNew : -1
      );
      orderStatus = "open";
      break;
    case "filled":
    case "expired":
      settleGone(state, order, outcome.outcome);
      orderStatus = outcome.outcome;
      break;
  }
  return ok({
    orderId: order.orderId,
    orderStatus,
    filledLots: order.filledLots - filledBefore,
    restingLots: outcome.restingLots
  });
};

// ../../work/wt/w4/packages/kernel/src/spot/module.ts
var ownerMode2 = [
  ["ownerId", "string"],
  ["mode", "mode"]
];
var orderOutcome = ["orderId", "orderStatus", "filledLots", "restingLots"];
function big2(value) {
  return value === null ? null : value.toString();
}
var refuseFills = {
  onFill() {
    throw new Error("a restored book order crossed");
  },
  onSelfTradeCancel() {
    throw new Error("a restored book order crossed its owner");
  }
};
function createSpotState(state) {
  return {
    orders: /* @__PURE__ */ new Map(),
    orderIdNext: 1,
    fillIdNext: 1,
    openByOwner: [],
    taker: null,
    listener: createListener(state),
    bookInput: {
      orderId: 0,
      ownerId: 0,
      side: "buy",
      priceTicks: 0,
      quantityLots: 0,
      timeInForce: "gtc"
    },
    bookChange: { priceTicks: 0, quantityLots: 0, timeInForce: "gtc" }
  };
}
var spotModule = {
  name: "spot",
  createState: createSpotState,
  commands: {
    place_order: {
      typeCode: 12,
      fields: [
        ...ownerMode2,
        ["marketId", "string"],
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int?"],
        ["quoteAmount", "bigint?"]
      ],
      result: orderOutcome
    },
    cancel_order: {
      typeCode: 13,
      fields: [...ownerMode2, ["orderId", "int"]],
      result: ["orderId", "cancelledCount"]
    },
    replace_order: {
      typeCode: 14,
      fields: [...ownerMode2, ["orderId", "int"], ["priceTicks", "int"], ["quantityLots", "int"]],
      result: orderOutcome
    },
    cancel_all: {
      typeCode: 15,
      fields: [...ownerMode2, ["marketId", "string?"]],
      result: ["cancelledCount"]
    }
  },
  handlers: {
    place_order: placeOrder,
    cancel_order: cancelOrder,
    replace_order: replaceOrder,
    cancel_all: cancelAll
  },
  onDemoReset(state, owner) {
    return cancelOwnerOrders(state, owner, null, "demo_reset");
  },
  snapshot: {
    write(state) {
      const spot = state.spot;
      const orders = [...spot.orders.values()].sort((a, b) => a.orderId - b.orderId).map((o) => [
        o.orderId,
        o.clientOrderId,
        o.owner.mode,
        o.owner.ownerId,
        o.market.marketId,
        o.side,
        o.orderType,
        o.timeInForce,
        o.priceTicks,
        o.quantityLots,
        big2(o.quoteAmount),
        o.filledLots,
        big2(o.heldAmount),
        o.createdAtMs
      ]);
      const books = [];
      const markets = [...state.reference.markets.values()].sort(
        (a, b) => a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0
      );
      for (const market of markets) {
        for (const mode of ["real", "demo"]) {
          const book = mode === "real" ? market.bookReal : market.bookDemo;
          const queue = [];
          for (const resting of book.orders()) queue.push(resting.orderId);
          books.push([market.marketId, mode, queue]);
        }
      }
      return { orderIdNext: spot.orderIdNext, fillIdNext: spot.fillIdNext, orders, books };
    },
    read(state, json) {
      const spot = state.spot;
      spot.orderIdNext = json.orderIdNext;
      spot.fillIdNext = json.fillIdNext;
      const owners2 = state.ledger.owners;
      for (const r of json.orders) {
        const mode = r[2];
        const owner = owners2.get(mode + "|" + r[3]);
        const market = state.reference.markets.get(r[4]);
        assert(
          owner !== void 0 && market !== void 0,
          "snapshot order without owner or market"
        );
        const side = r[5];
        const baseAccount = accountOf(state, owner, "fund", market.base.assetId);
        const quoteAccount = accountOf(state, owner, "fund", market.quote.assetId);
        const order = {
          orderId: r[0],
          clientOrderId: r[1],
          owner,
          ownerId: owner.ownerId,
          mode,
          market,
          book: mode === "real" ? market.bookReal : market.bookDemo,
          side,
          orderType: r[6],
          timeInForce: r[7],
          priceTicks: r[8],
          quantityLots: r[9],
          quoteAmount: r[10] === null ? null : BigInt(r[10]),
          filledLots: r[11],
          heldAmount: BigInt(r[12]),
          heldUnits: unitsOf(BigInt(r[12])),
          holdAccount: side === "buy" ? quoteAccount : baseAccount,
          baseAccount,
          quoteAccount,
          status: "open",
          createdAtMs: r[13]
        };
        spot.orders.set(order.orderId, order);
        openOrderIds(spot, owner).add(order.orderId);
      }
      for (const [marketId2, mode, queue] of json.books) {
        const market = state.reference.markets.get(marketId2);
        const book = mode === "real" ? market.bookReal : market.bookDemo;
        for (const orderId of queue) {
          const order = spot.orders.get(orderId);
          assert(order !== void 0 && order.book === book, "snapshot book order unknown");
          const outcome = book.submit(
            {
              orderId,
              ownerId: order.owner.index,
              side: order.side,
              priceTicks: order.priceTicks,
              quantityLots: order.quantityLots - order.filledLots,
              timeInForce: "gtc"
            },
            refuseFills
          );
          assert(outcome.outcome === "rested", "a restored order did not rest");
        }
      }
    }
  },
  checkInvariants(state) {
    const spot = state.spot;
    for (const order of spot.orders.values()) {
      assert(order.status === "open", `order ${order.orderId} in the open set is ${order.status}`);
      assert(order.heldAmount > 0n, `open order ${order.orderId} holds nothing`);
      const remaining = order.quantityLots - order.filledLots;
      const resting = order.book.get(order.orderId);
      assert(resting !== void 0, `open order ${order.orderId} is not in its book`);
      assert(resting.remainingLots === remaining, `order ${order.orderId} lots disagree`);
      assert(resting.priceTicks === order.priceTicks, `order ${order.orderId} price disagrees`);
      assert(resting.side === order.side, `order ${order.orderId} side disagrees`);
      const expectedHold = order.side === "buy" ? BigInt(order.priceTicks) * BigInt(remaining) * order.market.tickLotUnits : BigInt(remaining) * order.market.lotUnits;
      assert(order.heldAmount === expectedHold, `order ${order.orderId} hold is wrong`);
      assert(
        order.heldUnits === unitsOf(order.heldAmount),
        `order ${order.orderId} hold copy is wrong`
      );
      assert(
        openOrderIds(spot, order.owner).has(order.orderId),
        `order ${order.orderId} not listed by owner`
      );
      order.holdAccount.heldExpected += order.heldAmount;
    }
    let listed = 0;
    for (const ids of spot.openByOwner) listed += ids?.size ?? 0;
    assert(listed === spot.orders.size, "owners list orders that are not open");
    let booked = 0;
    for (const market of state.reference.markets.values()) {
      booked += market.bookReal.orderCount + market.bookDemo.orderCount;
      for (const book of [market.bookReal, market.bookDemo]) {
        assert(book.levelCount("buy") <= market.levelsPerSideMax, "too many bid levels");
        assert(book.levelCount("sell") <= market.levelsPerSideMax, "too many ask levels");
      }
    }
    assert(booked === spot.orders.size, "books hold orders the kernel does not know");
  }
};

// ../../work/wt/w4/packages/kernel/src/registry.ts
var modules = [ledgerModule, scheduleModule, referenceModule, fundsModule, spotModule];
var kernelModules = Object.freeze([...modules]);
function merge(key) {
  const table = {};
  for (const module2 of kernelModules) {
    for (const [type, entry] of Object.entries(module2[key] ?? {})) {
      assert(!Object.hasOwn(table, type), `two modules claim the command type ${type}`);
      table[type] = entry;
    }
  }
  return Object.freeze(table);
}
var handlers = merge("handlers");
var commandCodecs = merge("commands");
var commandTypesByCode = (() => {
  const byCode = [];
  for (const type of Object.keys(commandCodecs)) {
    const code = commandCodecs[type].typeCode;
    assert(Number.isInteger(code) && code >= 0 && code < 256, `bad type code of ${type}`);
    assert(byCode[code] === void 0, `two command types share type code ${code}`);
    byCode[code] = type;
  }
  return Object.freeze(byCode);
})();

// ../../work/wt/w4/packages/kernel/src/fingerprint.ts
var Fingerprinter = class {
  hashA = 0;
  hashB = 0;
  scratch = new Float64Array(1);
  scratchWords = new Int32Array(this.scratch.buffer);
  /** Writes the two hashes of `command` to `out[0]` and `out[1]`; returns its type code. */
  fingerprint(command, out) {
    let typeCode;
    switch (command.type) {
      case "replace_order":
        typeCode = 14;
        this.start(14);
        this.mixString(command.ownerId);
        this.mixString(command.mode);
        this.mixNumber(command.orderId);
        this.mixNumber(command.priceTicks);
        this.mixNumber(command.quantityLots);
        break;
      case "cancel_order":
        typeCode = 13;
        this.start(13);
        this.mixString(command.ownerId);
        this.mixString(command.mode);
        this.mixNumber(command.orderId);
        break;
      case "place_order":
        typeCode = 12;
        this.start(12);
        this.mixString(command.ownerId);
        this.mixString(command.mode);
        this.mixString(command.marketId);
        this.mixString(command.side);
        this.mixString(command.orderType);
        this.mixString(command.timeInForce);
        this.mixValue(command.priceTicks);
        this.mixValue(command.quantityLots);
        this.mixValue(command.quoteAmount);
        break;
      default:
        typeCode = this.fingerprintBySchema(command);
    }
    out[0] = this.hashA;
    out[1] = this.hashB ^ this.hashB >>> 13;
    return typeCode;
  }
  /** The general fingerprint: every schema field in order (before the final mix of `out`). */
  fingerprintBySchema(command) {
    const entry = commandCodecs[command.type];
    this.start(entry.typeCode);
    const schema = entry.fields;
    const record = command;
    for (let i = 0; i < schema.length; i++) this.mixValue(record[schema[i][0]]);
    return entry.typeCode;
  }
  /** Writes the schema-walk fingerprint (for tests of the hand-written ones). */
  fingerprintGeneral(command, out) {
    this.fingerprintBySchema(command);
    out[0] = this.hashA;
    out[1] = this.hashB ^ this.hashB >>> 13;
  }
  start(typeCode) {
    this.hashA = 2166136261 ^ typeCode;
    this.hashB = 625341585 ^ Math.imul(typeCode + 1, 2654435761);
  }
  mixValue(value) {
    if (value === null) {
      this.mix(1853189228);
    } else if (typeof value === "string") {
      this.mixString(value);
    } else if (typeof value === "number") {
      this.mixNumber(value);
    } else if (typeof value === "bigint") {
      let rest = value;
      this.mix(value < 0n ? 45 : 43);
      if (rest < 0n) rest = -rest;
      do {
        this.mix(Number(BigInt.asUintN(32, rest)) | 0);
        rest >>= 32n;
      } while (rest > 0n);
    } else {
      this.mix(value === true ? 116 : 102);
    }
  }
  mixString(value) {
    this.mix(value.length ^ 1929379840);
    for (let k = 0; k < value.length; k++) this.mix(value.charCodeAt(k));
  }
  mixNumber(value) {
    if ((value | 0) === value) {
      this.mix(value);
      this.mix(1761607680);
    } else {
      this.scratch[0] = value;
      this.mix(this.scratchWords[0]);
      this.mix(this.scratchWords[1] ^ 1845493760);
    }
  }
  mix(word) {
    this.hashA = Math.imul(this.hashA ^ word, 16777619);
    let hashB = Math.imul(this.hashB ^ word, 1540483477);
    hashB ^= hashB >>> 15;
    this.hashB = hashB;
  }
};

// ../../work/wt/w4/packages/kernel/src/id-index.ts
var EMPTY = 0;
var MODULUS = 2147483646;
function hashId(id) {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash | 0;
}
var IdIndex = class {
  constructor(source, capacity = 1024) {
    this.source = source;
    assert((capacity & capacity - 1) === 0, "capacity must be a power of two");
    this.table = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
  }
  source;
  table;
  mask;
  live = 0;
  get size() {
    return this.live;
  }
  absolute(stored) {
    const oldest = this.source.head;
    return oldest + (stored - 1 - oldest % MODULUS + MODULUS) % MODULUS;
  }
  // The last id looked up and its hash: `set` after a missed `get` (every new command) reuses it.
  lastId = "";
  lastHash = hashId("");
  /** The hash of `id` (cached for the id last asked about). */
  hashOf(id) {
    if (id !== this.lastId) {
      this.lastId = id;
      this.lastHash = hashId(id);
    }
    return this.lastHash;
  }
  /** The position of `id`, or -1. */
  get(id) {
    const hash = this.hashOf(id);
    const table = this.table;
    let index = hash & this.mask;
    for (; ; ) {
      const slot = table[index * 2];
      if (slot === EMPTY) return -1;
      if (table[index * 2 + 1] === hash) {
        const position = this.absolute(slot);
        const source = this.source;
        if (source.ids[position & source.mask] === id) return position;
      }
      index = index + 1 & this.mask;
    }
  }
  /** Adds `id` at `position`; the id must not be present. */
  set(id, position) {
    assert(position >= 0 && position < Number.MAX_SAFE_INTEGER, "id position out of range");
    if ((this.live + 1) * 2 > this.mask + 1) this.grow();
    const hash = this.hashOf(id);
    const table = this.table;
    let index = hash & this.mask;
    while (table[index * 2] !== EMPTY) index = index + 1 & this.mask;
    table[index * 2] = position % MODULUS + 1;
    table[index * 2 + 1] = hash;
    this.live++;
  }
  /** Removes `id` (which must be at `position`); `hash` is its `hashOf`, when known. */
  delete(id, position, hash = hashId(id)) {
    const stored = position % MODULUS + 1;
    const table = this.table;
    const mask = this.mask;
    let index = hash & mask;
    for (; ; ) {
      const slot = table[index * 2];
      assert(slot !== EMPTY, "deleting an id that is not indexed");
      if (slot === stored) break;
      index = index + 1 & mask;
    }
    this.live--;
    let hole = index;
    let next = hole + 1 & mask;
    for (; ; ) {
      const slot = table[next * 2];
      if (slot === EMPTY) break;
      const home = table[next * 2 + 1] & mask;
      if ((next - home & mask) >= (next - hole & mask)) {
        table[hole * 2] = slot;
        table[hole * 2 + 1] = table[next * 2 + 1];
        hole = next;
      }
      next = next + 1 & mask;
    }
    table[hole * 2] = EMPTY;
    table[hole * 2 + 1] = 0;
  }
  /** Re-inserts the entries into a table twice the size. */
  grow() {
    const old = this.table;
    const capacity = (this.mask + 1) * 2;
    const table = new Int32Array(capacity * 2);
    const mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      const slot = old[i];
      if (slot === EMPTY) continue;
      let index = old[i + 1] & mask;
      while (table[index * 2] !== EMPTY) index = index + 1 & mask;
      table[index * 2] = slot;
      table[index * 2 + 1] = old[i + 1];
    }
    this.table = table;
    this.mask = mask;
  }
};

// ../../work/wt/w4/packages/kernel/src/command-memory.ts
var codeIndex = Object.freeze(
  Object.fromEntries(rejectCodes.map((code, index) => [code, index]))
);
var statuses = ["open", "filled", "cancelled", "expired", "rejected"];
function statusCode(status) {
  switch (status) {
    case "open":
      return 0;
    case "filled":
      return 1;
    case "cancelled":
      return 2;
    case "expired":
      return 3;
    case "rejected":
      return 4;
  }
}
var numberSlots = { orderId: 0, filledLots: 1, restingLots: 2, cancelledCount: 3, postingSeq: 4 };
var resultShapes = (() => {
  const shapes = new Uint8Array(commandTypesByCode.length).fill(5 /* Other */);
  const known = [
    ["", 0 /* None */],
    ["orderId,orderStatus,filledLots,restingLots", 1 /* OrderOutcome */],
    ["orderId,cancelledCount", 2 /* CancelOrder */],
    ["cancelledCount", 3 /* CancelledCount */],
    ["postingSeq", 4 /* PostingSeq */]
  ];
  commandTypesByCode.forEach((type, code) => {
    const fields = commandCodecs[type].result.join(",");
    for (const [list, shape] of known) if (list === fields) shapes[code] = shape;
  });
  return shapes;
})();
var CommandMemory = class {
  /**
   * Ids by slot; forgotten ones are undefined. Sized like the typed arrays and written by
   * index: growing an array by `push` cost more than everything else the memory does.
   */
  ids = new Array(1024).fill(void 0);
  /** Capacity − 1 (capacity is a power of two). */
  mask = 1023;
  /** Oldest remembered position; positions before it are forgotten. */
  head = 0;
  /** The next position to fill. */
  tail = 0;
  atMs = new Float64Array(1024);
  types = new Uint8Array(1024);
  prints = new Int32Array(2048);
  /** The index hash of each id, so expiry needs no rehashing. */
  hashes = new Int32Array(1024);
  /** -1 = ok, else the reject code's index. */
  codes = new Int16Array(1024);
  /** -1 = null, else the status index. */
  statuses = new Int8Array(1024);
  /** orderId, filledLots, restingLots, cancelledCount, postingSeq; NaN = null. */
  numbers = new Float64Array(5 * 1024);
  index;
  print = new Int32Array(2);
  fingerprinter = new Fingerprinter();
  constructor() {
    this.index = new IdIndex(this);
  }
  /** How many commands are remembered. */
  get size() {
    return this.index.size;
  }
  /** The position of a remembered id, or -1. */
  find(id) {
    return this.index.get(id);
  }
  /** True when `command` has the content of the one remembered at `position`. */
  sameContent(position, command) {
    const at = position & this.mask;
    if (commandTypesByCode[this.types[at]] !== command.type) return false;
    this.fingerprinter.fingerprint(command, this.print);
    return this.prints[2 * at] === this.print[0] && this.prints[2 * at + 1] === this.print[1];
  }
  /** The first result of the command at `position`, as a fresh object. */
  result(position) {
    const at = position & this.mask;
    const code = this.codes[at];
    if (code >= 0) return { ok: false, code: rejectCodes[code] };
    const type = commandTypesByCode[this.types[at]];
    const value = {};
    for (const field of commandCodecs[type].result) {
      if (field === "orderStatus") value.orderStatus = statuses[this.statuses[at]];
      else value[field] = this.numbers[5 * at + numberSlots[field]];
    }
    return { ok: true, value };
  }
  /** Remembers a command (whose id is not remembered) and its result. */
  remember(command, result) {
    const typeCode = this.fingerprinter.fingerprint(command, this.print);
    this.add(command.id, command.atMs, typeCode, this.print[0], this.print[1], result);
  }
  /** Remembers an entry restored from a snapshot. */
  restoreEntry(entry) {
    const typeCode = commandCodecs[entry.type].typeCode;
    this.add(entry.id, entry.atMs, typeCode, entry.print[0], entry.print[1], entry.result);
  }
  add(id, atMs, typeCode, print0, print1, result) {
    if (this.tail - this.head > this.mask) this.grow();
    const position = this.tail++;
    const at = position & this.mask;
    this.index.set(id, position);
    this.hashes[at] = this.index.hashOf(id);
    this.ids[at] = id;
    this.atMs[at] = atMs;
    this.types[at] = typeCode;
    this.prints[2 * at] = print0;
    this.prints[2 * at + 1] = print1;
    const n = this.numbers;
    const slot = 5 * at;
    n[slot] = Number.NaN;
    n[slot + 1] = Number.NaN;
    n[slot + 2] = Number.NaN;
    n[slot + 3] = Number.NaN;
    n[slot + 4] = Number.NaN;
    this.statuses[at] = -1;
    if (!result.ok) {
      this.codes[at] = codeIndex[result.code];
      return;
    }
    this.codes[at] = -1;
    switch (resultShapes[typeCode]) {
      case 0 /* None */:
        break;
      case 1 /* OrderOutcome */: {
        const v = result.value;
        n[5 * at] = v.orderId;
        this.statuses[at] = statusCode(v.orderStatus);
        n[5 * at + 1] = v.filledLots;
        n[5 * at + 2] = v.restingLots;
        break;
      }
      case 2 /* CancelOrder */: {
        const v = result.value;
        n[5 * at] = v.orderId;
        n[5 * at + 3] = v.cancelledCount;
        break;
      }
      case 3 /* CancelledCount */:
        n[5 * at + 3] = result.value.cancelledCount;
        break;
      case 4 /* PostingSeq */:
        n[5 * at + 4] = result.value.postingSeq;
        break;
      default: {
        const v = result.value;
        const status = v.orderStatus;
        this.statuses[at] = typeof status === "string" ? statusCode(status) : -1;
        for (const field of [
          "orderId",
          "filledLots",
          "restingLots",
          "cancelledCount",
          "postingSeq"
        ]) {
          const value = v[field];
          if (typeof value === "number") n[5 * at + numberSlots[field]] = value;
        }
      }
    }
  }
  /** Forgets up to `countMax` of the oldest commands older than `cutoffMs`. */
  prune(cutoffMs, countMax) {
    const end = Math.min(this.tail, this.head + countMax);
    const mask = this.mask;
    let head = this.head;
    while (head < end) {
      const at = head & mask;
      if (this.atMs[at] >= cutoffMs) break;
      this.index.delete(this.ids[at], head, this.hashes[at]);
      this.ids[at] = void 0;
      head++;
    }
    this.head = head;
  }
  /** Every remembered command, oldest first. */
  *entries() {
    for (let position = this.head; position < this.tail; position++) {
      const at = position & this.mask;
      yield {
        id: this.ids[at],
        atMs: this.atMs[at],
        type: commandTypesByCode[this.types[at]],
        print: [this.prints[2 * at], this.prints[2 * at + 1]],
        result: this.result(position)
      };
    }
  }
  /** Doubles the ring buffers, moving each live entry to its slot under the new mask. */
  grow() {
    const oldMask = this.mask;
    const capacity = (oldMask + 1) * 2;
    const mask = capacity - 1;
    const ids = new Array(capacity).fill(void 0);
    const atMs = new Float64Array(capacity);
    const types = new Uint8Array(capacity);
    const prints = new Int32Array(2 * capacity);
    const hashes = new Int32Array(capacity);
    const codes = new Int16Array(capacity);
    const statuses2 = new Int8Array(capacity);
    const numbers = new Float64Array(5 * capacity);
    for (let position = this.head; position < this.tail; position++) {
      const from = position & oldMask;
      const to = position & mask;
      ids[to] = this.ids[from];
      atMs[to] = this.atMs[from];
      types[to] = this.types[from];
      prints[2 * to] = this.prints[2 * from];
      prints[2 * to + 1] = this.prints[2 * from + 1];
      hashes[to] = this.hashes[from];
      codes[to] = this.codes[from];
      statuses2[to] = this.statuses[from];
      for (let k = 0; k < 5; k++) numbers[5 * to + k] = this.numbers[5 * from + k];
    }
    this.ids = ids;
    this.atMs = atMs;
    this.types = types;
    this.prints = prints;
    this.hashes = hashes;
    this.codes = codes;
    this.statuses = statuses2;
    this.numbers = numbers;
    this.mask = mask;
  }
};

// ../../work/wt/w4/packages/kernel/src/state.ts
var defaultKernelOptions = {
  openOrdersPerOwnerMax: 200,
  openOrdersMarketMakerMax: 1e5,
  levelsPerSideMax: 1e3,
  ordersPerBookMax: 1e5,
  idempotencyWindowMs: 6e5,
  statementPostingsMax: 1e3,
  demoGrants: [{ assetId: "USDT", amount: "100000" }]
};
function createKernelState(options = {}, bookFactory = null) {
  const merged = { ...defaultKernelOptions, ...options };
  merged.demoGrants = merged.demoGrants.map((grant) => ({ ...grant }));
  const state = {
    options: merged,
    bookFactory: bookFactory ?? createOrderBook,
    modules: kernelModules,
    nowMs: 0,
    memory: new CommandMemory(),
    commandSerial: 0,
    events: [],
    eventCount: 0,
    command: null
  };
  const slices = state;
  for (const module2 of kernelModules) {
    if (module2.createState) slices[module2.name] = module2.createState(state);
  }
  openSystemOwners(state);
  return state;
}

// ../../work/wt/w4/packages/kernel/src/hash/sha256.ts
var K = new Int32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);

// ../../work/wt/w4/packages/kernel/src/command-codec.ts
var commandSchemas = Object.freeze(
  Object.fromEntries(
    Object.entries(commandCodecs).map(([type, entry]) => [type, entry.fields])
  )
);
var COMMAND_STRING_LENGTH_MAX = 256;
function fieldCode(kind, value) {
  switch (kind) {
    case "string":
      return typeof value === "string" && value.length <= COMMAND_STRING_LENGTH_MAX ? null : "command_malformed";
    case "string?":
      return value === null || typeof value === "string" && value.length <= COMMAND_STRING_LENGTH_MAX ? null : "command_malformed";
    case "int":
      return Number.isSafeInteger(value) ? null : "command_malformed";
    case "int?":
      return value === null || Number.isSafeInteger(value) ? null : "command_malformed";
    case "bigint":
      return typeof value === "bigint" ? null : "command_malformed";
    case "bigint?":
      return value === null || typeof value === "bigint" ? null : "command_malformed";
    case "bool":
      return typeof value === "boolean" ? null : "command_malformed";
    case "mode":
      return value === "real" || value === "demo" ? null : "mode_invalid";
    case "wallet":
      return value === "fund" || value === "contract" || value === "fiat" ? null : "wallet_invalid";
    case "side":
      return value === "buy" || value === "sell" ? null : "command_malformed";
    case "tif":
      return value === "gtc" || value === "ioc" || value === "fok" || value === "post_only" ? null : "time_in_force_invalid";
    case "order_type":
      return value === "limit" || value === "market" ? null : "order_type_invalid";
  }
}
function commandShapeCode(command) {
  if (command.type === "replace_order") {
    const c = command;
    if (typeof c.ownerId === "string" && c.ownerId.length <= COMMAND_STRING_LENGTH_MAX && (c.mode === "real" || c.mode === "demo") && Number.isSafeInteger(c.orderId) && Number.isSafeInteger(c.priceTicks) && Number.isSafeInteger(c.quantityLots)) {
      return null;
    }
  } else if (command.type === "place_order") {
    const c = command;
    if (typeof c.ownerId === "string" && c.ownerId.length <= COMMAND_STRING_LENGTH_MAX && (c.mode === "real" || c.mode === "demo") && typeof c.marketId === "string" && c.marketId.length <= COMMAND_STRING_LENGTH_MAX && (c.side === "buy" || c.side === "sell") && (c.orderType === "limit" || c.orderType === "market") && (c.timeInForce === "gtc" || c.timeInForce === "ioc" || c.timeInForce === "fok" || c.timeInForce === "post_only") && (c.priceTicks === null || Number.isSafeInteger(c.priceTicks)) && (c.quantityLots === null || Number.isSafeInteger(c.quantityLots)) && (c.quoteAmount === null || typeof c.quoteAmount === "bigint")) {
      return null;
    }
  } else if (command.type === "cancel_order") {
    const c = command;
    if (typeof c.ownerId === "string" && c.ownerId.length <= COMMAND_STRING_LENGTH_MAX && (c.mode === "real" || c.mode === "demo") && Number.isSafeInteger(c.orderId)) {
      return null;
    }
  }
  const schema = commandSchemas[command.type];
  if (schema === void 0 || !Object.hasOwn(commandSchemas, command.type)) {
    return "command_unknown";
  }
  const record = command;
  for (let i = 0; i < schema.length; i++) {
    const field = schema[i];
    const code = fieldCode(field[1], record[field[0]]);
    if (code !== null) return code;
  }
  return null;
}

// ../../work/wt/w4/packages/kernel/src/apply.ts
var NO_EVENTS = Object.freeze([]);
function rejected(code) {
  return { result: fail(code), events: NO_EVENTS, duplicate: false };
}
function isPrintableAscii(text) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 33 || code > 126) return false;
  }
  return true;
}
function apply(state, command) {
  if (typeof command !== "object" || command === null || typeof command.id !== "string") {
    return rejected("command_malformed");
  }
  const id = command.id;
  if (id.length === 0 || id.length > 128 || !isPrintableAscii(id)) {
    return rejected("command_id_invalid");
  }
  const shapeCode = commandShapeCode(command);
  if (shapeCode !== null) return rejected(shapeCode);
  const memory = state.memory;
  const seen = memory.find(id);
  if (seen !== -1) {
    if (memory.sameContent(seen, command)) {
      return {
        result: memory.result(seen),
        events: NO_EVENTS,
        duplicate: true
      };
    }
    return rejected("command_id_reused");
  }
  if (!Number.isSafeInteger(command.atMs) || command.atMs < 0) {
    return rejected("timestamp_invalid");
  }
  if (command.atMs < state.nowMs) return rejected("time_went_backwards");
  state.nowMs = command.atMs;
  state.commandSerial++;
  state.command = command;
  state.eventCount = 0;
  state.ledger.touchedCount = 0;
  const handler = handlers[command.type];
  const result = handler(state, command);
  let events;
  if (!result.ok) {
    assert(onlyRestorable(state), "a rejection emitted events");
    events = NO_EVENTS;
  } else {
    reportBalances(state);
    events = emittedEvents(state);
  }
  state.command = null;
  memory.remember(command, result);
  memory.prune(
    state.nowMs - state.options.idempotencyWindowMs,
    command.type === "clock_tick" ? Number.MAX_SAFE_INTEGER : 2
  );
  return { result, events, duplicate: false };
}
function onlyRestorable(state) {
  for (let i = 0; i < state.eventCount; i++) {
    const type = state.events[i].type;
    if (type !== "order_accepted" && type !== "order_replaced") return false;
  }
  return true;
}

// ../../work/wt/w4/packages/kernel/bench/kernel-workload.ts
var marketId = "BTC-USDT";
var clockTickEvery = 1e4;
function kernelNames(stream2, owners2) {
  const commandIds = [];
  for (let index = 0; index < stream2.length; index++) commandIds.push(`c${index}`);
  const ownerIds = [];
  for (let owner = 0; owner <= owners2; owner++) ownerIds.push(`u${owner}`);
  return { commandIds, ownerIds };
}
function applyOk(state, command) {
  const { result } = apply(state, command);
  if (!result.ok) throw new Error(`setup command ${command.id} rejected: ${result.code}`);
}
function kernelSetup(stream2, names2) {
  const state = createKernelState(
    {
      openOrdersPerOwnerMax: 1e5,
      openOrdersMarketMakerMax: 1e5,
      levelsPerSideMax: 1e5,
      ordersPerBookMax: 1e7,
      idempotencyWindowMs: 6e4,
      demoGrants: []
    },
    createOrderBook
  );
  let atMs = 17e11;
  const base = { atMs };
  applyOk(state, {
    type: "define_asset",
    id: "s-btc",
    ...base,
    assetId: "BTC",
    scale: 8,
    amountMax: null
  });
  applyOk(state, {
    type: "define_asset",
    id: "s-usdt",
    ...base,
    assetId: "USDT",
    scale: 6,
    amountMax: null
  });
  applyOk(state, {
    type: "define_market",
    id: "s-market",
    ...base,
    marketId,
    baseAssetId: "BTC",
    quoteAssetId: "USDT",
    instrumentId: null,
    priceStep: "0.01",
    lotSize: "0.0001",
    quantityLotsMin: 1,
    quantityLotsMax: 1e6,
    feeBpsMaker: 1,
    feeBpsTaker: 2,
    priceBandBps: 5e3,
    levelsPerSideMax: null,
    ordersPerBookMax: null
  });
  applyOk(state, { type: "set_market_session", id: "s-open", ...base, marketId, open: true });
  applyOk(state, {
    type: "record_tick",
    id: "s-tick",
    ...base,
    tickId: "t1",
    instrumentId: marketId,
    price: "1000",
    tickAtMs: atMs
  });
  for (let owner = 1; owner < names2.ownerIds.length; owner++) {
    const ownerId = names2.ownerIds[owner];
    applyOk(state, {
      type: "open_accounts",
      id: `s-open-${owner}`,
      ...base,
      ownerId,
      mode: "real"
    });
    for (const [assetId, amount] of [
      ["BTC", 100000n * 10n ** 8n],
      ["USDT", 100000000000n * 10n ** 6n]
    ]) {
      applyOk(state, {
        type: "credit_deposit",
        id: `s-deposit-${owner}-${assetId}`,
        ...base,
        ownerId,
        mode: "real",
        assetId,
        amount,
        reference: `bench-${owner}-${assetId}`,
        operatorId: "bench"
      });
    }
  }
  atMs += 1;
  return { state, kernelOrderIds: new Float64Array(stream2.orderId.length + 1), atMs };
}
function runKernel(run, stream2, names2, from, to) {
  const { state, kernelOrderIds } = run;
  const { kind, orderId, ownerId, side, priceTicks, quantityLots } = stream2;
  const { commandIds, ownerIds } = names2;
  for (let index = from; index < to; index++) {
    const atMs = run.atMs++;
    const id = commandIds[index];
    const owner = ownerIds[ownerId[index]];
    const streamOrderId = orderId[index];
    switch (kind[index]) {
      case 0:
      case 1:
      case 2: {
        const market = kind[index] === 2;
        const { result } = apply(state, {
          type: "place_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          marketId,
          side: side[index] === 0 ? "buy" : "sell",
          orderType: market ? "market" : "limit",
          timeInForce: kind[index] === 0 ? "gtc" : "ioc",
          priceTicks: market ? null : priceTicks[index],
          quantityLots: quantityLots[index],
          quoteAmount: null
        });
        if (result.ok && result.value.orderId !== null) {
          kernelOrderIds[streamOrderId] = result.value.orderId;
        }
        break;
      }
      case 3:
        apply(state, {
          type: "cancel_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          orderId: kernelOrderIds[streamOrderId]
        });
        break;
      case 4:
        apply(state, {
          type: "replace_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          orderId: kernelOrderIds[streamOrderId],
          priceTicks: priceTicks[index],
          quantityLots: quantityLots[index]
        });
        break;
    }
    if (index % clockTickEvery === 0) {
      apply(state, { type: "clock_tick", id: `${id}-clock`, atMs });
    }
  }
}

// ../../work/wt/w4/packages/kernel/bench/profile-w4.ts
var owners = 1e3;
var stream = generate({
  seed: 4,
  operations: 1e6,
  restingTarget: 1e3,
  levelsPerSide: 800,
  quantityMax: 100,
  owners
});
var names = kernelNames(stream, owners);
var rounds = Number(process.env.ROUNDS ?? 3);
var best = 0;
for (let round = 0; round < rounds; round++) {
  const run = kernelSetup(stream, names);
  const started = process.cpuUsage();
  runKernel(run, stream, names, 0, stream.length);
  const used = process.cpuUsage(started);
  const seconds = (used.user + used.system) / 1e6;
  const rate = Math.round(stream.length / seconds);
  best = Math.max(best, rate);
  console.log(`round ${round}: ${rate} commands per CPU second`);
}
console.log(`best: ${best}`);
