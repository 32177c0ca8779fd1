import { randomBytes } from "node:crypto";
import type { PlaceSpotOrderResult, SpotOrderView } from "@candor/contract";
import {
  getOrder,
  parseAmount,
  parsePriceTicks,
  parseQuantityLots,
  type Command,
  type Event,
  type KernelState,
  type MarketView,
  type Mode,
  type OrderOutcome,
  type RejectCode,
} from "@candor/kernel";
import type { CandorApplied, CandorCommand, CandorFirst } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import { fillRecordOf, type FillRecord } from "../../read-models/fill-record.ts";
import type { ClientOrderIdIndex } from "./spot.client-order-ids.ts";
import type { SpotMarkets } from "./spot.markets.ts";
import type { SpotQueries } from "./spot.queries.ts";
import type { OrderRow, SpotRepository } from "./spot.repository.ts";
import { fillView, filledQuoteOf, orderCommandId, orderRowOf, orderView } from "./spot.views.ts";

/** What the spot module needs from the engine (the journal + kernel single writer). */
export interface SpotEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  /** The first application of a command id, while the engine keeps it (`Engine.recall`). */
  recall(id: string): CandorFirst | undefined;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
  /** The journal sequence of the last applied command. */
  readonly sequence: bigint;
}

/** The session the request runs in: the user's kernel owner id and mode. */
export interface SpotSession {
  ownerId: string;
  mode: Mode;
}

export interface PlaceOrderInput {
  clientOrderId: string;
  instrumentId: string;
  side: "buy" | "sell";
  type: "limit" | "market";
  timeInForce?: "gtc" | "ioc" | "fok" | "post_only";
  price?: string;
  quantity?: string;
  quoteAmount?: string;
  selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
}

type PlaceOrderCommand = Extract<Command, { type: "place_order" }>;
type PlaceOrderStpCommand = Extract<Command, { type: "place_order_stp" }>;
type PlaceCommand = Omit<PlaceOrderCommand, "atMs"> | Omit<PlaceOrderStpCommand, "atMs">;

/**
 * Spot orders on the kernel: turns decimal strings into ticks and lots (rejecting, never
 * rounding), submits place and cancel commands through the journal and answers from their
 * events. A retry of an order is answered from the first one's journaled events.
 */
export class SpotService {
  constructor(
    private readonly engine: SpotEngine,
    private readonly markets: SpotMarkets,
    private readonly repository: SpotRepository,
    private readonly queries: SpotQueries,
    /** Ids ever accepted, in memory: a new id is placed without reading the database. */
    private readonly clientOrderIds?: Pick<ClientOrderIdIndex, "mayContain">,
  ) {}

  async place(session: SpotSession, input: PlaceOrderInput): Promise<PlaceSpotOrderResult> {
    const market = this.markets.byInstrument(input.instrumentId);
    const plain: Omit<PlaceOrderCommand, "atMs"> = {
      type: "place_order",
      id: orderCommandId(session.ownerId, input.clientOrderId),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: market.marketId,
      side: input.side,
      orderType: input.type,
      timeInForce: input.timeInForce ?? (input.type === "market" ? "ioc" : "gtc"),
      priceTicks: input.price === undefined ? null : unwrap(parsePriceTicks(market, input.price)),
      quantityLots:
        input.quantity === undefined ? null : unwrap(parseQuantityLots(market, input.quantity)),
      quoteAmount:
        input.quoteAmount === undefined
          ? null
          : unwrap(parseAmount(input.quoteAmount, market.quoteScale)),
    };
    // A self-trade prevention mode other than the default goes in place_order_stp.
    const stp = input.selfTradeMode ?? "cancel_resting";
    const command: PlaceCommand =
      stp === "cancel_resting" ? plain : { ...plain, type: "place_order_stp", selfTradeMode: stp };
    // A retry within the kernel's idempotency window: the engine still has the first answer.
    const first = this.engine.recall(command.id);
    if (first) {
      if (!sameOrder(first.command, command)) throw new AppError("client_order_id_reused");
      return { ...answerOf(first, market), duplicate: true };
    }
    // After the window the read model still knows the id. The index says, from memory, when
    // an id is certainly new (the usual case), so the database is read only for a retry.
    const known =
      this.clientOrderIds && !this.clientOrderIds.mayContain(command.id)
        ? undefined
        : await this.repository.orderByClientOrderId(command.id);
    if (known) {
      if (!sameOrderRow(known, command)) throw new AppError("client_order_id_reused");
      return { ...(await this.queries.withFills(known, null)), duplicate: true };
    }
    await ensureAccounts(this.engine, session.ownerId, session.mode);
    const applied = await submit(this.engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    if (!applied.duplicate) return { ...answerOf(applied, market), duplicate: false };
    // A retry that raced its first request: answered from the first one's events.
    if (applied.first) return { ...answerOf(applied.first, market), duplicate: true };
    throw new AppError("service_unavailable");
  }

  async cancel(session: SpotSession, orderId: number): Promise<SpotOrderView> {
    const open = this.engine.query((s) => getOrder(s, orderId));
    if (!open) return this.notCancellable(session, orderId);
    if (open.ownerId !== session.ownerId || open.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    const market = this.markets.byId(open.marketId);
    const applied = await submit(this.engine, {
      type: "cancel_order",
      id: `cancel:${session.ownerId}:${orderId}:${uniqueSuffix()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const cancelled = applied.events.find(
      (e): e is Extract<Event, { type: "order_cancelled" }> =>
        e.type === "order_cancelled" && e.orderId === orderId,
    );
    const row: OrderRow = {
      ...orderRowOf(open),
      status: "cancelled",
      remainingLots: cancelled?.remainingLots ?? open.remainingLots,
    };
    const fills = await this.repository.fillsOfOrders([orderId]);
    return orderView(row, market, filledQuoteOf(orderId, fills), open.quoteAmount);
  }

  /**
   * Why an order that is not open cannot be cancelled: already filled, already closed
   * (cancelled, expired, rejected), or not one of the session's orders at all. Another user's
   * order answers `order_not_found` like a missing one, so ids reveal nothing.
   */
  private async notCancellable(session: SpotSession, orderId: number): Promise<never> {
    const row = await this.repository.order(orderId);
    if (!row || row.ownerId !== session.ownerId || row.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    throw new AppError(row.status === "filled" ? "order_already_filled" : "order_already_closed");
  }

  async cancelAll(session: SpotSession, instrumentId: string | undefined): Promise<number> {
    const marketId =
      instrumentId === undefined ? null : this.markets.byInstrument(instrumentId).marketId;
    const applied = await submit(this.engine, {
      type: "cancel_all",
      id: `cancel_all:${session.ownerId}:${session.mode}:${uniqueSuffix()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
    });
    if (applied.result.ok) return applied.result.value.cancelledCount ?? 0;
    const code = applied.result.code;
    if (code === "nothing_to_cancel" || code === "account_not_found") return 0;
    throw new AppError(errorCodeOf(code));
  }
}

/**
 * The answer to a place_order as its events tell it: the order as it was accepted, updated by
 * the command's outcome, and the fills it made when it arrived.
 */
function answerOf(
  applied: { sequence: bigint; command: Command; result: CandorApplied["result"]; events: Event[] },
  market: MarketView,
): Omit<PlaceSpotOrderResult, "duplicate"> {
  const command = applied.command as PlaceOrderCommand;
  const value = applied.result.ok ? (applied.result.value as OrderOutcome) : undefined;
  const orderId = value?.orderId ?? 0;
  const accepted = applied.events.find(
    (e): e is Extract<Event, { type: "order_accepted" }> => e.type === "order_accepted",
  );
  const fills: FillRecord[] = [];
  for (const e of applied.events)
    if (e.type === "fill") fills.push(fillRecordOf(e, applied.sequence));
  const row: OrderRow = {
    orderId,
    clientOrderId: command.id,
    ownerId: command.ownerId,
    mode: command.mode,
    marketId: command.marketId,
    side: command.side,
    orderType: command.orderType,
    timeInForce: command.timeInForce,
    priceTicks: accepted?.order.priceTicks ?? command.priceTicks ?? 0,
    quantityLots: accepted?.order.quantityLots ?? command.quantityLots ?? 0,
    filledLots: value?.filledLots ?? 0,
    remainingLots: value?.restingLots ?? 0,
    status: value?.orderStatus ?? "open",
    createdAtMs: accepted?.order.createdAtMs ?? command.atMs,
  };
  return {
    order: orderView(row, market, filledQuoteOf(orderId, fills), command.quoteAmount),
    fills: fills.map((f) => fillView(f, orderId, market)),
  };
}

/** Whether a retry carries the same order as the first command under its id. */
function sameOrder(first: Command, retry: PlaceCommand): boolean {
  return (
    first.type === retry.type &&
    (first.type === "place_order" || first.type === "place_order_stp") &&
    (first.type === "place_order" ||
      first.selfTradeMode === (retry as PlaceOrderStpCommand).selfTradeMode) &&
    first.mode === retry.mode &&
    first.marketId === retry.marketId &&
    first.side === retry.side &&
    first.orderType === retry.orderType &&
    first.timeInForce === retry.timeInForce &&
    first.priceTicks === retry.priceTicks &&
    first.quantityLots === retry.quantityLots &&
    first.quoteAmount === retry.quoteAmount
  );
}

/**
 * Whether a retry after the idempotency window carries the order the read model holds. The row
 * keeps less than the command (a market buy's lots are what its amount bought), so a field the
 * row cannot tell is not compared.
 */
function sameOrderRow(known: OrderRow, retry: PlaceCommand): boolean {
  return (
    known.mode === retry.mode &&
    known.marketId === retry.marketId &&
    known.side === retry.side &&
    known.orderType === retry.orderType &&
    known.timeInForce === retry.timeInForce &&
    (retry.priceTicks === null || known.priceTicks === retry.priceTicks) &&
    (retry.quantityLots === null ||
      retry.quoteAmount !== null ||
      known.quantityLots === retry.quantityLots)
  );
}

/** Ids of commands that have no client key (cancels): never repeated. */
function uniqueSuffix(): string {
  return randomBytes(9).toString("base64url");
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; code: RejectCode }): T {
  if (!result.ok) throw new AppError(errorCodeOf(result.code));
  return result.value;
}
