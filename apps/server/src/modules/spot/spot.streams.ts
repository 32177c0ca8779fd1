import type { WsFill, WsOrder } from "@candor/contract";
import { getMarkets, type KernelState, type MarketView, type Mode } from "@candor/kernel";
import type { CandorApplied } from "../../engine/kernel-port.ts";
import { fillRecordOf } from "../../read-models/fill-record.ts";
import type { OrderRow, SpotRepository } from "./spot.repository.ts";
import { fillView, orderRowOf, orderView } from "./spot.views.ts";

/** Where the private `orders` and `fills` messages go (the WebSocket hub implements it). */
export interface SpotStreamSink {
  /** Sends `build()` to the user's connections subscribed to `stream`; builds only if any. */
  publishPrivate(
    userId: string,
    mode: Mode,
    stream: "orders" | "fills",
    build: () => WsOrder | WsFill,
  ): void;
}

/** What the streams read from the engine. */
export interface SpotStreamEngine {
  query<T>(fn: (state: KernelState) => T): T;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

/** A user's open order as the streams follow it. */
interface FollowedOrder {
  row: OrderRow;
  quoteAmount: bigint | null;
  /** Quote traded so far, smallest units. */
  filledQuote: bigint;
}

const isSystem = (ownerId: string) => ownerId.startsWith("system:");

/**
 * The private `orders` and `fills` streams: after every command, each user order it changed as
 * the order view, and each fill as the fill view from the user's side. Users' open orders are
 * followed in memory (kernel order limits bound them), starting from the read models and kept
 * up by the engine's events; the market maker's are not followed.
 */
export class SpotStreams {
  private readonly followed = new Map<number, FollowedOrder>();
  private readonly markets = new Map<string, MarketView>();
  /** Commands applied while the open orders load; handled once they are in. */
  private pending: CandorApplied[] | undefined = [];
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly engine: SpotStreamEngine,
    private readonly sink: SpotStreamSink,
  ) {
    this.unsubscribe = engine.subscribe((applied) => {
      if (this.pending) this.pending.push(applied);
      else this.handle(applied);
    });
  }

  /**
   * Starts following users' open orders: from the read models, then from the engine's events
   * after the sequence they hold. Start it before users can reach the engine (as the app does at
   * start-up), so no user order changes between the read models' cursor and the subscription.
   */
  static async start(
    engine: SpotStreamEngine,
    repository: Pick<SpotRepository, "openUserOrders">,
    sink: SpotStreamSink,
  ): Promise<SpotStreams> {
    const streams = new SpotStreams(engine, sink);
    const loaded = await repository.openUserOrders();
    for (const { order, filledQuote } of loaded.orders) {
      streams.followed.set(order.orderId, { row: order, quoteAmount: null, filledQuote });
    }
    const pending = streams.pending ?? [];
    streams.pending = undefined;
    for (const applied of pending) if (applied.sequence > loaded.sequence) streams.handle(applied);
    return streams;
  }

  stop(): void {
    this.unsubscribe();
  }

  private handle(applied: CandorApplied): void {
    if (applied.duplicate || applied.events.length === 0) return;
    const touched = new Set<number>();
    for (const event of applied.events) {
      switch (event.type) {
        case "order_accepted": {
          const order = event.order;
          if (isSystem(order.ownerId)) break;
          this.followed.set(order.orderId, {
            row: orderRowOf(order),
            quoteAmount: order.quoteAmount,
            filledQuote: 0n,
          });
          touched.add(order.orderId);
          break;
        }
        case "order_rested":
        case "order_replaced":
          this.update(event.orderId, touched, (row) => {
            row.priceTicks = event.priceTicks;
            row.remainingLots = event.remainingLots;
            row.status = "open";
          });
          break;
        case "order_cancelled":
          this.update(event.orderId, touched, (row) => {
            row.status = "cancelled";
            row.remainingLots = event.remainingLots;
          });
          break;
        case "order_done":
          this.update(event.orderId, touched, (row) => {
            row.status = event.status;
            row.filledLots = event.filledLots;
          });
          break;
        case "fill": {
          const fill = fillRecordOf(event, applied.sequence);
          for (const [orderId, ownerId] of [
            [fill.makerOrderId, fill.makerOwnerId],
            [fill.takerOrderId, fill.takerOwnerId],
          ] as const) {
            const followed = this.update(orderId, touched, (row) => {
              row.filledLots += fill.quantityLots;
              row.remainingLots -= fill.quantityLots;
            });
            if (followed) followed.filledQuote += fill.quoteAmount;
            if (isSystem(ownerId) || applied.replay) continue;
            this.sink.publishPrivate(ownerId, fill.mode, "fills", () => ({
              type: "fill",
              stream: "fills",
              data: fillView(fill, orderId, this.market(fill.marketId)),
            }));
          }
          break;
        }
      }
    }
    for (const orderId of touched) {
      const followed = this.followed.get(orderId)!;
      const { row } = followed;
      if (row.status !== "open") this.followed.delete(orderId);
      if (applied.replay) continue;
      this.sink.publishPrivate(row.ownerId, row.mode, "orders", () => ({
        type: "order",
        stream: "orders",
        data: orderView(row, this.market(row.marketId), followed.filledQuote, followed.quoteAmount),
      }));
    }
  }

  /** Changes a followed order (a copy, so views already sent keep theirs); none if not followed. */
  private update(
    orderId: number,
    touched: Set<number>,
    change: (row: OrderRow) => void,
  ): FollowedOrder | undefined {
    const followed = this.followed.get(orderId);
    if (!followed) return undefined;
    followed.row = { ...followed.row };
    change(followed.row);
    touched.add(orderId);
    return followed;
  }

  private market(marketId: string): MarketView {
    let market = this.markets.get(marketId);
    if (!market) {
      for (const m of this.engine.query((s) => getMarkets(s))) this.markets.set(m.marketId, m);
      market = this.markets.get(marketId);
    }
    if (!market) throw new Error(`spot streams: market ${marketId} is not defined`);
    return market;
  }
}
