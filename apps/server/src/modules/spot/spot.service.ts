import { randomBytes } from "node:crypto";
import type {
  PlaceSpotOrderResult,
  SpotBalanceView,
  SpotFillView,
  SpotMarketView,
  SpotOrderView,
  StatementLineView,
} from "@candor/contract";
import {
  formatAmount,
  formatPriceTicks,
  formatQuantityLots,
  getAssets,
  getBalances,
  getLastTick,
  getMarkets,
  getOpenOrders,
  getOrder,
  isOpen,
  parseAmount,
  parsePriceTicks,
  parseQuantityLots,
  systemOwners,
  type Amount,
  type Command,
  type CommandResult,
  type Event,
  type FillEvent,
  type KernelState,
  type MarketView,
  type Mode,
  type OrderView,
  type RejectCode,
  type ResultOf,
} from "@candor/kernel";
import type { Unstamped } from "../../engine/engine.ts";
import { AppError } from "../../http/app-error.ts";
import { errorCodeOf } from "./reject-codes.ts";
import type { FillRow, OrderRow, SpotRepository } from "./spot.repository.ts";

/** What the spot module needs from the engine (the journal + kernel single writer). */
export interface SpotEngine {
  submit(command: Unstamped<Command>): Promise<{
    sequence: bigint;
    result: CommandResult;
    events: Event[];
    duplicate: boolean;
  }>;
  query<T>(fn: (state: KernelState) => T): T;
}

/** The session the request runs in: the user's kernel owner id and mode. */
export interface SpotSession {
  ownerId: string;
  mode: Mode;
}

export interface SpotServiceOptions {
  engine: SpotEngine;
  repository: SpotRepository;
  now: () => number;
  /** Warning thresholds of the order form, basis points (default 500 each). */
  priceWarningBpsUp?: number;
  priceWarningBpsDown?: number;
  /** Largest demo grant per request, in USDT-equivalent whole units (default 100,000). */
  demoGrantValueMax?: bigint;
  /** The asset demo grants are valued in (default USDT). */
  demoValueAsset?: string;
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
}

const finishedStatuses = ["filled", "cancelled", "expired", "rejected"];

/**
 * Spot trading on the kernel: turns decimal strings into ticks and lots (rejecting, never
 * rounding), submits commands through the journal, and reads open orders and balances from the
 * kernel and finished orders, fills and statements from the read models.
 */
export class SpotService {
  private readonly engine: SpotEngine;
  private readonly repository: SpotRepository;
  private readonly now: () => number;

  constructor(private readonly options: SpotServiceOptions) {
    this.engine = options.engine;
    this.repository = options.repository;
    this.now = options.now;
  }

  /** The kernel market of an instrument id (`BTCUSDT`); open markets win over closed ones. */
  market(instrumentId: string): MarketView {
    const matches = this.engine
      .query((s) => getMarkets(s))
      .filter((m) => m.instrumentId === instrumentId);
    const market = matches.find((m) => m.open) ?? matches[0];
    if (!market) throw new AppError("instrument_not_found");
    return market;
  }

  markets(): SpotMarketView[] {
    return this.engine.query((state) =>
      getMarkets(state).map((m) => {
        const tick = getLastTick(state, m.instrumentId);
        return {
          instrumentId: m.instrumentId,
          marketId: m.marketId,
          baseAsset: m.baseAssetId,
          quoteAsset: m.quoteAssetId,
          baseDecimals: m.baseScale,
          quoteDecimals: m.quoteScale,
          priceStep: m.priceStep,
          lotSize: m.lotSize,
          quantityMin: formatQuantityLots(m, m.quantityLotsMin),
          quantityMax: formatQuantityLots(m, m.quantityLotsMax),
          feeBpsMaker: m.feeBpsMaker,
          feeBpsTaker: m.feeBpsTaker,
          priceBandBps: m.priceBandBps,
          priceWarningBpsUp: this.options.priceWarningBpsUp ?? 500,
          priceWarningBpsDown: this.options.priceWarningBpsDown ?? 500,
          lastPrice: tick?.price ?? null,
          lastTickId: tick?.tickId ?? null,
          open: m.open,
        };
      }),
    );
  }

  /** Opens the session's ledger accounts on first use (demo accounts come with demo money). */
  async ensureAccounts(session: SpotSession): Promise<void> {
    if (this.engine.query((s) => isOpen(s, session.ownerId, session.mode))) return;
    const applied = await this.submit({
      type: "open_accounts",
      id: `open_accounts:${session.ownerId}:${session.mode}`,
      ownerId: session.ownerId,
      mode: session.mode,
    });
    if (!applied.result.ok && applied.result.code !== "accounts_already_open") {
      throw new AppError(errorCodeOf(applied.result.code));
    }
  }

  async place(session: SpotSession, input: PlaceOrderInput): Promise<PlaceSpotOrderResult> {
    const market = this.market(input.instrumentId);
    const commandId = orderCommandId(session.ownerId, input.clientOrderId);
    // After the kernel's idempotency window the read model still knows the id.
    const known = await this.repository.orderByClientOrderId(commandId);
    const priceTicks =
      input.price === undefined ? null : unwrap(parsePriceTicks(market, input.price));
    const quantityLots =
      input.quantity === undefined ? null : unwrap(parseQuantityLots(market, input.quantity));
    const quoteAmount =
      input.quoteAmount === undefined
        ? null
        : unwrap(parseAmount(input.quoteAmount, market.quoteScale));
    const timeInForce = input.timeInForce ?? (input.type === "market" ? "ioc" : "gtc");
    if (known) {
      const same =
        known.mode === session.mode &&
        known.marketId === market.marketId &&
        known.side === input.side &&
        known.orderType === input.type &&
        known.timeInForce === timeInForce &&
        (priceTicks === null || known.priceTicks === priceTicks) &&
        (quantityLots === null || quoteAmount !== null || known.quantityLots === quantityLots);
      if (!same) throw new AppError("client_order_id_reused");
      return { ...(await this.orderWithFills(known, market)), duplicate: true };
    }
    await this.ensureAccounts(session);
    const command = {
      type: "place_order",
      id: commandId,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: market.marketId,
      side: input.side,
      orderType: input.type,
      timeInForce,
      priceTicks,
      quantityLots,
      quoteAmount,
    } as const;
    const applied = await this.submit(command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const value = applied.result.value;
    const orderId = value.orderId!;
    if (applied.duplicate) {
      const row = this.openOrder(orderId) ?? (await this.waitForOrderRow(orderId));
      if (row) return { ...(await this.orderWithFills(row, market)), duplicate: true };
    }
    const accepted = applied.events.find(
      (e): e is Extract<Event, { type: "order_accepted" }> => e.type === "order_accepted",
    );
    const fillEvents = applied.events.filter((e): e is FillEvent => e.type === "fill");
    const fills = fillEvents.map((f) => fillRowOf(f, applied.sequence));
    const base: OrderRow = {
      orderId,
      clientOrderId: commandId,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: market.marketId,
      side: input.side,
      orderType: input.type,
      timeInForce: command.timeInForce,
      priceTicks: accepted?.order.priceTicks ?? priceTicks ?? 0,
      quantityLots: accepted?.order.quantityLots ?? quantityLots ?? 0,
      filledLots: value.filledLots ?? 0,
      remainingLots: value.restingLots ?? 0,
      status: value.orderStatus ?? "open",
      createdAtMs: accepted?.order.createdAtMs ?? this.now(),
    };
    return {
      order: orderView(base, market, fills, quoteAmount),
      fills: fills.map((f) => fillView(f, orderId, market)),
      duplicate: applied.duplicate,
    };
  }

  async cancel(session: SpotSession, orderId: number): Promise<SpotOrderView> {
    const open = this.openOrder(orderId);
    if (!open || open.ownerId !== session.ownerId || open.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    const market = this.marketById(open.marketId);
    const applied = await this.submit({
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
      ...open,
      status: "cancelled",
      remainingLots: cancelled?.remainingLots ?? open.remainingLots,
    };
    const fills = await this.repository.fillsOfOrders([orderId]);
    return orderView(row, market, fills, open.quoteAmount);
  }

  async cancelAll(session: SpotSession, instrumentId: string | undefined): Promise<number> {
    const marketId = instrumentId === undefined ? null : this.market(instrumentId).marketId;
    const applied = await this.submit({
      type: "cancel_all",
      id: `cancel_all:${session.ownerId}:${session.mode}:${uniqueSuffix()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
    });
    if (!applied.result.ok) {
      if (
        applied.result.code === "nothing_to_cancel" ||
        applied.result.code === "account_not_found"
      )
        return 0;
      throw new AppError(errorCodeOf(applied.result.code));
    }
    return applied.result.value.cancelledCount ?? 0;
  }

  async openOrders(session: SpotSession, instrumentId?: string): Promise<SpotOrderView[]> {
    const marketId = instrumentId === undefined ? null : this.market(instrumentId).marketId;
    const orders = this.engine
      .query((s) => getOpenOrders(s, session.ownerId, session.mode, marketId))
      .reverse();
    const fills = await this.repository.fillsOfOrders(
      orders.filter((o) => o.filledLots > 0).map((o) => o.orderId),
    );
    return orders.map((o) =>
      orderView(rowOfKernelOrder(o), this.marketById(o.marketId), fills, o.quoteAmount),
    );
  }

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
        : this.engine
            .query((s) => getMarkets(s))
            .filter((m) => m.instrumentId === filter.instrumentId)
            .map((m) => m.marketId);
    if (marketIds && marketIds.length === 0) throw new AppError("instrument_not_found");
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
      items: page.map((o) => orderView(o, this.marketById(o.marketId), fills, null)),
      nextCursor: rows.length > filter.limit ? String(page[page.length - 1]!.orderId) : null,
    };
  }

  async detail(
    session: SpotSession,
    orderId: number,
  ): Promise<{ order: SpotOrderView; fills: SpotFillView[] }> {
    const open = this.openOrder(orderId);
    const row = open ?? (await this.repository.order(orderId));
    if (!row || row.ownerId !== session.ownerId || row.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    return this.orderWithFills(row, this.marketById(row.marketId), open?.quoteAmount ?? null);
  }

  balances(session: SpotSession): { mode: Mode; items: SpotBalanceView[] } {
    return this.engine.query((state) => {
      const balances = getBalances(state, session.ownerId, session.mode).filter(
        (b) => b.wallet === "fund",
      );
      return {
        mode: session.mode,
        items: getAssets(state).map((asset) => {
          const b = balances.find((x) => x.assetId === asset.assetId);
          const available = (b?.available ?? 0n) as Amount;
          const held = (b?.held ?? 0n) as Amount;
          return {
            asset: asset.assetId,
            decimals: asset.scale,
            available: formatAmount(available, asset.scale),
            held: formatAmount(held, asset.scale),
            total: formatAmount((available + held) as Amount, asset.scale),
          };
        }),
      };
    });
  }

  async statement(
    session: SpotSession,
    filter: { asset?: string; cursor?: string; limit: number },
  ): Promise<{ items: StatementLineView[]; nextCursor: string | null }> {
    const scales = new Map(
      this.engine.query((s) => getAssets(s)).map((a) => [a.assetId, a.scale] as const),
    );
    const rows = await this.repository.statement({
      ownerId: session.ownerId,
      mode: session.mode,
      assetId: filter.asset,
      beforeSeq: filter.cursor === undefined ? undefined : Number(filter.cursor),
      limit: filter.limit + 1,
    });
    const page = rows.slice(0, filter.limit);
    return {
      items: page.map((r) => ({
        postingSeq: String(r.postingSeq),
        asset: r.assetId,
        amount: formatAmount(r.amount as Amount, scales.get(r.assetId) ?? 0),
        fromHeld: r.fromHeld,
        reason: r.reason as StatementLineView["reason"],
        counterparty: counterpartyLabel(r.counterOwnerId, session.ownerId),
        orderId: r.orderId === null ? null : String(r.orderId),
        fillId: r.fillId === null ? null : String(r.fillId),
        tickId: r.tickId,
        operatorId: r.operatorId,
        reference: r.reference,
        sequence: String(r.sequence),
        atMs: r.atMs,
      })),
      nextCursor: rows.length > filter.limit ? String(page[page.length - 1]!.postingSeq) : null,
    };
  }

  async grantDemo(
    session: SpotSession,
    input: { requestId: string; asset: string; amount: string },
  ): Promise<SpotBalanceView[]> {
    if (session.mode !== "demo") throw new AppError("demo_mode_required");
    const asset = this.engine.query((s) => getAssets(s)).find((a) => a.assetId === input.asset);
    if (!asset) throw new AppError("asset_not_found");
    const amount = unwrap(parseAmount(input.amount, asset.scale));
    if (amount > this.demoGrantMax(asset.assetId, asset.scale)) {
      throw new AppError("amount_above_maximum");
    }
    await this.ensureAccounts(session);
    const applied = await this.submit({
      type: "grant_demo",
      id: `demo_grant:${session.ownerId}:${input.requestId}`,
      ownerId: session.ownerId,
      mode: "demo",
      assetId: asset.assetId,
      amount,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return this.balances(session).items;
  }

  async resetDemo(
    session: SpotSession,
  ): Promise<{ cancelledCount: number; items: SpotBalanceView[] }> {
    if (session.mode !== "demo") throw new AppError("demo_mode_required");
    await this.ensureAccounts(session);
    const applied = await this.submit({
      type: "reset_demo",
      id: `demo_reset:${session.ownerId}:${uniqueSuffix()}`,
      ownerId: session.ownerId,
      mode: "demo",
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return {
      cancelledCount: applied.result.value.cancelledCount ?? 0,
      items: this.balances(session).items,
    };
  }

  /**
   * The largest demo grant of an asset in one request: the value asset up to the configured
   * amount; other assets up to the same value at their market's last price (none without one).
   */
  private demoGrantMax(assetId: string, scale: number): bigint {
    const valueAsset = this.options.demoValueAsset ?? "USDT";
    const valueMax = this.options.demoGrantValueMax ?? 100_000n;
    if (assetId === valueAsset) return valueMax * 10n ** BigInt(scale);
    return this.engine.query((state) => {
      for (const m of getMarkets(state)) {
        if (m.baseAssetId !== assetId || m.quoteAssetId !== valueAsset) continue;
        const tick = getLastTick(state, m.instrumentId);
        const price = tick ? parseAmount(tick.price, m.quoteScale) : undefined;
        if (!price?.ok || price.value <= 0n) continue;
        // amount × price / 10^baseScale ≤ valueMax × 10^quoteScale, rounded down.
        return (valueMax * 10n ** BigInt(m.quoteScale) * 10n ** BigInt(scale)) / price.value;
      }
      return 0n;
    });
  }

  private async orderWithFills(
    row: OrderRow,
    market: MarketView,
    quoteAmount: bigint | null = null,
  ): Promise<{ order: SpotOrderView; fills: SpotFillView[] }> {
    const fills = await this.repository.fillsOfOrders([row.orderId]);
    return {
      order: orderView(row, market, fills, quoteAmount),
      fills: fills.map((f) => fillView(f, row.orderId, market)),
    };
  }

  private openOrder(orderId: number): (OrderRow & { quoteAmount: bigint | null }) | undefined {
    const order = this.engine.query((s) => getOrder(s, orderId));
    return order ? { ...rowOfKernelOrder(order), quoteAmount: order.quoteAmount } : undefined;
  }

  /** A duplicate of a finished order: its row appears once the projector has written it. */
  private async waitForOrderRow(orderId: number): Promise<OrderRow | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const row = await this.repository.order(orderId);
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return undefined;
  }

  private marketById(marketId: string): MarketView {
    const market = this.engine.query((s) => getMarkets(s)).find((m) => m.marketId === marketId);
    if (!market) throw new AppError("instrument_not_found");
    return market;
  }

  /** Submits a command; the answer's result has the type of that command's result. */
  private async submit<C extends Unstamped<Command>>(command: C) {
    try {
      return (await this.engine.submit(command)) as Awaited<ReturnType<SpotEngine["submit"]>> & {
        result: ResultOf<C>;
      };
    } catch {
      // Not acknowledged (journal stopped or failed): the client may retry with the same id.
      throw new AppError("service_unavailable");
    }
  }
}

/** The kernel command id of a client's order: scoped by owner, so ids never collide. */
export function orderCommandId(ownerId: string, clientOrderId: string): string {
  return `o:${ownerId}:${clientOrderId}`;
}

/** Ids of commands that have no client key (cancels, resets): never repeated. */
function uniqueSuffix(): string {
  return randomBytes(9).toString("base64url");
}

function clientOrderIdOf(commandId: string): string {
  const parts = commandId.split(":");
  return parts.length >= 3 && parts[0] === "o" ? parts.slice(2).join(":") : commandId;
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; code: RejectCode }): T {
  if (!result.ok) throw new AppError(errorCodeOf(result.code));
  return result.value;
}

function rowOfKernelOrder(o: OrderView): OrderRow {
  return {
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    ownerId: o.ownerId,
    mode: o.mode,
    marketId: o.marketId,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    priceTicks: o.priceTicks,
    quantityLots: o.quantityLots,
    filledLots: o.filledLots,
    remainingLots: o.remainingLots,
    status: o.status,
    createdAtMs: o.createdAtMs,
  };
}

function fillRowOf(f: FillEvent, sequence: bigint): FillRow {
  return {
    fillId: f.fillId,
    sequence,
    marketId: f.marketId,
    makerOrderId: f.makerOrderId,
    takerOrderId: f.takerOrderId,
    makerOwnerId: f.makerOwnerId,
    takerOwnerId: f.takerOwnerId,
    takerSide: f.takerSide,
    priceTicks: f.priceTicks,
    quantityLots: f.quantityLots,
    baseAmount: f.baseAmount,
    quoteAmount: f.quoteAmount,
    feeMaker: f.feeMaker,
    feeMakerAssetId: f.feeMakerAssetId,
    feeTaker: f.feeTaker,
    feeTakerAssetId: f.feeTakerAssetId,
    tickId: f.tickId,
    atMs: f.atMs,
  };
}

function orderView(
  row: OrderRow,
  market: MarketView,
  allFills: readonly FillRow[],
  quoteAmount: bigint | null,
): SpotOrderView {
  let filledQuote = 0n;
  for (const f of allFills) {
    if (f.makerOrderId === row.orderId || f.takerOrderId === row.orderId) {
      filledQuote += f.quoteAmount;
    }
  }
  const notionalPerTick = BigInt(row.filledLots) * market.tickLotUnits;
  // Average price in whole ticks, rounded down (exact unless fills were at several prices).
  const averageTicks = notionalPerTick > 0n ? Number(filledQuote / notionalPerTick) : null;
  return {
    orderId: String(row.orderId),
    clientOrderId: clientOrderIdOf(row.clientOrderId),
    instrumentId: market.instrumentId,
    marketId: market.marketId,
    mode: row.mode,
    side: row.side,
    type: row.orderType,
    timeInForce: row.timeInForce,
    price: row.orderType === "limit" ? formatPriceTicks(market, row.priceTicks) : null,
    quantity: formatQuantityLots(market, row.quantityLots),
    quoteAmount:
      quoteAmount === null ? null : formatAmount(quoteAmount as Amount, market.quoteScale),
    filledQuantity: formatQuantityLots(market, row.filledLots),
    remainingQuantity: formatQuantityLots(market, row.status === "open" ? row.remainingLots : 0),
    filledQuote: formatAmount(filledQuote as Amount, market.quoteScale),
    averagePrice: averageTicks === null ? null : formatPriceTicks(market, averageTicks),
    status: row.status,
    createdAtMs: row.createdAtMs,
  };
}

function fillView(f: FillRow, orderId: number, market: MarketView): SpotFillView {
  const maker = f.makerOrderId === orderId;
  const other = maker ? f.takerOwnerId : f.makerOwnerId;
  const side = maker ? (f.takerSide === "buy" ? "sell" : "buy") : f.takerSide;
  return {
    fillId: String(f.fillId),
    orderId: String(orderId),
    makerOrderId: String(f.makerOrderId),
    takerOrderId: String(f.takerOrderId),
    role: maker ? "maker" : "taker",
    side,
    price: formatPriceTicks(market, f.priceTicks),
    quantity: formatQuantityLots(market, f.quantityLots),
    quoteAmount: formatAmount(f.quoteAmount as Amount, market.quoteScale),
    fee: formatAmount(
      (maker ? f.feeMaker : f.feeTaker) as Amount,
      (maker ? f.feeMakerAssetId : f.feeTakerAssetId) === market.baseAssetId
        ? market.baseScale
        : market.quoteScale,
    ),
    feeAsset: maker ? f.feeMakerAssetId : f.feeTakerAssetId,
    counterparty:
      other === systemOwners.marketMaker
        ? "market_maker"
        : other.startsWith("system:")
          ? "system"
          : "user",
    tickId: f.tickId,
    sequence: String(f.sequence),
    atMs: f.atMs,
  };
}

/** A system account keeps its label; another user is just "user"; the own account is "self". */
function counterpartyLabel(ownerId: string | null, self: string): string {
  if (ownerId === null) return "unknown";
  if (ownerId.startsWith("system:")) return ownerId;
  return ownerId === self ? "self" : "user";
}
