import type {
  StockEstimateView,
  StockFillView,
  StockHoldingView,
  StockOrderView,
  StockView,
} from "@candor/contract";
import { formatDecimalFixed } from "@candor/decimal";
import {
  formatAmount,
  getAssets,
  getBalance,
  getLastTick,
  getNowMs,
  getStockConfigs,
  getStockHolding,
  getStockHoldings,
  getStockInventory,
  getStockPendingOrder,
  getStockPendingOrders,
  getStockSession,
  parseAmount,
  stockExecutablePrice,
  stockFillCost,
  stockLimitUnitsOf,
  stockPriceText,
  stockPriceUnitsOf,
  systemOwners,
  type Command,
  type KernelState,
  type Mode,
  type StockConfigView,
  type StockFillView as KernelFill,
  type StockHoldingView as KernelHolding,
  type StockOrderView as KernelOrder,
} from "@candor/kernel";
import {
  calendars,
  instruments as catalogue,
  isMarketOpen,
  marketStatus,
  toLocalMs,
  type Instrument,
} from "@candor/market";
import type { CandorApplied, CandorCommand, CandorFirst } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { StocksRepository } from "./stocks.repository.ts";

export interface StocksEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  recall(id: string): CandorFirst | undefined;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

export interface StocksSession {
  ownerId: string;
  mode: Mode;
}

/** Trading terms of one currency's stocks (configuration; see docs/decisions.md). */
export interface StockTerms {
  spreadBps: number;
  commissionBps: number;
  /** Whole currency units, e.g. "1" (USD 1.00). */
  commissionMin: string;
  /** Stamp duty rounds up to this many whole units (HK: "1"); ignored without duty. */
  stampDutyRoundTo: string;
}

export const defaultStockTerms: Readonly<Record<string, StockTerms>> = {
  USD: { spreadBps: 10, commissionBps: 3, commissionMin: "1", stampDutyRoundTo: "0.01" },
  HKD: { spreadBps: 10, commissionBps: 3, commissionMin: "3", stampDutyRoundTo: "1" },
};

export interface StocksServiceOptions {
  engine: StocksEngine;
  repository: StocksRepository;
  now: () => number;
  terms?: Readonly<Record<string, StockTerms>>;
  /** The catalogue (default `@candor/market`'s). */
  instruments?: readonly Instrument[];
  /** A market order's quote may be at most this old, ms (default 60,000). */
  tickAgeMaxMs?: number;
  /** Demo only: the demo house's shares per stock and cash per currency (whole units). */
  demoHouseShares?: bigint;
  demoHouseCash?: Readonly<Record<string, string>>;
  /** Demo only: what a user's demo-funds request tops up to, whole units per currency. */
  demoUserCash?: Readonly<Record<string, string>>;
  /**
   * Low and high of the simulated history computed before the live start (not stored, issue
   * 15), merged with the stored candles' for the day and year ranges.
   */
  computedRange?: (
    instrumentId: string,
    interval: "1h" | "1d",
    fromMs: number,
  ) => { low: bigint; high: bigint } | null;
}

const day = 86_400_000;
const recentMax = 10_000;

type PlaceCommand = Extract<Command, { type: "stock_place_order" }>;

/**
 * Stocks: terms from the catalogue, sessions from the exchange calendars (journaled as
 * `stock_session`), orders through the journal, holdings from the kernel, history from the read
 * models (the latest closes and fills from memory while the read models catch up).
 */
export class StocksService {
  private readonly instruments: Instrument[];
  private readonly recentOrders = new Map<number, KernelOrder>();
  private readonly recentFills = new Map<number, KernelFill>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: StocksServiceOptions) {
    this.instruments = (options.instruments ?? catalogue).filter((i) =>
      i.products.includes("stock"),
    );
    this.unsubscribe = options.engine.subscribe((applied) => {
      for (const event of applied.events) {
        if (event.type === "stock_order_closed" || event.type === "stock_order_filled") {
          this.remember(this.recentOrders, event.order.orderId, event.order);
        }
        if (event.type === "stock_order_filled") {
          this.remember(this.recentFills, event.fill.orderId, event.fill);
        }
      }
    });
  }

  private remember<T>(map: Map<number, T>, key: number, value: T): void {
    map.set(key, value);
    if (map.size > recentMax) map.delete(map.keys().next().value!);
  }

  stop(): void {
    this.unsubscribe();
  }

  private terms(asset: string): StockTerms | undefined {
    return (this.options.terms ?? defaultStockTerms)[asset];
  }

  private scaleOf(assetId: string): number {
    return (
      this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId)?.scale ?? 0
    );
  }

  private instrument(instrumentId: string): Instrument {
    const found = this.instruments.find((i) => i.id === instrumentId);
    if (!found) throw new AppError("stock_not_found");
    return found;
  }

  private config(instrumentId: string): StockConfigView {
    const config = this.options.engine
      .query((s) => getStockConfigs(s))
      .find((c) => c.instrumentId === instrumentId);
    if (!config) throw new AppError("stock_not_found");
    return config;
  }

  /** Start-up: the currencies, each stock's terms, and its session as the calendar has it now. */
  async setup(): Promise<void> {
    const engine = this.options.engine;
    const assets = new Set(engine.query((s) => getAssets(s)).map((a) => a.assetId));
    const configured = new Set(engine.query((s) => getStockConfigs(s)).map((c) => c.instrumentId));
    for (const i of this.instruments) {
      if (!assets.has(i.quote.symbol)) {
        await submit(engine, {
          type: "define_asset",
          id: `setup:asset:${i.quote.symbol}`,
          assetId: i.quote.symbol,
          scale: i.quote.decimals,
          amountMax: null,
        });
        assets.add(i.quote.symbol);
      }
      const terms = this.terms(i.quote.symbol);
      if (!terms || configured.has(i.id)) continue;
      const scale = i.quote.decimals;
      const whole = (text: string) => {
        const parsed = parseAmount(text, scale);
        return parsed.ok ? parsed.value : 0n;
      };
      await submit(engine, {
        type: "stock_configure",
        id: `setup:stock:${i.id}`,
        instrumentId: i.id,
        assetId: i.quote.symbol,
        priceScale: i.priceScale,
        lotSize: i.lotSize,
        quantityLotsMax: 10_000,
        spreadBps: terms.spreadBps,
        commissionBps: terms.commissionBps,
        commissionMin: whole(terms.commissionMin),
        stampDutyBps: i.stampDutyBps,
        stampDutyRoundUnits: i.stampDutyBps > 0 ? whole(terms.stampDutyRoundTo) || 1n : 1n,
        tickAgeMaxMs: this.options.tickAgeMaxMs ?? 60_000,
        open: true,
        operatorId: "config",
      });
    }
    await this.syncSessions();
  }

  /**
   * Journals the calendar's session state where the kernel's differs (opening, closing at the
   * end of the day, holidays). Runs on a timer and before every order, so an order never meets
   * a stale session.
   */
  async syncSessions(only?: string): Promise<void> {
    const nowMs = this.options.now();
    for (const i of this.instruments) {
      if (only !== undefined && i.id !== only) continue;
      const session = this.options.engine.query((s) => getStockSession(s, i.id));
      if (!session) continue;
      const open = isMarketOpen(i, nowMs);
      if (session.open === open) continue;
      const localDate = new Date(toLocalMs(calendars[i.calendarId].timeZone, nowMs))
        .toISOString()
        .slice(0, 10);
      await submit(this.options.engine, {
        type: "stock_session",
        id: `stock-session:${i.id}:${nowMs}:${open ? "open" : "closed"}`,
        instrumentId: i.id,
        open,
        sessionId: `${i.calendarId}:${localDate}`,
      });
    }
  }

  list(mode: Mode): StockView[] {
    return this.instruments.flatMap((i) => {
      const config = this.options.engine
        .query((s) => getStockConfigs(s))
        .find((c) => c.instrumentId === i.id);
      return config ? [this.stockView(i, config, mode)] : [];
    });
  }

  async detail(instrumentId: string, mode: Mode) {
    const i = this.instrument(instrumentId);
    const stock = this.stockView(i, this.config(instrumentId), mode);
    const nowMs = this.options.now();
    const rangeOf = async (interval: "1h" | "1d", fromMs: number) => {
      const stored = await this.options.repository.range(i.id, interval, fromMs);
      const computed = this.options.computedRange?.(i.id, interval, fromMs) ?? null;
      if (!stored || !computed) return stored ?? computed;
      return {
        low: computed.low < stored.low ? computed.low : stored.low,
        high: computed.high > stored.high ? computed.high : stored.high,
      };
    };
    const [dayRange, yearRange] = await Promise.all([
      rangeOf("1h", nowMs - day),
      rangeOf("1d", nowMs - 365 * day),
    ]);
    const price = (v: bigint | undefined) =>
      v === undefined ? null : formatDecimalFixed(v, i.priceScale);
    return {
      stock,
      dayLow: price(dayRange?.low),
      dayHigh: price(dayRange?.high),
      yearLow: price(yearRange?.low),
      yearHigh: price(yearRange?.high),
    };
  }

  private stockView(i: Instrument, c: StockConfigView, mode: Mode): StockView {
    const { session, tick, inventory } = this.options.engine.query((s) => ({
      session: getStockSession(s, i.id),
      tick: getLastTick(s, i.id),
      inventory: getStockInventory(s, mode, i.id),
    }));
    const status = marketStatus(i, this.options.now());
    const scale = this.scaleOf(c.assetId);
    const quote = tick ? stockPriceUnitsOf(tick.price) : null;
    return {
      instrumentId: i.id,
      symbol: i.symbol,
      name: i.names.en,
      venue: i.venue,
      asset: c.assetId,
      assetDecimals: scale,
      priceDecimals: c.priceScale,
      lotSize: c.lotSize.toString(),
      quantityLotsMax: c.quantityLotsMax,
      spreadBps: c.spreadBps,
      commissionBps: c.commissionBps,
      commissionMin: formatAmount(c.commissionMin, scale),
      stampDutyBps: c.stampDutyBps,
      stampDutyRoundTo: formatAmount(c.stampDutyRoundUnits, scale),
      tradable: c.open,
      session: {
        open: session?.open ?? false,
        sessionId: session?.sessionId ?? null,
        nextOpenMs: status.nextOpenMs,
        nextCloseMs: status.nextCloseMs,
      },
      lastPrice: tick?.price ?? null,
      lastTickId: tick?.tickId ?? null,
      lastTickAtMs: tick?.tickAtMs ?? null,
      ask:
        quote === null ? null : stockPriceText(stockExecutablePrice(c, "buy", quote), c.priceScale),
      bid:
        quote === null
          ? null
          : stockPriceText(stockExecutablePrice(c, "sell", quote), c.priceScale),
      houseAvailable: inventory.available.toString(),
    };
  }

  estimate(input: {
    instrumentId: string;
    side: "buy" | "sell";
    kind: "market" | "limit";
    quantity: string;
    limitPrice?: string;
  }): StockEstimateView {
    const c = this.config(input.instrumentId);
    const quantity = BigInt(input.quantity);
    if (quantity % c.lotSize !== 0n) throw new AppError("stock_quantity_invalid");
    let price: bigint;
    if (input.kind === "limit") {
      const limit =
        input.limitPrice === undefined ? null : stockLimitUnitsOf(input.limitPrice, c.priceScale);
      if (limit === null) throw new AppError("stock_price_invalid");
      price = limit;
    } else {
      const tick = this.options.engine.query((s) => getLastTick(s, c.instrumentId));
      const quote = tick ? stockPriceUnitsOf(tick.price) : null;
      if (quote === null) throw new AppError("no_reference_price");
      price = stockExecutablePrice(c, input.side, quote);
    }
    const scale = this.scaleOf(c.assetId);
    const cost = stockFillCost(c, input.side, price, quantity, scale);
    return {
      price: stockPriceText(price, c.priceScale),
      notional: formatAmount(cost.notional, scale),
      commission: formatAmount(cost.commission, scale),
      stampDuty: formatAmount(cost.stampDuty, scale),
      net: formatAmount(cost.net, scale),
    };
  }

  async place(
    session: StocksSession,
    input: {
      requestId: string;
      instrumentId: string;
      side: "buy" | "sell";
      kind: "market" | "limit";
      quantity: string;
      limitPrice?: string;
      tif: "day" | "gtc";
      queueForOpen: boolean;
    },
  ): Promise<{ order: StockOrderView; fill: StockFillView | null; duplicate: boolean }> {
    const engine = this.options.engine;
    const c = this.config(input.instrumentId);
    const command: Omit<PlaceCommand, "atMs"> = {
      type: "stock_place_order",
      id: `stock-${session.mode}-${session.ownerId}-${input.requestId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      instrumentId: c.instrumentId,
      side: input.side,
      kind: input.kind,
      quantity: BigInt(input.quantity),
      limitPrice: input.kind === "limit" ? (input.limitPrice ?? null) : null,
      tif: input.kind === "limit" ? input.tif : "day",
      queueForOpen: input.kind === "limit" && input.queueForOpen,
    };
    if (input.kind === "limit" && command.limitPrice === null)
      throw new AppError("stock_price_invalid");
    const first = engine.recall(command.id);
    if (first) {
      const same = first.command.type === "stock_place_order" && samePlace(first.command, command);
      if (!same) throw new AppError("client_order_id_reused");
      if (!first.result.ok) throw new AppError(errorCodeOf(first.result.code));
      return { ...this.placedOf(first.events), duplicate: true };
    }
    const known = await this.options.repository.orderByClientId(command.id);
    if (known) {
      return {
        order: this.orderView(this.recentOrders.get(known.orderId) ?? known),
        fill: await this.fillOf(known.orderId),
        duplicate: true,
      };
    }
    await ensureAccounts(engine, session.ownerId, session.mode);
    await this.syncSessions(c.instrumentId);
    if (session.mode === "demo") await this.topUpDemoHouse(c);
    const applied = await submit(engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { ...this.placedOf(applied.events), duplicate: applied.duplicate };
  }

  private placedOf(events: CandorApplied["events"]): {
    order: StockOrderView;
    fill: StockFillView | null;
  } {
    let order: KernelOrder | undefined;
    let fill: KernelFill | undefined;
    for (const e of events) {
      if (e.type === "stock_order_placed" && order === undefined) order = e.order;
      if (e.type === "stock_order_filled" && fill === undefined) {
        order = e.order;
        fill = e.fill;
      }
    }
    if (!order) throw new AppError("service_unavailable");
    const latest =
      this.options.engine.query((s) => getStockPendingOrder(s, order.orderId)) ??
      this.recentOrders.get(order.orderId) ??
      order;
    const latestFill = fill ?? this.recentFills.get(order.orderId);
    return { order: this.orderView(latest), fill: latestFill ? this.fillView(latestFill) : null };
  }

  async orders(
    session: StocksSession,
    query: { status: "pending" | "history"; instrumentId?: string; limit: number },
  ): Promise<StockOrderView[]> {
    if (query.status === "pending") {
      return this.options.engine
        .query((s) => getStockPendingOrders(s, session.ownerId, session.mode))
        .filter((o) => query.instrumentId === undefined || o.instrumentId === query.instrumentId)
        .slice(0, query.limit)
        .map((o) => this.orderView(o));
    }
    const rows = await this.options.repository.history(
      session.ownerId,
      session.mode,
      query.instrumentId,
      query.limit,
    );
    // Closes the read model has not written yet come from memory, newest first.
    const seen = new Set(rows.map((r) => r.orderId));
    const recent = [...this.recentOrders.values()].filter(
      (o) =>
        !seen.has(o.orderId) &&
        o.ownerId === session.ownerId &&
        o.mode === session.mode &&
        (query.instrumentId === undefined || o.instrumentId === query.instrumentId),
    );
    return [...recent, ...rows]
      .sort((a, b) => b.orderId - a.orderId)
      .slice(0, query.limit)
      .map((o) => this.orderView(o));
  }

  private async findOrder(session: StocksSession, orderId: number): Promise<KernelOrder> {
    const found =
      this.options.engine.query((s) => getStockPendingOrder(s, orderId)) ??
      this.recentOrders.get(orderId) ??
      (await this.options.repository.order(orderId));
    // Another user's order answers like a missing one.
    if (!found || found.ownerId !== session.ownerId || found.mode !== session.mode) {
      throw new AppError("order_not_found");
    }
    return found;
  }

  private async fillOf(orderId: number): Promise<StockFillView | null> {
    const fill = this.recentFills.get(orderId) ?? (await this.options.repository.fill(orderId));
    return fill ? this.fillView(fill) : null;
  }

  async orderDetail(session: StocksSession, orderId: number) {
    const order = await this.findOrder(session, orderId);
    return { order: this.orderView(order), fill: await this.fillOf(orderId) };
  }

  async cancel(session: StocksSession, orderId: number): Promise<StockOrderView> {
    const order = await this.findOrder(session, orderId);
    if (order.status !== "pending") throw new AppError("order_not_found");
    const applied = await submit(this.options.engine, {
      type: "stock_cancel_order",
      id: `stock-cancel-${session.mode}-${session.ownerId}-${orderId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return this.orderView(this.recentOrders.get(orderId) ?? order);
  }

  async fills(session: StocksSession, query: { instrumentId?: string; limit: number }) {
    const rows = await this.options.repository.fills(
      session.ownerId,
      session.mode,
      query.instrumentId,
      query.limit,
    );
    const seen = new Set(rows.map((r) => r.orderId));
    const recent = [...this.recentFills.values()].filter(
      (f) =>
        !seen.has(f.orderId) &&
        f.ownerId === session.ownerId &&
        f.mode === session.mode &&
        (query.instrumentId === undefined || f.instrumentId === query.instrumentId),
    );
    return [...recent, ...rows]
      .sort((a, b) => b.orderId - a.orderId)
      .slice(0, query.limit)
      .map((f) => this.fillView(f));
  }

  holdings(session: StocksSession) {
    const holdings = this.options.engine.query((s) =>
      getStockHoldings(s, session.ownerId, session.mode),
    );
    const totals = new Map<string, { value: bigint; unrealised: bigint; realised: bigint }>();
    const items = holdings.map((h) => {
      const { view, value, unrealised } = this.holdingView(h);
      const t = totals.get(h.assetId) ?? { value: 0n, unrealised: 0n, realised: 0n };
      t.value += value;
      t.unrealised += unrealised;
      t.realised += h.realisedPnl;
      totals.set(h.assetId, t);
      return view;
    });
    return {
      items,
      totals: [...totals].map(([asset, t]) => {
        const scale = this.scaleOf(asset);
        return {
          asset,
          marketValue: formatAmount(t.value, scale),
          unrealisedPnl: formatAmount(t.unrealised, scale),
          realisedPnl: formatAmount(t.realised, scale),
        };
      }),
    };
  }

  async setTpSl(
    session: StocksSession,
    instrumentId: string,
    body: { takeProfit: string | null; stopLoss: string | null },
  ): Promise<StockHoldingView> {
    const c = this.config(instrumentId);
    const nowMs = this.options.engine.query((s) => getNowMs(s));
    const applied = await submit(this.options.engine, {
      type: "stock_set_tpsl",
      id: `stock-tpsl-${session.mode}-${session.ownerId}-${c.instrumentId}-${nowMs}-${Math.random().toString(36).slice(2, 10)}`,
      ownerId: session.ownerId,
      mode: session.mode,
      instrumentId: c.instrumentId,
      takeProfit: body.takeProfit,
      stopLoss: body.stopLoss,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const holding = this.options.engine.query((s) =>
      getStockHolding(s, session.ownerId, session.mode, c.instrumentId),
    );
    if (!holding) throw new AppError("stock_holding_insufficient");
    return this.holdingView(holding).view;
  }

  /** Demo only: tops the user's demo USD and HKD up to the configured amounts (demo money). */
  async demoFunds(session: StocksSession) {
    if (session.mode !== "demo") throw new AppError("demo_mode_required");
    await ensureAccounts(this.options.engine, session.ownerId, "demo");
    const targets = this.options.demoUserCash ?? { USD: "10000", HKD: "100000" };
    const out: { asset: string; amount: string }[] = [];
    for (const [asset, text] of Object.entries(targets)) {
      const scale = this.scaleOf(asset);
      const target = parseAmount(text, scale);
      if (!target.ok) continue;
      const balance = this.options.engine.query((s) =>
        getBalance(s, session.ownerId, "demo", "fund", asset),
      );
      const have = balance.available + balance.held;
      if (have < target.value) {
        const nowMs = this.options.engine.query((s) => getNowMs(s));
        await submit(this.options.engine, {
          type: "grant_demo",
          id: `stock-demo-funds:${session.ownerId}:${asset}:${nowMs}`,
          ownerId: session.ownerId,
          mode: "demo",
          assetId: asset,
          amount: target.value - have,
        });
      }
      const after = this.options.engine.query((s) =>
        getBalance(s, session.ownerId, "demo", "fund", asset),
      );
      out.push({ asset, amount: formatAmount(after.available, scale) });
    }
    return out;
  }

  /** Operator: shares into (or free shares out of) the house's inventory, journaled. */
  async fundInventory(
    input: {
      requestId: string;
      mode: Mode;
      instrumentId: string;
      direction: "add" | "remove";
      quantity: string;
      reference: string;
    },
    operatorId: string,
  ) {
    const c = this.config(input.instrumentId);
    const applied = await submit(this.options.engine, {
      type: "stock_fund_inventory",
      id: `stock-inventory-${input.requestId}`,
      mode: input.mode,
      instrumentId: c.instrumentId,
      quantity: input.direction === "add" ? BigInt(input.quantity) : -BigInt(input.quantity),
      operatorId,
      reference: input.reference,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const inv = this.options.engine.query((s) => getStockInventory(s, input.mode, c.instrumentId));
    return {
      instrumentId: c.instrumentId,
      mode: input.mode,
      funded: inv.funded.toString(),
      available: inv.available.toString(),
      reserved: inv.reserved.toString(),
    };
  }

  /** Demo: the demo house's shares and cash are topped up from configuration (demo only). */
  private async topUpDemoHouse(c: StockConfigView): Promise<void> {
    const engine = this.options.engine;
    const nowMs = engine.query((s) => getNowMs(s));
    const shares = (this.options.demoHouseShares ?? 100_000n) * c.lotSize;
    const inventory = engine.query((s) => getStockInventory(s, "demo", c.instrumentId));
    if (inventory.available * 2n < shares) {
      await submit(engine, {
        type: "stock_fund_inventory",
        id: `stock-demo-house:${c.instrumentId}:${nowMs}`,
        mode: "demo",
        instrumentId: c.instrumentId,
        quantity: shares - inventory.available,
        operatorId: "config",
        reference: "demo house inventory (demo shares)",
      });
    }
    const text = (this.options.demoHouseCash ?? { USD: "10000000", HKD: "100000000" })[c.assetId];
    const target = text === undefined ? null : parseAmount(text, this.scaleOf(c.assetId));
    if (!target?.ok) return;
    const cash = engine.query((s) => getBalance(s, systemOwners.house, "demo", "fund", c.assetId));
    if (cash.available * 2n >= target.value) return;
    await submit(engine, {
      type: "grant_demo",
      id: `stock-demo-house-cash:${c.assetId}:${nowMs}`,
      ownerId: systemOwners.house,
      mode: "demo",
      assetId: c.assetId,
      amount: target.value - cash.available,
    });
  }

  private orderView(o: KernelOrder): StockOrderView {
    const scale = this.scaleOf(o.assetId);
    return {
      orderId: String(o.orderId),
      clientOrderId: o.clientOrderId,
      mode: o.mode,
      instrumentId: o.instrumentId,
      asset: o.assetId,
      side: o.side,
      kind: o.kind,
      tif: o.tif,
      origin: o.origin,
      quantity: o.quantity.toString(),
      limitPrice: o.limitPrice,
      prepaid: formatAmount(o.prepaid, scale),
      status: o.status,
      placedAtMs: o.placedAtMs,
      closedAtMs: o.closedAtMs,
    };
  }

  private fillView(f: KernelFill): StockFillView {
    const scale = this.scaleOf(f.assetId);
    const money = (v: bigint) => formatAmount(v, scale);
    return {
      orderId: String(f.orderId),
      mode: f.mode,
      instrumentId: f.instrumentId,
      asset: f.assetId,
      side: f.side,
      origin: f.origin,
      quantity: f.quantity.toString(),
      price: f.price,
      notional: money(f.notional),
      commission: money(f.commission),
      stampDuty: money(f.stampDuty),
      net: money(f.net),
      released: money(f.released),
      tickId: f.tickId,
      tickPrice: f.tickPrice,
      filledAtMs: f.filledAtMs,
    };
  }

  private holdingView(h: KernelHolding): {
    view: StockHoldingView;
    value: bigint;
    unrealised: bigint;
  } {
    const c = this.config(h.instrumentId);
    const scale = this.scaleOf(h.assetId);
    const money = (v: bigint) => formatAmount(v, scale);
    const tick = this.options.engine.query((s) => getLastTick(s, h.instrumentId));
    const quote = tick ? stockPriceUnitsOf(tick.price) : null;
    // Market value at the last quote, rounded down to the smallest unit.
    const value = quote === null ? 0n : (quote * h.quantity) / 10n ** BigInt(18 - scale);
    const unrealised = quote === null ? 0n : value - h.costBasis;
    const priceUnit = 10n ** BigInt(18 - c.priceScale);
    const averageUnits =
      h.quantity === 0n
        ? null
        : ((h.costBasis * 10n ** BigInt(18 - scale) * 2n) / h.quantity / priceUnit + 1n) / 2n;
    return {
      value,
      unrealised,
      view: {
        instrumentId: h.instrumentId,
        asset: h.assetId,
        quantity: h.quantity.toString(),
        heldQuantity: h.heldQuantity.toString(),
        costBasis: money(h.costBasis),
        averageCost: averageUnits === null ? null : formatDecimalFixed(averageUnits, c.priceScale),
        lastPrice: tick?.price ?? null,
        marketValue: quote === null ? null : money(value),
        unrealisedPnl: quote === null || h.quantity === 0n ? null : money(unrealised),
        realisedPnl: money(h.realisedPnl),
        takeProfit: h.takeProfit,
        stopLoss: h.stopLoss,
      },
    };
  }
}

function samePlace(a: PlaceCommand, b: Omit<PlaceCommand, "atMs">): boolean {
  return (
    a.mode === b.mode &&
    a.instrumentId === b.instrumentId &&
    a.side === b.side &&
    a.kind === b.kind &&
    a.quantity === b.quantity &&
    a.limitPrice === b.limitPrice &&
    a.tif === b.tif &&
    a.queueForOpen === b.queueForOpen
  );
}
