import type { SpotFillView, SpotMarketView, SpotOrderView } from "@candor/contract";
import {
  formatAmount,
  formatPriceTicks,
  formatQuantityLots,
  systemOwners,
  type Amount,
  type MarketView,
  type OrderView,
} from "@candor/kernel";
import type { FillRecord } from "../../read-models/fill-record.ts";
import type { OrderRow } from "./spot.repository.ts";

/*
 * The spot module's contract views, built in one place for the REST answers and the private
 * streams alike: ticks, lots and smallest units in, decimal strings out.
 */

/** Order-form settings that are not part of the kernel's market. */
export interface SpotMarketSettings {
  /** Warning thresholds of the order form, basis points. */
  priceWarningBpsUp: number;
  priceWarningBpsDown: number;
}

export function marketView(
  m: MarketView,
  lastTick: { price: string; tickId: string } | undefined,
  settings: SpotMarketSettings,
): SpotMarketView {
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
    priceWarningBpsUp: settings.priceWarningBpsUp,
    priceWarningBpsDown: settings.priceWarningBpsDown,
    lastPrice: lastTick?.price ?? null,
    lastTickId: lastTick?.tickId ?? null,
    open: m.open,
  };
}

/** The kernel command id of a client's order: scoped by owner, so ids never collide. */
export function orderCommandId(ownerId: string, clientOrderId: string): string {
  return `o:${ownerId}:${clientOrderId}`;
}

/** The client's order id inside a command id made by `orderCommandId`. */
export function clientOrderIdOf(commandId: string): string {
  const parts = commandId.split(":");
  return parts.length >= 3 && parts[0] === "o" ? parts.slice(2).join(":") : commandId;
}

/** An order the kernel holds, as an order row (the read model's shape). */
export function orderRowOf(o: OrderView): OrderRow {
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

/** Quote traded by one order over the given fills (smallest units of the quote asset). */
export function filledQuoteOf(orderId: number, fills: readonly FillRecord[]): bigint {
  let filledQuote = 0n;
  for (const f of fills) {
    if (f.makerOrderId === orderId || f.takerOrderId === orderId) filledQuote += f.quoteAmount;
  }
  return filledQuote;
}

/**
 * One order. `filledQuote` is the quote it traded (smallest units); `quoteAmount` the quote a
 * market buy by amount may spend, else null.
 */
export function orderView(
  row: OrderRow,
  market: MarketView,
  filledQuote: bigint,
  quoteAmount: bigint | null,
): SpotOrderView {
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

/** One fill as the owner of `orderId` (its maker or its taker order) sees it. */
export function fillView(f: FillRecord, orderId: number, market: MarketView): SpotFillView {
  const maker = f.makerOrderId === orderId;
  const other = maker ? f.takerOwnerId : f.makerOwnerId;
  const side = maker ? (f.takerSide === "buy" ? "sell" : "buy") : f.takerSide;
  const feeAsset = maker ? f.feeMakerAssetId : f.feeTakerAssetId;
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
      feeAsset === market.baseAssetId ? market.baseScale : market.quoteScale,
    ),
    feeAsset,
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
