// Seeded command streams for the kernel benchmark and the loops that feed them to our book and
// to nodejs-order-book 10.1.1, plus the measuring harness (median of 3 after a warm-up).
//
// W1: 1M operations in the exchange-core mix (9 % GTC limit, 3 % IOC or market, 6 % cancel,
//     82 % move = cancel and replace) over ~1,000 resting orders on ~750 price levels.
// W2: 200K operations in the same mix over ~10K resting orders on 5 levels per side.
import { getHeapSpaceStatistics } from "node:v8";
import { OrderBook as PeerBook, Side as PeerSide } from "nodejs-order-book";
import { createOrderBook } from "../src/book/index.ts";
import type { BookListener, OrderBook } from "../src/book/index.ts";

export const verbose = process.env.BENCH_VERBOSE === "1";
const centerPriceTicks = 100_000;
const marketBuyPriceTicks = 1_000_000;

const kindGtc = 0;
const kindIoc = 1;
const kindMarket = 2;
const kindCancel = 3;
const kindMove = 4;

/** A command stream as columns; the first `preloadCount` commands build the starting book. */
export interface Stream {
  length: number;
  preloadCount: number;
  kind: Uint8Array;
  orderId: Float64Array;
  ownerId: Float64Array;
  /** 0 buy, 1 sell. */
  side: Uint8Array;
  priceTicks: Float64Array;
  quantityLots: Float64Array;
  /** The peer's string order ids, by our numeric id. */
  peerIds: string[];
}

/** Seeded 32-bit generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface WorkloadShape {
  seed: number;
  operations: number;
  restingTarget: number;
  /** Passive prices lie within this many ticks of the centre on each side. */
  levelsPerSide: number;
  /** Largest order, in lots. */
  quantityMax: number;
  /** Owners are drawn from 1 to this; few owners mean self-trades. */
  owners: number;
}

/**
 * Generates a stream by simulating it on our book: cancels and moves always name a live order,
 * and aggressive orders are steered so the book hovers around `restingTarget` orders.
 */
export function generate(shape: WorkloadShape): Stream {
  const next = random(shape.seed);
  const integer = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const capacity = shape.operations + shape.restingTarget;
  const stream: Stream = {
    length: 0,
    preloadCount: 0,
    kind: new Uint8Array(capacity),
    orderId: new Float64Array(capacity),
    ownerId: new Float64Array(capacity),
    side: new Uint8Array(capacity),
    priceTicks: new Float64Array(capacity),
    quantityLots: new Float64Array(capacity),
    peerIds: [""],
  };
  const book = createOrderBook({ levelsPerSideMax: 100_000, ordersMax: 10_000_000 });
  const live: number[] = [];
  const livePosition = new Map<number, number>();
  const liveSide = new Map<number, number>();
  const liveOwner = new Map<number, number>();
  const livePrice = new Map<number, number>();
  function liveRemove(orderId: number): void {
    const position = livePosition.get(orderId);
    if (position === undefined) return;
    const last = live.pop()!;
    if (last !== orderId) {
      live[position] = last;
      livePosition.set(last, position);
    }
    livePosition.delete(orderId);
  }
  function liveAdd(orderId: number, side: number, priceTicks: number, ownerId: number): void {
    liveOwner.set(orderId, ownerId);
    livePosition.set(orderId, live.length);
    live.push(orderId);
    liveSide.set(orderId, side);
    livePrice.set(orderId, priceTicks);
  }
  const listener: BookListener = {
    onFill(fill) {
      if (fill.makerRemainingLots === 0) liveRemove(fill.makerOrderId);
    },
    onSelfTradeCancel(orderId) {
      liveRemove(orderId);
    },
  };
  let orderIdNext = 1;

  function passivePrice(side: number, near?: number): number {
    const bestBid = book.bestPrice("buy");
    const bestAsk = book.bestPrice("sell");
    if (side === 0) {
      let price = near === undefined ? centerPriceTicks - integer(1, shape.levelsPerSide) : near;
      price = Math.max(price, centerPriceTicks - shape.levelsPerSide);
      if (bestAsk !== undefined) price = Math.min(price, bestAsk - 1);
      return Math.min(price, centerPriceTicks - 1 + shape.levelsPerSide);
    }
    let price = near === undefined ? centerPriceTicks + integer(0, shape.levelsPerSide - 1) : near;
    price = Math.min(price, centerPriceTicks + shape.levelsPerSide - 1);
    if (bestBid !== undefined) price = Math.max(price, bestBid + 1);
    return Math.max(price, centerPriceTicks - shape.levelsPerSide);
  }

  function aggressivePrice(side: number): number | undefined {
    const best = book.bestPrice(side === 0 ? "sell" : "buy");
    if (best === undefined) return undefined;
    return side === 0 ? best + integer(0, 2) : best - integer(0, 2);
  }

  function push(
    kind: number,
    orderId: number,
    side: number,
    priceTicks: number,
    quantityLots: number,
  ): void {
    const index = stream.length++;
    stream.kind[index] = kind;
    stream.orderId[index] = orderId;
    // Cancels and moves name the order's owner, as the kernel's commands must.
    stream.ownerId[index] = liveOwner.get(orderId) ?? integer(1, shape.owners);
    stream.side[index] = side;
    stream.priceTicks[index] = priceTicks;
    stream.quantityLots[index] = quantityLots;
    const ownerId = stream.ownerId[index]!;
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
            timeInForce: kind === kindGtc ? "gtc" : "ioc",
          },
          listener,
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

  function newOrder(kind: number, side: number, priceTicks: number, quantityLots?: number): void {
    const orderId = orderIdNext++;
    stream.peerIds.push(String(orderId));
    push(kind, orderId, side, priceTicks, quantityLots ?? integer(1, shape.quantityMax));
  }

  // Preload: passive orders up to the target.
  while (live.length < shape.restingTarget) {
    const side = integer(0, 1);
    newOrder(kindGtc, side, passivePrice(side));
  }
  stream.preloadCount = stream.length;

  const stats = { aggressive: 0, levels: 0, resting: 0 };
  for (let operation = 0; operation < shape.operations; operation++) {
    const roll = next() * 100;
    const side = integer(0, 1);
    const crowded = live.length > shape.restingTarget;
    if (roll < 9 || live.length === 0) {
      const aggressive = crowded && next() < 0.5;
      const price = aggressive ? aggressivePrice(side) : undefined;
      if (price !== undefined) stats.aggressive++;
      newOrder(kindGtc, side, price ?? passivePrice(side));
    } else if (roll < 12) {
      // Below the target, takers stay small so the book can grow back.
      const quantityLots = integer(1, crowded ? shape.quantityMax : 10);
      if (next() < 0.5) {
        newOrder(kindIoc, side, aggressivePrice(side) ?? passivePrice(side), quantityLots);
      } else {
        newOrder(kindMarket, side, side === 0 ? marketBuyPriceTicks : 1, quantityLots);
      }
    } else if (roll < 18) {
      const orderId = live[integer(0, live.length - 1)]!;
      push(kindCancel, orderId, liveSide.get(orderId)!, 0, 0);
    } else {
      const orderId = live[integer(0, live.length - 1)]!;
      const orderSide = liveSide.get(orderId)!;
      const aggressive = crowded && next() < 0.1;
      let price = aggressive ? aggressivePrice(orderSide) : undefined;
      if (price === undefined) {
        price = passivePrice(orderSide, livePrice.get(orderId)! + integer(-10, 10));
      }
      push(kindMove, orderId, orderSide, price, integer(1, shape.quantityMax));
    }
    if (operation % 1000 === 0) {
      stats.levels += book.levelCount("buy") + book.levelCount("sell");
      stats.resting += book.orderCount;
    }
  }
  if (verbose) {
    const samples = Math.ceil(shape.operations / 1000);
    console.error(
      JSON.stringify({
        seed: shape.seed,
        operations: shape.operations,
        restingMean: Math.round(stats.resting / samples),
        levelsMean: Math.round(stats.levels / samples),
        aggressive: stats.aggressive,
      }),
    );
  }
  return stream;
}

/** Counts what our book reports, so the work cannot be optimised away. */
export const counters = { fills: 0, cancels: 0 };
const listener: BookListener = {
  onFill(fill) {
    counters.fills += fill.quantityLots;
  },
  onSelfTradeCancel() {
    counters.cancels++;
  },
};

/** Runs commands `from` to `to` (exclusive) of a stream on our book. */
export function runOurs(book: OrderBook, stream: Stream, from: number, to: number): void {
  const { kind, orderId, ownerId, side, priceTicks, quantityLots } = stream;
  for (let index = from; index < to; index++) {
    const id = orderId[index]!;
    switch (kind[index]) {
      case kindGtc:
      case kindIoc:
        book.submit(
          {
            orderId: id,
            ownerId: ownerId[index]!,
            side: side[index] === 0 ? "buy" : "sell",
            priceTicks: priceTicks[index]!,
            quantityLots: quantityLots[index]!,
            timeInForce: kind[index] === kindGtc ? "gtc" : "ioc",
          },
          listener,
        );
        break;
      case kindMarket:
        book.submit(
          {
            orderId: id,
            ownerId: ownerId[index]!,
            side: side[index] === 0 ? "buy" : "sell",
            priceTicks: priceTicks[index]!,
            quantityLots: quantityLots[index]!,
            timeInForce: "ioc",
          },
          listener,
        );
        break;
      case kindCancel:
        book.cancel(id);
        break;
      case kindMove:
        book.replace(
          id,
          { priceTicks: priceTicks[index]!, quantityLots: quantityLots[index]! },
          listener,
        );
        break;
    }
  }
}

/** Runs commands `from` to `to` (exclusive) of a stream on the peer book. */
export function runPeer(book: PeerBook, stream: Stream, from: number, to: number): void {
  const { kind, orderId, side, priceTicks, quantityLots, peerIds } = stream;
  const gtc = "GTC" as never;
  const ioc = "IOC" as never;
  for (let index = from; index < to; index++) {
    const id = peerIds[orderId[index]!]!;
    switch (kind[index]) {
      case kindGtc:
      case kindIoc:
        book.limit({
          id,
          side: side[index] === 0 ? PeerSide.BUY : PeerSide.SELL,
          size: quantityLots[index]!,
          price: priceTicks[index]!,
          timeInForce: kind[index] === kindGtc ? gtc : ioc,
        });
        break;
      case kindMarket:
        book.market({
          side: side[index] === 0 ? PeerSide.BUY : PeerSide.SELL,
          size: quantityLots[index]!,
        });
        break;
      case kindCancel:
        book.cancel(id);
        break;
      case kindMove:
        book.modify(id, { price: priceTicks[index]!, size: quantityLots[index]! });
        break;
    }
  }
}

const bookLimits = { levelsPerSideMax: 100_000, ordersMax: 10_000_000 };

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** `BENCH_CLOCK=wall` times runs by the wall clock instead of the process's CPU time. */
const wallClock = process.env.BENCH_CLOCK === "wall";

/** Operations per chunk: a round runs the two sides in turns of this many operations. */
const CHUNK = 50_000;

/** A young-generation collection (`--expose-gc`; the benchmark's Node flags include it). */
function collectYoungGarbage(): void {
  (globalThis as { gc?: (options: { type: "minor" }) => void }).gc?.({ type: "minor" });
}

/**
 * Seconds of one chunk: CPU time of the whole process (every thread, so garbage collection
 * counts), because on a shared machine the wall clock mostly measures how long we waited for a
 * core. The chunk ends with a young-generation collection, timed with it, so each side pays for
 * its own garbage and the next chunk starts with an empty young generation.
 */
function timeChunk(run: (from: number, to: number) => void, from: number, to: number): number {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  run(from, to);
  collectYoungGarbage();
  if (wallClock) return (performance.now() - wallStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / 1_000_000;
}

/**
 * One round: fresh runs of both sides, preloaded, then the stream up to `to` in turns of
 * `CHUNK` operations, ours then the peer's. Returns the seconds of each side's timed part. Both
 * sides see the same moments of a shared machine, so a change in its load between rounds moves
 * both; the ratio of a round is what the benchmark reports (the median of the rounds').
 */
function timeRound(
  ours: (from: number, to: number) => void,
  peer: (from: number, to: number) => void,
  stream: Stream,
  to = stream.length,
): [number, number] {
  ours(0, stream.preloadCount);
  peer(0, stream.preloadCount);
  collectGarbage();
  const faultsStart = verbose ? process.resourceUsage().minorPageFault : 0;
  let oursSeconds = 0;
  let peerSeconds = 0;
  for (let from = stream.preloadCount; from < to; from += CHUNK) {
    const end = Math.min(to, from + CHUNK);
    oursSeconds += timeChunk(ours, from, end);
    peerSeconds += timeChunk(peer, from, end);
  }
  if (verbose) {
    const faults = process.resourceUsage().minorPageFault - faultsStart;
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    const newSpaceMB = Math.round((newSpace?.space_size ?? 0) / 1e5) / 10;
    console.error(JSON.stringify({ oursSeconds, peerSeconds, faults, newSpaceMB }));
  }
  return [oursSeconds, peerSeconds];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Per-operation latencies in microseconds, [p50, p99], of `run` (fresh, not yet preloaded),
 * timing each operation on its own.
 */
export function percentiles(
  stream: Stream,
  run: (from: number, to: number) => void,
): [number, number] {
  run(0, stream.preloadCount);
  collectGarbage();
  const durations = new Float64Array(stream.length - stream.preloadCount);
  for (let index = stream.preloadCount; index < stream.length; index++) {
    const start = performance.now();
    run(index, index + 1);
    durations[index - stream.preloadCount] = performance.now() - start;
  }
  durations.sort();
  const at = (quantile: number) =>
    durations[Math.min(durations.length - 1, Math.floor(quantile * durations.length))]! * 1000;
  return [at(0.5), at(0.99)];
}

export interface Figures {
  workload: string;
  ops_per_s: number;
  peer_ops_per_s: number;
  ratio: number;
  p50_us: number;
  p99_us: number;
}

/** Rounds per workload (see `timeRound`); the figures are their medians. */
const ROUNDS = 5;

/** Measures one workload: warm-up runs, then `ROUNDS` rounds of both sides in turns. */
export function measure(
  workload: string,
  stream: Stream,
  ours: () => (from: number, to: number) => void,
  peer: () => (from: number, to: number) => void,
  latency: () => [number, number],
): Figures {
  const operations = stream.length - stream.preloadCount;
  // Warm up on a prefix (the slow peer would take minutes on all of W2). Our code needs a few
  // passes before V8's optimising compiler has settled; the peer's per-operation work is large
  // enough that one pass does it.
  const warmUpEnd = Math.min(stream.length, stream.preloadCount + 100_000);
  const idle = () => {};
  for (let pass = 0; pass < 3; pass++)
    timeRound(ours(), pass === 0 ? peer() : idle, stream, warmUpEnd);
  const oursSeconds: number[] = [];
  const peerSeconds: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [oursRound, peerRound] = timeRound(ours(), peer(), stream);
    oursSeconds.push(oursRound);
    peerSeconds.push(peerRound);
    ratios.push(peerRound / oursRound);
  }
  if (verbose) console.error(JSON.stringify({ workload, oursSeconds, peerSeconds, ratios }));
  const [p50, p99] = latency();
  return {
    workload,
    ops_per_s: Math.round(operations / median(oursSeconds)),
    peer_ops_per_s: Math.round(operations / median(peerSeconds)),
    ratio: Math.round(median(ratios) * 100) / 100,
    p50_us: Math.round(p50 * 100) / 100,
    p99_us: Math.round(p99 * 100) / 100,
  };
}

export function bookWorkload(workload: string, shape: WorkloadShape): Figures {
  const stream = generate(shape);
  return measure(
    workload,
    stream,
    () => {
      const book = createOrderBook(bookLimits);
      return (from, to) => runOurs(book, stream, from, to);
    },
    () => {
      const book = new PeerBook();
      return (from, to) => runPeer(book, stream, from, to);
    },
    () => {
      const book = createOrderBook(bookLimits);
      return percentiles(stream, (from, to) => runOurs(book, stream, from, to));
    },
  );
}
