// The order book's contract. Two implementations keep it: `order-book.reference.ts` (slow,
// obviously right) and `order-book.ts` (fast); property tests hold them to the same fills.
// The book knows prices in ticks and quantities in lots, as safe integers: money, holds and fees
// are the ledger's business, so no bigint is needed on the matching path.

/** Which side an order is on: a buy order rests among the bids, a sell order among the asks. */
export type Side = "buy" | "sell";

/**
 * How long an order may live. `gtc` rests until filled or cancelled; `ioc` fills what it can
 * now and drops the rest; `fok` fills completely now or does nothing; `post_only` rests
 * without ever taking liquidity, or does nothing if it would cross.
 */
export type TimeInForce = "gtc" | "ioc" | "fok" | "post_only";

/**
 * Self-trade prevention: what happens when an incoming order would trade with a resting order
 * of the same owner (the modes of Binance's STP and Coinbase's self-trade prevention).
 * `cancel_resting` (the default, Binance's EXPIRE_MAKER) removes the resting order and matching
 * goes on; `cancel_incoming` (EXPIRE_TAKER) stops matching there and drops the incoming
 * remainder, the resting order stays; `cancel_both` (EXPIRE_BOTH) removes the resting order and
 * drops the incoming remainder. An incoming remainder dropped this way never rests.
 */
export type SelfTradeMode = "cancel_resting" | "cancel_incoming" | "cancel_both";

export const selfTradeModes: readonly SelfTradeMode[] = [
  "cancel_resting",
  "cancel_incoming",
  "cancel_both",
];

/**
 * An order arriving at the book. Market orders arrive as `ioc` at the edge of the price band.
 * Books read it during the call and never keep it, so a caller may reuse one object.
 */
export interface BookOrderInput {
  /** Unique within the book, a positive safe integer; the kernel issues them in rising order. */
  orderId: number;
  /** Whose order it is, for self-trade prevention. */
  ownerId: number;
  side: Side;
  /** Limit price in ticks: the worst price this order accepts. Positive. */
  priceTicks: number;
  /** Quantity in lots. Positive. */
  quantityLots: number;
  timeInForce: TimeInForce;
  /** Default `cancel_resting`. */
  selfTradeMode?: SelfTradeMode;
}

/** What matching reports, in the order it happens. */
export interface BookListener {
  /** The incoming order traded with a resting one, at the resting order's price. */
  onFill(fill: BookFill): void;
  /**
   * A resting order of the incoming order's owner stood in the way and was removed
   * (self-trade prevention: cancel the resting order), before any further matching.
   */
  onSelfTradeCancel(restingOrderId: number, remainingLots: number): void;
}

/** One trade between the incoming (taker) order and a resting (maker) order. */
export interface BookFill {
  makerOrderId: number;
  makerOwnerId: number;
  priceTicks: number;
  quantityLots: number;
  /** Lots the maker still has resting after this fill; 0 means it left the book. */
  makerRemainingLots: number;
}

/**
 * How a submission ended. The three `rejected_*` outcomes change nothing: no fills, no
 * self-trade cancels, nothing rests.
 */
export type SubmitOutcome =
  | "rested" // What was not filled now rests (gtc, post_only).
  | "filled" // Filled completely.
  | "expired" // ioc (or market): what was not filled was dropped.
  | "rejected_post_only" // A post_only order would have taken liquidity.
  | "rejected_fok" // A fok order could not be filled completely.
  | "rejected_book_full"; // The remainder would need a new price level on a full side.

export interface SubmitResult {
  outcome: SubmitOutcome;
  filledLots: number;
  /** Lots left resting in the book (0 unless `rested`). */
  restingLots: number;
  /**
   * True when self-trade prevention (`cancel_incoming` or `cancel_both`) dropped the incoming
   * remainder; the outcome is then `expired`. Absent otherwise.
   */
  selfTradeStopped?: true;
}

/** A resting order as the book holds it. */
export interface RestingOrder {
  orderId: number;
  ownerId: number;
  side: Side;
  priceTicks: number;
  /** Lots not yet filled. */
  remainingLots: number;
}

/** One price level: its total quantity and how many orders queue there. */
export interface DepthLevel {
  priceTicks: number;
  quantityLots: number;
  orderCount: number;
}

/** Limits that keep a book's memory and work bounded. */
export interface BookLimits {
  /** Most distinct price levels on one side. */
  levelsPerSideMax: number;
  /** Most resting orders in the whole book. An order that would exceed it is `rejected_book_full`. */
  ordersMax: number;
  /**
   * Widest range of resting prices, both sides together, in ticks (highest − lowest + 1). An
   * order whose remainder would rest outside it is `rejected_book_full`. It bounds the fast
   * book's price ladder. Default `priceSpanTicksMaxDefault`.
   */
  priceSpanTicksMax?: number;
}

/** Default `BookLimits.priceSpanTicksMax`: 2^20 ticks, a 4 MiB ladder at most. */
export const priceSpanTicksMaxDefault = 1 << 20;

/** The new terms of a resting order being replaced (moved). Never kept by the book. */
export interface OrderChange {
  /** New limit price in ticks. Positive. */
  priceTicks: number;
  /** New quantity in lots, replacing what remained. Positive. */
  quantityLots: number;
  /** Default `gtc`. */
  timeInForce?: TimeInForce;
  /** Default `cancel_resting`. */
  selfTradeMode?: SelfTradeMode;
}

/** A central limit order book for one market: price-time priority. */
export interface OrderBook {
  /** Matches the order against the other side, then rests, drops or rejects what is left. */
  submit(order: BookOrderInput, listener: BookListener): SubmitResult;
  /** Removes a resting order; undefined when it is not resting (unknown, filled or cancelled). */
  cancel(orderId: number): RestingOrder | undefined;
  /**
   * Replaces (moves) a resting order: as if it were cancelled and `change` submitted with the
   * same order id, owner and side, so it loses its time priority and may trade. When that
   * submission is rejected, nothing changes and the old order keeps its place. Undefined when
   * the order is not resting.
   */
  replace(orderId: number, change: OrderChange, listener: BookListener): SubmitResult | undefined;
  /**
   * Lowers a resting order's remaining lots to `remainingLots` (positive, below what remains)
   * in place: it keeps its time priority. Undefined when the order is not resting, else the
   * order as it now rests.
   */
  reduce(orderId: number, remainingLots: number): RestingOrder | undefined;
  /** A resting order, or undefined. */
  get(orderId: number): RestingOrder | undefined;
  /**
   * Lots an incoming order on `side` could fill at prices no worse than `limitPriceTicks`,
   * skipping `ownerId`'s own orders; counting stops at `lotsWanted`. Used for fok and for
   * sizing market buys by a quote amount.
   */
  fillableLots(side: Side, limitPriceTicks: number, ownerId: number, lotsWanted: number): number;
  /**
   * Walks the levels an incoming order on `side` would take, best first, without changing
   * anything; `visit` returns false to stop. Own orders of `ownerId` are left out of the
   * quantities, and levels holding only their orders are skipped. Used to size a market buy
   * by the quote amount it may spend.
   */
  walk(
    side: Side,
    ownerId: number,
    visit: (priceTicks: number, quantityLots: number) => boolean,
  ): void;
  /** Best bid (side "buy") or best ask (side "sell"), or undefined when that side is empty. */
  bestPrice(side: Side): number | undefined;
  /** Up to `levelsMax` levels of one side, best first. */
  depth(side: Side, levelsMax: number): DepthLevel[];
  /**
   * Every resting order in priority order: bids best first, then asks best first, each level
   * oldest first. Snapshots and the state hash read the book through this.
   */
  orders(): IterableIterator<RestingOrder>;
  /** Resting orders in the book. */
  readonly orderCount: number;
  /** Price levels on one side. */
  levelCount(side: Side): number;
}

/** Builds an empty book. Both implementations export one of these. */
export type OrderBookFactory = (limits: BookLimits) => OrderBook;
