// Command builders for tests, the simulator and the benchmark: every field present, sensible
// defaults, ids and times supplied by a small counter so tables stay short. This file holds the
// exchange core (reference data, funds, spot orders, withdrawals, transfers, quick exchange);
// `commands.ts` adds the products.

import type { DefineMarketCommand } from "../reference/types.ts";
import type {
  OrderType,
  PlaceConditionalOrderCommand,
  PlaceOrderCommand,
  Side,
  TimeInForce,
} from "../spot/types.ts";
import type { Command, Mode, Wallet } from "../types.ts";
/** Hands out command ids `c1, c2, …` and times 1000, 1001, … unless given. */
export class CoreCommandMaker {
  protected serial = 0;
  nowMs: number;

  constructor(startMs = 1_000) {
    this.nowMs = startMs;
  }

  protected next(): { id: string; atMs: number } {
    this.serial++;
    return { id: `c${this.serial}`, atMs: this.nowMs++ };
  }

  asset(assetId: string, scale: number, amountMax: bigint | null = null): Command {
    return { type: "define_asset", ...this.next(), assetId, scale, amountMax };
  }

  market(
    marketId: string,
    baseAssetId: string,
    quoteAssetId: string,
    overrides: Partial<DefineMarketCommand> = {},
  ): Command {
    return {
      type: "define_market",
      ...this.next(),
      marketId,
      baseAssetId,
      quoteAssetId,
      instrumentId: null,
      priceStep: "0.01",
      lotSize: "0.001",
      quantityLotsMin: 1,
      quantityLotsMax: 1_000_000,
      feeBpsMaker: 10,
      feeBpsTaker: 20,
      priceBandBps: 500,
      levelsPerSideMax: null,
      ordersPerBookMax: null,
      ...overrides,
    };
  }

  session(marketId: string, open: boolean): Command {
    return { type: "set_market_session", ...this.next(), marketId, open };
  }

  open(ownerId: string, mode: Mode = "real"): Command {
    return { type: "open_accounts", ...this.next(), ownerId, mode };
  }

  deposit(ownerId: string, assetId: string, amount: bigint): Command {
    return {
      type: "credit_deposit",
      ...this.next(),
      ownerId,
      mode: "real",
      assetId,
      amount,
      reference: "tx-" + String(this.serial),
      operatorId: null,
    };
  }

  grant(ownerId: string, assetId: string, amount: bigint): Command {
    return { type: "grant_demo", ...this.next(), ownerId, mode: "demo", assetId, amount };
  }

  resetDemo(ownerId: string): Command {
    return { type: "reset_demo", ...this.next(), ownerId, mode: "demo" };
  }

  limit(
    ownerId: string,
    marketId: string,
    side: Side,
    priceTicks: number,
    quantityLots: number,
    timeInForce: TimeInForce = "gtc",
    mode: Mode = "real",
  ): PlaceOrderCommand {
    return this.order(
      ownerId,
      marketId,
      side,
      "limit",
      timeInForce,
      priceTicks,
      quantityLots,
      null,
      mode,
    );
  }

  order(
    ownerId: string,
    marketId: string,
    side: Side,
    orderType: OrderType,
    timeInForce: TimeInForce,
    priceTicks: number | null,
    quantityLots: number | null,
    quoteAmount: bigint | null,
    mode: Mode = "real",
  ): PlaceOrderCommand {
    return {
      type: "place_order",
      ...this.next(),
      ownerId,
      mode,
      marketId,
      side,
      orderType,
      timeInForce,
      priceTicks,
      quantityLots,
      quoteAmount,
    };
  }

  /** place_order_stp: a limit order with a self-trade prevention mode. */
  limitStp(
    ownerId: string,
    marketId: string,
    side: Side,
    priceTicks: number,
    quantityLots: number,
    selfTradeMode: string,
    timeInForce: TimeInForce = "gtc",
    mode: Mode = "real",
  ): Command {
    const { type: _type, ...rest } = this.limit(
      ownerId,
      marketId,
      side,
      priceTicks,
      quantityLots,
      timeInForce,
      mode,
    );
    return { ...rest, type: "place_order_stp", selfTradeMode };
  }

  amend(ownerId: string, orderId: number, quantityLots: number, mode: Mode = "real"): Command {
    return { type: "amend_order_size", ...this.next(), ownerId, mode, orderId, quantityLots };
  }

  /** place_conditional_order; `terms` default to a gtc stop-limit with cancel_resting. */
  conditional(
    ownerId: string,
    marketId: string,
    side: Side,
    triggerTicks: number,
    terms: Partial<PlaceConditionalOrderCommand> = {},
  ): Command {
    return {
      type: "place_conditional_order",
      ...this.next(),
      ownerId,
      mode: "real",
      marketId,
      side,
      kind: "stop",
      orderType: "limit",
      timeInForce: "gtc",
      triggerTicks,
      priceTicks: null,
      quantityLots: null,
      quoteAmount: null,
      selfTradeMode: "cancel_resting",
      ...terms,
    };
  }

  oco(
    ownerId: string,
    marketId: string,
    side: Side,
    quantityLots: number,
    limitPriceTicks: number,
    triggerTicks: number,
    stopPriceTicks: number | null,
    mode: Mode = "real",
  ): Command {
    return {
      type: "place_oco_order",
      ...this.next(),
      ownerId,
      mode,
      marketId,
      side,
      quantityLots,
      limitPriceTicks,
      triggerTicks,
      stopPriceTicks,
      selfTradeMode: "cancel_resting",
    };
  }

  cancel(ownerId: string, orderId: number, mode: Mode = "real"): Command {
    return { type: "cancel_order", ...this.next(), ownerId, mode, orderId };
  }

  replace(
    ownerId: string,
    orderId: number,
    priceTicks: number,
    quantityLots: number,
    mode: Mode = "real",
  ): Command {
    return {
      type: "replace_order",
      ...this.next(),
      ownerId,
      mode,
      orderId,
      priceTicks,
      quantityLots,
    };
  }

  cancelAll(ownerId: string, marketId: string | null = null, mode: Mode = "real"): Command {
    return { type: "cancel_all", ...this.next(), ownerId, mode, marketId };
  }

  tick(instrumentId: string, price: string): Command {
    const base = this.next();
    return {
      type: "record_tick",
      ...base,
      tickId: `t${base.id}`,
      instrumentId,
      price,
      tickAtMs: base.atMs,
    };
  }

  clock(advanceMs = 0): Command {
    this.nowMs += advanceMs;
    return { type: "clock_tick", ...this.next() };
  }

  withdrawHold(ownerId: string, assetId: string, amount: bigint, withdrawalId: string): Command {
    return {
      type: "withdrawal_hold",
      ...this.next(),
      ownerId,
      mode: "real",
      assetId,
      amount,
      withdrawalId,
    };
  }

  withdrawHoldFee(
    ownerId: string,
    assetId: string,
    amount: bigint,
    fee: bigint,
    withdrawalId: string,
  ): Command {
    return {
      type: "withdrawal_hold_fee",
      ...this.next(),
      ownerId,
      mode: "real",
      assetId,
      amount,
      fee,
      withdrawalId,
    };
  }

  withdrawHoldWallet(
    ownerId: string,
    wallet: Wallet,
    assetId: string,
    amount: bigint,
    fee: bigint,
    withdrawalId: string,
    mode: Mode = "real",
  ): Command {
    return {
      type: "withdrawal_hold_wallet",
      ...this.next(),
      ownerId,
      mode,
      wallet,
      assetId,
      amount,
      fee,
      withdrawalId,
    };
  }

  withdrawComplete(withdrawalId: string): Command {
    return {
      type: "withdrawal_complete",
      ...this.next(),
      withdrawalId,
      reference: "payout-" + withdrawalId,
      operatorId: "op1",
    };
  }

  withdrawCancel(withdrawalId: string): Command {
    return { type: "withdrawal_cancel", ...this.next(), withdrawalId, operatorId: null };
  }

  transferWallet(
    ownerId: string,
    assetId: string,
    amount: bigint,
    sourceWallet: "fund" | "contract" | "fiat",
    targetWallet: "fund" | "contract" | "fiat",
    mode: Mode = "real",
  ): Command {
    return {
      type: "transfer_wallet",
      ...this.next(),
      ownerId,
      mode,
      assetId,
      amount,
      sourceWallet,
      targetWallet,
    };
  }

  transferUser(ownerId: string, targetOwnerId: string, assetId: string, amount: bigint): Command {
    return {
      type: "transfer_user",
      ...this.next(),
      ownerId,
      mode: "real",
      assetId,
      amount,
      targetOwnerId,
    };
  }

  /** A quick-exchange quote (id = quote id) with default terms: 50 bps, 10 s, tick ≤ 60 s old. */
  exchangeQuote(
    ownerId: string,
    sourceAssetId: string,
    sourceAmount: bigint,
    targetAssetId: string,
    mode: Mode = "real",
    terms: { spreadBps?: number; ttlMs?: number; tickAgeMaxMs?: number } = {},
  ): Command {
    return {
      type: "exchange_quote",
      ...this.next(),
      ownerId,
      mode,
      sourceAssetId,
      sourceAmount,
      targetAssetId,
      spreadBps: terms.spreadBps ?? 50,
      ttlMs: terms.ttlMs ?? 10_000,
      tickAgeMaxMs: terms.tickAgeMaxMs ?? 60_000,
    };
  }

  exchangeAccept(ownerId: string, quoteId: string, mode: Mode = "real"): Command {
    return { type: "exchange_accept", ...this.next(), ownerId, mode, quoteId };
  }
}
