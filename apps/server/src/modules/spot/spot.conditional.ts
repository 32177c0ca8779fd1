import type { SpotConditionalOrderView, SpotOrderView } from "@candor/contract";
import {
  formatAmount,
  formatPriceTicks,
  formatQuantityLots,
  getConditionalOrder,
  getConditionalOrders,
  getOrder,
  parseAmount,
  parsePriceTicks,
  parseQuantityLots,
  type Amount,
  type Command,
  type ConditionalOrderView,
  type Event,
  type MarketView,
  type RejectCode,
} from "@candor/kernel";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { SpotMarkets } from "./spot.markets.ts";
import type { SpotRepository } from "./spot.repository.ts";
import type { SpotEngine, SpotSession } from "./spot.service.ts";
import { filledQuoteOf, orderRowOf, orderView } from "./spot.views.ts";

/** The kernel command id of a conditional order: scoped by owner, apart from plain orders. */
export function conditionalCommandId(ownerId: string, clientOrderId: string): string {
  return `c:${ownerId}:${clientOrderId}`;
}

function clientIdOf(commandId: string): string {
  const parts = commandId.split(":");
  return parts.length >= 3 && (parts[0] === "c" || parts[0] === "o")
    ? parts.slice(2).join(":")
    : commandId;
}

export interface PlaceConditionalInput {
  clientOrderId: string;
  instrumentId: string;
  side: "buy" | "sell";
  kind: "stop" | "take_profit" | "oco";
  type: "limit" | "market";
  timeInForce?: "gtc" | "ioc" | "fok" | "post_only";
  triggerPrice: string;
  price?: string;
  quantity?: string;
  quoteAmount?: string;
  limitPrice?: string;
  selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
}

/** A finished (or pending) conditional order as the read model holds it. */
interface ConditionalRow extends ConditionalOrderView {
  reason: string | null;
  tickId: string | null;
  tickPrice: string | null;
  resultOrderId: number | null;
  rejectCode: string | null;
  doneAtMs: number | null;
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; code: RejectCode }): T {
  if (!result.ok) throw new AppError(errorCodeOf(result.code));
  return result.value;
}

export function conditionalView(row: ConditionalRow, market: MarketView): SpotConditionalOrderView {
  return {
    orderId: String(row.orderId),
    clientOrderId: clientIdOf(row.clientOrderId),
    instrumentId: market.instrumentId,
    marketId: row.marketId,
    mode: row.mode,
    side: row.side,
    kind: row.kind,
    type: row.orderType,
    timeInForce: row.timeInForce,
    triggerPrice: formatPriceTicks(market, row.triggerTicks),
    price: row.priceTicks === null ? null : formatPriceTicks(market, row.priceTicks),
    quantity: row.quantityLots === null ? null : formatQuantityLots(market, row.quantityLots),
    quoteAmount:
      row.quoteAmount === null ? null : formatAmount(row.quoteAmount as Amount, market.quoteScale),
    selfTradeMode: row.selfTradeMode,
    ocoOrderId: row.ocoOrderId === null ? null : String(row.ocoOrderId),
    status: row.status,
    reason: row.reason,
    tickId: row.tickId,
    tickPrice: row.tickPrice,
    resultOrderId: row.resultOrderId === null ? null : String(row.resultOrderId),
    rejectCode: row.rejectCode,
    createdAtMs: row.createdAtMs,
    doneAtMs: row.doneAtMs,
  };
}

function pendingRow(view: ConditionalOrderView): ConditionalRow {
  return {
    ...view,
    reason: null,
    tickId: null,
    tickPrice: null,
    resultOrderId: null,
    rejectCode: null,
    doneAtMs: null,
  };
}

type RawConditional = Record<string, string | bigint | null>;
type Raw = string | bigint | null | undefined;

function text(v: Raw): string | null {
  return v === null || v === undefined ? null : String(v);
}

function toRow(r: RawConditional): ConditionalRow {
  const num = (v: Raw) => (v === null || v === undefined ? null : Number(v));
  return {
    orderId: Number(r.order_id),
    clientOrderId: String(r.client_order_id),
    ownerId: String(r.owner_id),
    mode: r.mode as ConditionalRow["mode"],
    marketId: String(r.market_id),
    side: r.side as ConditionalRow["side"],
    kind: r.kind as ConditionalRow["kind"],
    orderType: r.order_type as ConditionalRow["orderType"],
    timeInForce: r.time_in_force as ConditionalRow["timeInForce"],
    triggerTicks: Number(r.trigger_ticks),
    priceTicks: num(r.price_ticks),
    quantityLots: num(r.quantity_lots),
    quoteAmount:
      r.quote_amount === null || r.quote_amount === undefined ? null : BigInt(r.quote_amount),
    selfTradeMode: r.self_trade_mode as ConditionalRow["selfTradeMode"],
    heldAmount: 0n,
    ocoOrderId: num(r.oco_order_id),
    status: r.status as ConditionalRow["status"],
    createdAtMs: Number(r.created_at_ms),
    reason: text(r.reason),
    tickId: text(r.tick_id),
    tickPrice: text(r.tick_price),
    resultOrderId: num(r.result_order_id),
    rejectCode: text(r.reject_code),
    doneAtMs: num(r.done_at_ms),
  };
}

/**
 * Stop, take-profit and OCO orders, and the size-only amend: kernel commands through the
 * journal; pending orders from the kernel's memory, finished ones from the read model.
 */
export class SpotConditionalService {
  constructor(
    private readonly engine: SpotEngine,
    private readonly markets: SpotMarkets,
    private readonly repository: SpotRepository,
    private readonly database: Database,
  ) {}

  async place(
    session: SpotSession,
    input: PlaceConditionalInput,
  ): Promise<{ order: SpotConditionalOrderView; duplicate: boolean }> {
    const market = this.markets.byInstrument(input.instrumentId);
    const id = conditionalCommandId(session.ownerId, input.clientOrderId);
    const ticks = (value: string | undefined) =>
      value === undefined ? null : unwrap(parsePriceTicks(market, value));
    const lots = (value: string | undefined) =>
      value === undefined ? null : unwrap(parseQuantityLots(market, value));
    const base = {
      id,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: market.marketId,
      side: input.side,
      selfTradeMode: input.selfTradeMode ?? "cancel_resting",
    };
    const command: Extract<Command, { type: "place_conditional_order" | "place_oco_order" }> =
      input.kind === "oco"
        ? {
            ...base,
            type: "place_oco_order",
            atMs: 0,
            quantityLots: lots(input.quantity)!,
            limitPriceTicks: ticks(input.limitPrice)!,
            triggerTicks: ticks(input.triggerPrice)!,
            stopPriceTicks: input.type === "limit" ? ticks(input.price) : null,
          }
        : {
            ...base,
            type: "place_conditional_order",
            atMs: 0,
            kind: input.kind,
            orderType: input.type,
            timeInForce: input.timeInForce ?? (input.type === "market" ? "ioc" : "gtc"),
            triggerTicks: ticks(input.triggerPrice)!,
            priceTicks: ticks(input.price),
            quantityLots: lots(input.quantity),
            quoteAmount:
              input.quoteAmount === undefined
                ? null
                : unwrap(parseAmount(input.quoteAmount, market.quoteScale)),
          };
    const { atMs: _atMs, ...unstamped } = command;
    await ensureAccounts(this.engine, session.ownerId, session.mode);
    const applied = await submit(this.engine, unstamped);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const orderId = (applied.result.value as { orderId: number }).orderId;
    const events = applied.duplicate ? (applied.first?.events ?? []) : applied.events;
    const accepted = events.find(
      (e): e is Extract<Event, { type: "conditional_accepted" }> =>
        e.type === "conditional_accepted",
    );
    const view =
      this.engine.query((s) => getConditionalOrder(s, orderId)) ?? accepted?.order ?? null;
    if (view === null) {
      const row = await this.finishedRow(session, orderId);
      if (!row) throw new AppError("service_unavailable");
      return { order: conditionalView(row, market), duplicate: applied.duplicate };
    }
    return { order: conditionalView(pendingRow(view), market), duplicate: applied.duplicate };
  }

  async list(
    session: SpotSession,
    query: { instrumentId?: string; status: "pending" | "finished"; limit: number },
  ): Promise<SpotConditionalOrderView[]> {
    const marketIds =
      query.instrumentId === undefined ? null : this.markets.idsOfInstrument(query.instrumentId);
    if (query.status === "pending") {
      return this.engine
        .query((s) => getConditionalOrders(s, session.ownerId, session.mode))
        .filter((o) => marketIds === null || marketIds.includes(o.marketId))
        .reverse()
        .slice(0, query.limit)
        .map((o) => conditionalView(pendingRow(o), this.markets.byId(o.marketId)));
    }
    const rows = await sql<RawConditional>`SELECT * FROM rm_spot_conditional_orders
      WHERE owner_id = ${session.ownerId} AND mode = ${session.mode} AND status <> 'pending'
      ${marketIds === null ? sql`` : sql`AND market_id IN (${sql.join(marketIds)})`}
      ORDER BY order_id DESC LIMIT ${query.limit}`.execute(this.database.db);
    return rows.rows.map((r) => {
      const row = toRow(r);
      return conditionalView(row, this.markets.byId(row.marketId));
    });
  }

  async cancel(session: SpotSession, orderId: number): Promise<SpotConditionalOrderView> {
    const pending = this.engine.query((s) => getConditionalOrder(s, orderId));
    if (!pending || pending.ownerId !== session.ownerId || pending.mode !== session.mode) {
      const row = await this.finishedRow(session, orderId);
      throw new AppError(row ? "order_already_closed" : "order_not_found");
    }
    const applied = await submit(this.engine, {
      type: "cancel_order",
      id: `cancel:${session.ownerId}:${orderId}:${crypto.randomUUID()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const done = applied.events.find(
      (e): e is Extract<Event, { type: "conditional_done" }> =>
        e.type === "conditional_done" && e.orderId === orderId,
    );
    return conditionalView(
      {
        ...pendingRow(pending),
        status: "cancelled",
        reason: done?.reason ?? "user",
        doneAtMs: null,
      },
      this.markets.byId(pending.marketId),
    );
  }

  /** amend_order_size: see the contract's AmendSpotOrderBody. */
  async amend(session: SpotSession, orderId: number, quantity: string): Promise<SpotOrderView> {
    const open = this.engine.query((s) => getOrder(s, orderId));
    if (!open || open.ownerId !== session.ownerId || open.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    const market = this.markets.byId(open.marketId);
    const applied = await submit(this.engine, {
      type: "amend_order_size",
      id: `amend:${session.ownerId}:${orderId}:${crypto.randomUUID()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
      quantityLots: unwrap(parseQuantityLots(market, quantity)),
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const now = this.engine.query((s) => getOrder(s, orderId));
    const fills = await this.repository.fillsOfOrders([orderId]);
    const value = applied.result.value;
    const row = now
      ? orderRowOf(now)
      : {
          ...orderRowOf(open),
          status: value.orderStatus,
          filledLots: open.filledLots + value.filledLots,
          remainingLots: 0,
        };
    return orderView(row, market, filledQuoteOf(orderId, fills), open.quoteAmount);
  }

  private async finishedRow(
    session: SpotSession,
    orderId: number,
  ): Promise<ConditionalRow | undefined> {
    const rows = await sql<RawConditional>`SELECT * FROM rm_spot_conditional_orders
      WHERE order_id = ${orderId} AND owner_id = ${session.ownerId} AND mode = ${session.mode}`.execute(
      this.database.db,
    );
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }
}
