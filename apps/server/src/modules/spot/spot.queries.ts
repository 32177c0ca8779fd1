import type { SpotFillView, SpotOrderView } from "@candor/contract";
import { getOpenOrders, getOrder, type KernelState } from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import type { SpotMarkets } from "./spot.markets.ts";
import type { OrderRow, SpotRepository } from "./spot.repository.ts";
import type { SpotSession } from "./spot.service.ts";
import { fillView, filledQuoteOf, orderRowOf, orderView } from "./spot.views.ts";

const finishedStatuses = ["filled", "cancelled", "expired", "rejected"];

/**
 * Reads of a user's orders: open orders from the kernel's memory, finished orders and fills from
 * the read models (which follow the journal within moments).
 */
export class SpotQueries {
  constructor(
    private readonly engine: { query<T>(fn: (state: KernelState) => T): T },
    private readonly markets: SpotMarkets,
    private readonly repository: SpotRepository,
  ) {}

  /** Open orders of the session's mode (optionally of one instrument), newest first. */
  async openOrders(session: SpotSession, instrumentId?: string): Promise<SpotOrderView[]> {
    const marketId =
      instrumentId === undefined ? null : this.markets.byInstrument(instrumentId).marketId;
    const orders = this.engine
      .query((s) => getOpenOrders(s, session.ownerId, session.mode, marketId))
      .reverse();
    const fills = await this.repository.fillsOfOrders(
      orders.filter((o) => o.filledLots > 0).map((o) => o.orderId),
    );
    return orders.map((o) =>
      orderView(
        orderRowOf(o),
        this.markets.byId(o.marketId),
        filledQuoteOf(o.orderId, fills),
        o.quoteAmount,
      ),
    );
  }

  /** Finished orders (or those of one status), newest first, paged by order id. */
  async history(
    session: SpotSession,
    filter: {
      instrumentId?: string;
      side?: "buy" | "sell";
      status?: "open" | "filled" | "cancelled" | "expired" | "rejected";
      cursor?: string;
      limit: number;
    },
  ): Promise<{ items: SpotOrderView[]; nextCursor: string | null }> {
    const marketIds =
      filter.instrumentId === undefined
        ? undefined
        : this.markets.idsOfInstrument(filter.instrumentId);
    const rows = await this.repository.orders({
      ownerId: session.ownerId,
      mode: session.mode,
      marketIds,
      side: filter.side,
      statuses: filter.status ? [filter.status] : finishedStatuses,
      beforeOrderId: filter.cursor === undefined ? undefined : Number(filter.cursor),
      limit: filter.limit + 1,
    });
    const page = rows.slice(0, filter.limit);
    const fills = await this.repository.fillsOfOrders(
      page.filter((o) => o.filledLots > 0).map((o) => o.orderId),
    );
    return {
      items: page.map((o) =>
        orderView(o, this.markets.byId(o.marketId), filledQuoteOf(o.orderId, fills), null),
      ),
      nextCursor: rows.length > filter.limit ? String(page[page.length - 1]!.orderId) : null,
    };
  }

  /** One of the session's orders (open ones from the kernel) with all its fills. */
  async detail(
    session: SpotSession,
    orderId: number,
  ): Promise<{ order: SpotOrderView; fills: SpotFillView[] }> {
    const open = this.engine.query((s) => getOrder(s, orderId));
    const row = open ? orderRowOf(open) : await this.repository.order(orderId);
    if (!row || row.ownerId !== session.ownerId || row.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    return this.withFills(row, open?.quoteAmount ?? null);
  }

  /** An order with all its fills (from the read model). */
  async withFills(
    row: OrderRow,
    quoteAmount: bigint | null,
  ): Promise<{ order: SpotOrderView; fills: SpotFillView[] }> {
    const market = this.markets.byId(row.marketId);
    const fills = await this.repository.fillsOfOrders([row.orderId]);
    return {
      order: orderView(row, market, filledQuoteOf(row.orderId, fills), quoteAmount),
      fills: fills.map((f) => fillView(f, row.orderId, market)),
    };
  }
}
