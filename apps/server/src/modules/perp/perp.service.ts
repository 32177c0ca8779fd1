import type {
  PerpConditionalOrderView,
  PerpDisclosureView,
  PerpFillView,
  PerpForcedEventView,
  PerpFundingView,
  PerpMarketView,
  PerpOrderView,
  PerpPositionView,
  PerpTradeView,
  WsPerpFunding,
  WsPerpMark,
  WsPerpOrder,
  WsPerpPosition,
} from "@candor/contract";
import {
  formatAmount,
  getBalance,
  getPerpConditionalOrders,
  getPerpDepth,
  getPerpMarkets,
  getPerpOpenOrders,
  getPerpPositionFigures,
  parseAmount,
  type Command,
  type KernelState,
  type Mode,
  type PerpMarketInfo,
  type PerpOrderOutcome,
  type PerpOrderView as KernelOrder,
} from "@candor/kernel";
import type { CandorApplied, CandorCommand } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import {
  positionViewOf,
  priceOfTicks,
  rateOfE8,
  stepOf,
  ticksOfPrice,
  type Step,
} from "./perp.format.ts";
import type { PerpOrderRow, PerpRecordRow, PerpRepository } from "./perp.repository.ts";

/** What the perp module needs from the engine. */
export interface PerpEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

export interface PerpSession {
  ownerId: string;
  mode: Mode;
}

/** Where the private `perp` messages go (the WebSocket hub implements it). */
export interface PerpStreamSink {
  publishPrivate(
    userId: string,
    mode: Mode,
    stream: "perp",
    build: () => WsPerpPosition | WsPerpOrder | WsPerpMark | WsPerpFunding,
  ): void;
}

export interface PerpServiceOptions {
  engine: PerpEngine;
  repository: Pick<PerpRepository, "orders" | "records" | "realNetByAccount" | "recentTrades">;
  now: () => number;
  /** False: the deployment switched perpetuals off (PERP_ENABLED=false). */
  enabled: boolean;
  streams?: PerpStreamSink;
  /** How long the disclosure figures are reused, ms (default 60,000). */
  disclosureCacheMs?: number;
}

interface MarketTerms {
  info: PerpMarketInfo;
  step: Step;
}

type PlaceCommand = Extract<Command, { type: "place_perp_order" }>;
type ConditionalCommand = Extract<Command, { type: "place_perp_conditional_order" }>;
type OcoCommand = Extract<Command, { type: "place_perp_oco_order" }>;

const day = 86_400_000;

/** Order-placing command ids: `perp-<owner>-<mode>-<clientOrderId>` (the client's id shown). */
function commandIdOf(session: PerpSession, kind: string, requestId: string): string {
  return `perp-${kind}-${session.ownerId}-${session.mode}-${requestId}`;
}
const commandIdPattern = /^perp-[a-z]+-[^-]+-(?:real|demo)-/;

/**
 * Perpetual contracts for the API: markets with their marks, the session's positions with the
 * figures of spec §3, orders and position actions through the journal, history from the read
 * models (rm_perp_orders, rm_perp_records), and the private `perp` stream.
 */
export class PerpService {
  private disclosureCache: { atMs: number; view: PerpDisclosureView } | undefined;
  /** Owners with a position per `marketId|mode`: who gets that market's mark on the stream. */
  private readonly holders = new Map<string, Set<string>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: PerpServiceOptions) {
    this.unsubscribe = options.engine.subscribe((applied) => this.publish(applied));
  }

  stop(): void {
    this.unsubscribe();
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  private publish(applied: CandorApplied): void {
    const streams = this.options.streams;
    const changed = new Set<string>();
    for (const event of applied.events) {
      if (event.type === "perp_position_changed") {
        const p = event.position;
        const key = `${p.marketId}|${p.mode}`;
        let set = this.holders.get(key);
        if (!set) this.holders.set(key, (set = new Set()));
        if (p.sizeLots === 0n) set.delete(p.ownerId);
        else set.add(p.ownerId);
        if (!p.ownerId.startsWith("system:")) changed.add(`${p.mode}|${p.ownerId}|${p.marketId}`);
      } else if (event.type === "perp_funding_settled" && streams && !applied.replay) {
        // Each payer and receiver hears of their payment, with the rate, mark and tick ids.
        const terms = this.terms(event.mode).get(event.marketId);
        if (!terms) continue;
        for (const payment of event.payments) {
          if (payment.ownerId.startsWith("system:")) continue;
          const message: WsPerpFunding = {
            type: "perp_funding",
            stream: "perp",
            data: {
              marketId: event.marketId,
              atMs: applied.command.atMs,
              rate: rateOfE8(event.rateE8),
              markPrice: priceOfTicks(event.markTicks, terms.step),
              contracts: String(payment.sizeLots),
              amount: formatAmount(payment.amount, terms.info.quoteScale),
              tickIds: event.tickIds,
            },
          };
          streams.publishPrivate(payment.ownerId, event.mode, "perp", () => message);
        }
      } else if (event.type === "perp_mark" && streams && !applied.replay) {
        const holders = this.holders.get(`${event.marketId}|${event.mode}`);
        if (!holders || holders.size === 0) continue;
        const terms = this.terms(event.mode).get(event.marketId);
        if (!terms) continue;
        const message: WsPerpMark = {
          type: "perp_mark",
          stream: "perp",
          data: {
            marketId: event.marketId,
            markPrice: priceOfTicks(event.markTicks, terms.step),
            indexPrice: priceOfTicks(event.indexTicks, terms.step),
            tickIds: event.tickIds,
          },
        };
        for (const ownerId of holders) {
          if (!ownerId.startsWith("system:")) {
            streams.publishPrivate(ownerId, event.mode, "perp", () => message);
          }
        }
      }
    }
    if (!streams || applied.replay) return;
    for (const key of changed) {
      const [mode, ownerId, marketId] = key.split("|") as [Mode, string, string];
      streams.publishPrivate(ownerId, mode, "perp", () => ({
        type: "perp_position",
        stream: "perp",
        data: this.positions({ ownerId, mode }).find((p) => p.marketId === marketId)!,
      }));
    }
  }

  private terms(mode: Mode): Map<string, MarketTerms> {
    const infos = this.options.engine.query((s) => getPerpMarkets(s, mode));
    return new Map(infos.map((info) => [info.marketId, { info, step: stepOf(info.priceStep) }]));
  }

  private market(session: PerpSession, marketId: string): MarketTerms {
    if (!this.options.enabled) throw new AppError("perp_disabled");
    const terms = this.terms(session.mode).get(marketId);
    if (!terms) throw new AppError("perp_market_not_found");
    return terms;
  }

  private guard(): void {
    if (!this.options.enabled) throw new AppError("perp_disabled");
  }

  /** A book's depth (best first, contracts per level) and its latest trades. */
  async book(mode: Mode, marketId: string, levels: number) {
    this.guard();
    const terms = this.terms(mode).get(marketId);
    const depth = this.options.engine.query((s) => getPerpDepth(s, marketId, mode, levels));
    if (!terms || !depth) throw new AppError("perp_market_not_found");
    const level = (l: { priceTicks: number; quantityLots: number }) => ({
      price: priceOfTicks(l.priceTicks, terms.step),
      contracts: l.quantityLots,
    });
    const rows = await this.options.repository.recentTrades(marketId, mode, 30);
    return {
      marketId,
      bids: depth.bids.map(level),
      asks: depth.asks.map(level),
      trades: rows.map((r): PerpTradeView => ({
        fillId: Number(r.data.fillId),
        price: priceOfTicks(BigInt(r.data.priceTicks as number), terms.step),
        contracts: r.data.quantityLots as number,
        takerSide: r.data.side as "buy" | "sell",
        liquidation: r.data.liquidation === true,
        atMs: r.atMs,
        tickIds: r.tickIds,
      })),
    };
  }

  markets(mode: Mode): PerpMarketView[] {
    return [...this.terms(mode).values()].map(({ info, step }) => {
      const money = (v: bigint) => formatAmount(v, info.quoteScale);
      const price = (t: number | bigint | null | undefined) =>
        t === null || t === undefined ? null : priceOfTicks(t, step);
      return {
        marketId: info.marketId,
        instrumentId: info.instrumentId,
        asset: info.quoteAssetId,
        assetDecimals: info.quoteScale,
        priceStep: info.priceStep,
        contractSize: info.contractSize,
        contractsMin: info.quantityLotsMin,
        contractsMax: info.quantityLotsMax,
        leverageMax: info.leverageMax,
        leverageDefault: info.leverageDefault,
        tiers: info.tiers.map((t) => ({
          notionalFloor: money(t.notionalFloor),
          maintenanceRateBps: t.maintenanceMarginRateBps,
          maintenanceAmount: money(t.maintenanceAmount),
          leverageMax: t.leverageMax,
        })),
        feeBpsMaker: info.feeBpsMaker,
        feeBpsTaker: info.feeBpsTaker,
        liquidationFeeBps: info.liquidationFeeBps,
        priceBandBps: info.priceBandBps,
        fundingIntervalS: info.fundingIntervalMs / 1_000,
        fundingCapBps: info.fundingCapBps,
        markPrice: price(info.mark?.markTicks),
        indexPrice: price(info.mark?.indexTicks),
        markTickIds: info.mark?.tickIds ?? [],
        bestBid: price(info.bestBidTicks),
        bestAsk: price(info.bestAskTicks),
        nextFundingAtMs: info.nextFundingAtMs,
        estimatedFundingRate: rateOfE8(info.estimatedFundingRateE8),
        openInterest: String(info.openInterestLots),
      };
    });
  }

  /** The share of real-money accounts that lost money on perpetuals in the last 90 days. */
  async disclosure(): Promise<PerpDisclosureView> {
    const nowMs = this.options.now();
    const cached = this.disclosureCache;
    if (cached && nowMs - cached.atMs < (this.options.disclosureCacheMs ?? 60_000)) {
      return cached.view;
    }
    const fromMs = nowMs - 90 * day;
    const { accounts, lost } = await this.options.repository.realNetByAccount(fromMs);
    const view: PerpDisclosureView = {
      fromMs,
      toMs: nowMs,
      accountsCount: accounts,
      lostCount: lost,
      lostShareBps: accounts === 0 ? null : Math.floor((lost * 10_000) / accounts),
    };
    this.disclosureCache = { atMs: nowMs, view };
    return view;
  }

  positions(session: PerpSession): PerpPositionView[] {
    const terms = this.terms(session.mode);
    return this.options.engine
      .query((s) => getPerpPositionFigures(s, session.ownerId, session.mode))
      .flatMap((p) => {
        const t = terms.get(p.marketId);
        return t ? [positionViewOf(p, t.step, t.info.quoteAssetId, t.info.quoteScale)] : [];
      });
  }

  /** The position record of one market (a flat one when the owner never traded there). */
  private position(session: PerpSession, marketId: string): PerpPositionView {
    const found = this.positions(session).find((p) => p.marketId === marketId);
    if (found) return found;
    const { info } = this.market(session, marketId);
    return {
      marketId,
      mode: session.mode,
      side: "flat",
      marginMode: "cross",
      leverage: info.leverageDefault,
      contracts: "0",
      asset: info.quoteAssetId,
      entryPrice: null,
      markPrice: null,
      markTickIds: [],
      margin: "0",
      notional: "0",
      unrealisedPnl: "0",
      returnRateBps: null,
      equity: "0",
      maintenanceMargin: "0",
      riskRatioBps: null,
      liquidationPrice: null,
      takeProfitPrice: null,
      stopLossPrice: null,
      takeProfitPnl: null,
      stopLossPnl: null,
      debt: "0",
    };
  }

  wallet(session: PerpSession): { asset: string; available: string; held: string }[] {
    const assets = new Map<string, number>();
    for (const { info } of this.terms(session.mode).values()) {
      assets.set(info.quoteAssetId, info.quoteScale);
    }
    return [...assets].map(([asset, scale]) => {
      const b = this.options.engine.query((s) =>
        getBalance(s, session.ownerId, session.mode, "contract", asset),
      );
      return {
        asset,
        available: formatAmount(b.available, scale),
        held: formatAmount(b.held, scale),
      };
    });
  }

  private async run<C extends CandorCommand>(session: PerpSession, command: C) {
    await ensureAccounts(this.options.engine, session.ownerId, session.mode);
    const applied = await submit(this.options.engine, command);
    if (!applied.result.ok) {
      const code = applied.result.code;
      throw new AppError(code === "market_not_found" ? "perp_market_not_found" : errorCodeOf(code));
    }
    return applied;
  }

  async placeOrder(
    session: PerpSession,
    input: {
      clientOrderId: string;
      marketId: string;
      side: "buy" | "sell";
      orderType: "limit" | "market";
      timeInForce?: "gtc" | "ioc" | "fok" | "post_only";
      price?: string;
      contracts: number;
      reduceOnly: boolean;
      selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
    },
  ) {
    const { step } = this.market(session, input.marketId);
    const priceTicks = limitPriceTicks(input, step);
    const command: Omit<PlaceCommand, "atMs"> = {
      type: "place_perp_order",
      id: commandIdOf(session, "order", input.clientOrderId),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: input.marketId,
      side: input.side,
      orderType: input.orderType,
      timeInForce: input.orderType === "market" ? "ioc" : (input.timeInForce ?? "gtc"),
      priceTicks,
      quantityLots: input.contracts,
      reduceOnly: input.reduceOnly,
    };
    const stp = input.selfTradeMode ?? "cancel_resting";
    const applied =
      stp === "cancel_resting"
        ? await this.run(session, command)
        : await this.run(session, {
            ...command,
            type: "place_perp_order_stp",
            selfTradeMode: stp,
          });
    const first = applied.first?.command;
    if (applied.duplicate && first && !sameOrder(first, command)) {
      throw new AppError("client_order_id_reused");
    }
    const outcome = (applied.result as { ok: true; value: PerpOrderOutcome }).value;
    return outcomeView(outcome, applied.duplicate);
  }

  async amendOrder(session: PerpSession, orderId: number, contracts: number) {
    this.guard();
    const applied = await submit(this.options.engine, {
      type: "amend_perp_order_size",
      id: `perp-amend-${session.ownerId}-${session.mode}-${orderId}-${crypto.randomUUID()}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
      quantityLots: contracts,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return outcomeView(applied.result.value, false);
  }

  async cancelOrder(session: PerpSession, orderId: number) {
    this.guard();
    const applied = await submit(this.options.engine, {
      type: "cancel_perp_order",
      id: `perp-cancel-${session.ownerId}-${session.mode}-${orderId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      orderId,
    });
    // A repeated cancel is a duplicate of the first: answered as it was.
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { orderId: String(orderId), cancelled: true };
  }

  /** A stop or take-profit order (kernel type 49): waits for the mark, holds nothing. */
  async placeConditional(
    session: PerpSession,
    input: {
      clientOrderId: string;
      marketId: string;
      side: "buy" | "sell";
      kind: "stop" | "take_profit";
      orderType: "limit" | "market";
      timeInForce?: "gtc" | "ioc" | "fok" | "post_only";
      triggerPrice: string;
      price?: string;
      contracts: number;
      reduceOnly: boolean;
      selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
    },
  ) {
    const { step } = this.market(session, input.marketId);
    const trigger = ticksOfPrice(input.triggerPrice, step);
    if (typeof trigger === "string") throw new AppError(trigger);
    const priceTicks = limitPriceTicks(input, step);
    const command: Omit<ConditionalCommand, "atMs"> = {
      type: "place_perp_conditional_order",
      id: commandIdOf(session, "stop", input.clientOrderId),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: input.marketId,
      side: input.side,
      kind: input.kind,
      orderType: input.orderType,
      timeInForce: input.orderType === "market" ? "ioc" : (input.timeInForce ?? "gtc"),
      triggerTicks: Number(trigger),
      priceTicks,
      quantityLots: input.contracts,
      reduceOnly: input.reduceOnly,
      selfTradeMode: input.selfTradeMode ?? "cancel_resting",
    };
    const applied = await this.run(session, command);
    const first = applied.first?.command;
    if (applied.duplicate && first && !sameConditional(first, command)) {
      throw new AppError("client_order_id_reused");
    }
    const value = (applied.result as { ok: true; value: { orderId: number } }).value;
    return { orderId: String(value.orderId), duplicate: applied.duplicate };
  }

  /** An OCO pair (kernel type 82): a take-profit and a stop that end together. */
  async placeOco(
    session: PerpSession,
    input: {
      clientOrderId: string;
      marketId: string;
      side: "buy" | "sell";
      contracts: number;
      takeProfitTriggerPrice: string;
      takeProfitPrice?: string;
      stopTriggerPrice: string;
      stopPrice?: string;
      reduceOnly: boolean;
      selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
    },
  ) {
    const { step } = this.market(session, input.marketId);
    const ticks = (price: string | undefined): number | null => {
      if (price === undefined) return null;
      const value = ticksOfPrice(price, step);
      if (typeof value === "string") throw new AppError(value);
      return Number(value);
    };
    const command: Omit<OcoCommand, "atMs"> = {
      type: "place_perp_oco_order",
      id: commandIdOf(session, "oco", input.clientOrderId),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId: input.marketId,
      side: input.side,
      quantityLots: input.contracts,
      reduceOnly: input.reduceOnly,
      selfTradeMode: input.selfTradeMode ?? "cancel_resting",
      takeProfitTriggerTicks: ticks(input.takeProfitTriggerPrice)!,
      takeProfitPriceTicks: ticks(input.takeProfitPrice),
      stopTriggerTicks: ticks(input.stopTriggerPrice)!,
      stopPriceTicks: ticks(input.stopPrice),
    };
    const applied = await this.run(session, command);
    const first = applied.first?.command;
    if (applied.duplicate && first && !sameOco(first, command)) {
      throw new AppError("client_order_id_reused");
    }
    const value = (applied.result as { ok: true; value: { orderId: number } }).value;
    return { orderId: String(value.orderId), duplicate: applied.duplicate };
  }

  async cancelConditional(session: PerpSession, orderId: number) {
    this.guard();
    const applied = await submit(this.options.engine, {
      type: "cancel_perp_conditional_order",
      id: `perp-cancelstop-${session.ownerId}-${session.mode}-${orderId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      conditionalId: orderId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { orderId: String(orderId), cancelled: true };
  }

  conditionalOrders(session: PerpSession, marketId?: string): PerpConditionalOrderView[] {
    this.guard();
    const terms = this.terms(session.mode);
    return this.options.engine
      .query((s) => getPerpConditionalOrders(s, session.ownerId, session.mode))
      .filter((o) => marketId === undefined || o.marketId === marketId)
      .map((o) => {
        const step = terms.get(o.marketId)!.step;
        return {
          orderId: String(o.conditionalId),
          clientOrderId: clientIdOf(o.clientOrderId),
          marketId: o.marketId,
          side: o.side,
          kind: o.kind,
          orderType: o.orderType,
          timeInForce: o.timeInForce,
          triggerPrice: priceOfTicks(o.triggerTicks, step),
          price: o.priceTicks === null ? null : priceOfTicks(o.priceTicks, step),
          contracts: o.quantityLots,
          reduceOnly: o.reduceOnly,
          selfTradeMode: o.selfTradeMode,
          ocoOrderId: o.ocoConditionalId === null ? null : String(o.ocoConditionalId),
        };
      });
  }

  openOrders(session: PerpSession, marketId?: string): PerpOrderView[] {
    this.guard();
    const terms = this.terms(session.mode);
    return this.options.engine
      .query((s) => getPerpOpenOrders(s, session.ownerId, session.mode))
      .filter((o) => marketId === undefined || o.marketId === marketId)
      .map((o) => openOrderView(o, terms));
  }

  async orderHistory(
    session: PerpSession,
    page: { marketId?: string; cursor?: string; limit: number },
  ) {
    this.guard();
    const terms = this.terms(session.mode);
    const rows = await this.options.repository.orders(session.ownerId, session.mode, {
      marketId: page.marketId,
      beforeId: page.cursor === undefined ? undefined : BigInt(page.cursor),
      limit: page.limit + 1,
    });
    const shown = rows.slice(0, page.limit);
    return {
      items: shown.map((r) => rowOrderView(r, terms)),
      nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]!.orderId) : null,
    };
  }

  private async records<T>(
    session: PerpSession,
    kind: "fill" | "forced" | "funding",
    page: { marketId?: string; cursor?: string; limit: number },
    view: (row: PerpRecordRow, terms: MarketTerms) => T,
  ): Promise<{ items: T[]; nextCursor: string | null }> {
    this.guard();
    const terms = this.terms(session.mode);
    const rows = await this.options.repository.records(session.ownerId, session.mode, kind, {
      marketId: page.marketId,
      beforeId: page.cursor === undefined ? undefined : BigInt(page.cursor),
      limit: page.limit + 1,
    });
    const shown = rows.slice(0, page.limit);
    return {
      items: shown.flatMap((r) => {
        const t = terms.get(r.marketId);
        return t ? [view(r, t)] : [];
      }),
      nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]!.id) : null,
    };
  }

  fills(session: PerpSession, page: { marketId?: string; cursor?: string; limit: number }) {
    return this.records(session, "fill", page, (r, t): PerpFillView => {
      const d = r.data;
      const money = (v: unknown) => formatAmount(BigInt(v as string), t.info.quoteScale);
      return {
        fillId: String(d.fillId),
        orderId: String(d.orderId),
        marketId: r.marketId,
        side: d.side as "buy" | "sell",
        role: d.role as "maker" | "taker",
        price: priceOfTicks(BigInt(d.priceTicks as number), t.step),
        contracts: d.quantityLots as number,
        realisedPnl: money(d.realised),
        fee: money(d.fee),
        liquidation: d.liquidation === true,
        atMs: r.atMs,
        tickIds: r.tickIds,
      };
    });
  }

  forced(session: PerpSession, page: { marketId?: string; cursor?: string; limit: number }) {
    return this.records(session, "forced", page, (r, t): PerpForcedEventView => {
      const d = r.data;
      const ticks = (v: unknown) =>
        v === null || v === undefined ? null : priceOfTicks(BigInt(v as string), t.step);
      return {
        id: String(r.id),
        kind: d.kind as PerpForcedEventView["kind"],
        marketId: r.marketId,
        instrumentId: t.info.instrumentId,
        atMs: r.atMs,
        markPrice: ticks(d.markTicks),
        price: ticks(d.priceTicks),
        contracts: d.lots === null ? null : String(d.lots),
        amount:
          d.amount === null ? null : formatAmount(BigInt(d.amount as string), t.info.quoteScale),
        rank: d.rank === null ? null : Number(d.rank),
        ...(typeof d.rejectCode === "string" ? { rejectCode: d.rejectCode } : {}),
        ...(typeof d.reason === "string" ? { reason: d.reason } : {}),
        tickIds: r.tickIds,
      };
    });
  }

  funding(session: PerpSession, page: { marketId?: string; cursor?: string; limit: number }) {
    return this.records(session, "funding", page, (r, t): PerpFundingView => {
      const d = r.data;
      return {
        id: String(r.id),
        marketId: r.marketId,
        instrumentId: t.info.instrumentId,
        atMs: r.atMs,
        rate: rateOfE8(BigInt(d.rateE8 as string)),
        markPrice: priceOfTicks(BigInt(d.markTicks as string), t.step),
        contracts: String(d.sizeLots),
        amount: formatAmount(BigInt(d.amount as string), t.info.quoteScale),
        tickIds: r.tickIds,
      };
    });
  }

  private uniqueId(session: PerpSession, kind: string): string {
    return `perp-${kind}-${session.ownerId}-${session.mode}-${this.options.now()}-${Math.random().toString(36).slice(2, 10)}`;
  }

  async setLeverage(session: PerpSession, marketId: string, leverage: number) {
    this.market(session, marketId);
    await this.run(session, {
      type: "set_perp_leverage",
      id: this.uniqueId(session, "leverage"),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
      leverage,
    });
    return { position: this.position(session, marketId) };
  }

  async setMarginMode(session: PerpSession, marketId: string, marginMode: "cross" | "isolated") {
    this.market(session, marketId);
    await this.run(session, {
      type: "set_perp_margin_mode",
      id: this.uniqueId(session, "margin-mode"),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
      marginMode,
    });
    return { position: this.position(session, marketId) };
  }

  async changeMargin(
    session: PerpSession,
    marketId: string,
    direction: "add" | "remove",
    amountText: string,
  ) {
    const { info } = this.market(session, marketId);
    const amount = parseAmount(amountText, info.quoteScale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    if (amount.value <= 0n) throw new AppError("amount_must_be_positive");
    await this.run(session, {
      type: direction === "add" ? "add_perp_margin" : "remove_perp_margin",
      id: this.uniqueId(session, "margin"),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
      amount: amount.value,
    } as CandorCommand);
    return { position: this.position(session, marketId) };
  }

  async setTpSl(
    session: PerpSession,
    marketId: string,
    takeProfitPrice: string | null,
    stopLossPrice: string | null,
  ) {
    const { step } = this.market(session, marketId);
    const ticks = (text: string | null) => {
      if (text === null) return null;
      const t = ticksOfPrice(text, step);
      if (typeof t === "string") throw new AppError(t);
      return Number(t);
    };
    await this.run(session, {
      type: "set_perp_tp_sl",
      id: this.uniqueId(session, "tpsl"),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
      takeProfitTicks: ticks(takeProfitPrice),
      stopLossTicks: ticks(stopLossPrice),
    });
    return { position: this.position(session, marketId) };
  }

  async cancelTpSl(session: PerpSession, marketId: string) {
    this.market(session, marketId);
    const position = this.position(session, marketId);
    if (position.side === "flat") throw new AppError("position_not_found");
    if (position.takeProfitPrice === null && position.stopLossPrice === null) return { position };
    await this.run(session, {
      type: "cancel_perp_tp_sl",
      id: this.uniqueId(session, "tpsl-cancel"),
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
    });
    return { position: this.position(session, marketId) };
  }

  async positionAction(
    session: PerpSession,
    marketId: string,
    action: "close" | "reverse",
    requestId: string,
  ) {
    this.market(session, marketId);
    const id = commandIdOf(session, action, requestId);
    const applied = await this.run(session, {
      type: action === "close" ? "close_perp_position" : "reverse_perp_position",
      id,
      ownerId: session.ownerId,
      mode: session.mode,
      marketId,
    } as CandorCommand);
    const first = applied.first?.command;
    if (applied.duplicate && first && "marketId" in first && first.marketId !== marketId) {
      throw new AppError("client_order_id_reused");
    }
    const outcome = (applied.result as { ok: true; value: PerpOrderOutcome }).value;
    return outcomeView(outcome, applied.duplicate);
  }

  async closeAll(session: PerpSession, requestId: string) {
    this.guard();
    await ensureAccounts(this.options.engine, session.ownerId, session.mode);
    const applied = await submit(this.options.engine, {
      type: "close_all_perp",
      id: commandIdOf(session, "closeall", requestId),
      ownerId: session.ownerId,
      mode: session.mode,
    });
    if (!applied.result.ok) {
      // Nothing open: nothing to close is not an error for "close all".
      if (applied.result.code === "position_not_found") {
        return { closed: false, duplicate: applied.duplicate };
      }
      throw new AppError(errorCodeOf(applied.result.code));
    }
    return { closed: true, duplicate: applied.duplicate };
  }
}

function outcomeView(outcome: PerpOrderOutcome, duplicate: boolean) {
  return {
    orderId: String(outcome.orderId),
    status: outcome.orderStatus,
    filledContracts: outcome.filledLots,
    restingContracts: outcome.restingLots,
    duplicate,
  };
}

function sameOrder(first: CandorCommand, retry: Omit<PlaceCommand, "atMs">): boolean {
  return (
    (first.type === "place_perp_order" || first.type === "place_perp_order_stp") &&
    first.marketId === retry.marketId &&
    first.side === retry.side &&
    first.orderType === retry.orderType &&
    first.priceTicks === retry.priceTicks &&
    first.quantityLots === retry.quantityLots &&
    first.reduceOnly === retry.reduceOnly
  );
}

function sameConditional(first: CandorCommand, retry: Omit<ConditionalCommand, "atMs">): boolean {
  return (
    first.type === "place_perp_conditional_order" &&
    first.marketId === retry.marketId &&
    first.side === retry.side &&
    first.kind === retry.kind &&
    first.orderType === retry.orderType &&
    first.triggerTicks === retry.triggerTicks &&
    first.priceTicks === retry.priceTicks &&
    first.quantityLots === retry.quantityLots &&
    first.reduceOnly === retry.reduceOnly
  );
}

function sameOco(first: CandorCommand, retry: Omit<OcoCommand, "atMs">): boolean {
  return (
    first.type === "place_perp_oco_order" &&
    first.marketId === retry.marketId &&
    first.side === retry.side &&
    first.quantityLots === retry.quantityLots &&
    first.reduceOnly === retry.reduceOnly &&
    first.takeProfitTriggerTicks === retry.takeProfitTriggerTicks &&
    first.takeProfitPriceTicks === retry.takeProfitPriceTicks &&
    first.stopTriggerTicks === retry.stopTriggerTicks &&
    first.stopPriceTicks === retry.stopPriceTicks
  );
}

function clientIdOf(commandId: string): string {
  return commandId.replace(commandIdPattern, "");
}

function openOrderView(o: KernelOrder, terms: Map<string, MarketTerms>): PerpOrderView {
  const t = terms.get(o.marketId)!;
  return {
    orderId: String(o.orderId),
    clientOrderId: clientIdOf(o.clientOrderId),
    mode: o.mode,
    marketId: o.marketId,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: o.orderType === "limit" ? priceOfTicks(o.priceTicks, t.step) : null,
    contracts: o.quantityLots,
    filledContracts: o.filledLots,
    reduceOnly: o.reduceOnly,
    status: "open",
    held: formatAmount(o.heldAmount, t.info.quoteScale),
    createdAtMs: o.createdAtMs,
  };
}

function rowOrderView(r: PerpOrderRow, terms: Map<string, MarketTerms>): PerpOrderView {
  const t = terms.get(r.marketId);
  return {
    orderId: String(r.orderId),
    clientOrderId: clientIdOf(r.clientOrderId),
    mode: r.mode,
    marketId: r.marketId,
    side: r.side,
    orderType: r.orderType,
    timeInForce: r.timeInForce,
    price: r.priceTicks === null || !t ? null : priceOfTicks(r.priceTicks, t.step),
    contracts: r.quantityLots,
    filledContracts: r.filledLots,
    reduceOnly: r.reduceOnly,
    status: r.status,
    held: null,
    createdAtMs: r.createdAtMs,
  };
}

/**
 * A limit order's price in ticks of the market's step (it must have one); null for a market
 * order, which has no price and is IOC or nothing.
 */
function limitPriceTicks(
  input: { orderType: "limit" | "market"; price?: string; timeInForce?: string },
  step: Parameters<typeof ticksOfPrice>[1],
): number | null {
  if (input.orderType === "market") {
    if (input.price !== undefined) throw new AppError("order_type_invalid");
    if (input.timeInForce !== undefined && input.timeInForce !== "ioc") {
      throw new AppError("time_in_force_invalid");
    }
    return null;
  }
  if (input.price === undefined) {
    throw new AppError("validation_failed", [{ path: "body.price", message: "required" }]);
  }
  const ticks = ticksOfPrice(input.price, step);
  if (typeof ticks === "string") throw new AppError(ticks);
  return Number(ticks);
}
