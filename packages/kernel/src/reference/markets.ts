// Markets: building one from its definition, anchoring it to its instrument's last tick (the
// market-order price band), and its view.

import { assert } from "../assert.ts";
import { divCeil, divFloor, parseAmount, pow10, SCALE_MAX } from "../amount/amount.ts";
import { PRICE_TICKS_MAX } from "../market-units.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import type { MarketState } from "./state.ts";
import type { MarketView } from "./types.ts";

/** Asset, market and instrument ids. */
export const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const BPS = 10_000n;

/** Market parameters shared by define_market and restore. */
export interface MarketDefinition {
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  instrumentId: string | null;
  priceStep: string;
  lotSize: string;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number | null;
  ordersPerBookMax: number | null;
}

/** Validates a market definition and builds its state (books empty, closed); or a code. */
export function buildMarket(
  state: KernelState,
  definition: MarketDefinition,
): MarketState | RejectCode {
  if (!ID_PATTERN.test(definition.marketId)) return "market_invalid";
  if (definition.instrumentId !== null && !ID_PATTERN.test(definition.instrumentId)) {
    return "instrument_id_invalid";
  }
  const base = state.reference.assets.get(definition.baseAssetId);
  const quote = state.reference.assets.get(definition.quoteAssetId);
  if (base === undefined || quote === undefined) return "asset_not_found";
  if (base === quote) return "market_invalid";
  const step = parseAmount(definition.priceStep, SCALE_MAX);
  if (!step.ok || step.value <= 0n) return "market_invalid";
  const lot = parseAmount(definition.lotSize, base.scale);
  if (!lot.ok || lot.value <= 0n) return "market_invalid";
  // One lot at one tick in quote units: step/10^18 × lot/10^baseScale × 10^quoteScale.
  const numerator = step.value * lot.value * pow10(quote.scale);
  const denominator = pow10(SCALE_MAX + base.scale);
  if (numerator % denominator !== 0n) return "market_invalid";
  const tickLotUnits = numerator / denominator;
  if (tickLotUnits <= 0n) return "market_invalid";
  const lotsMin = definition.quantityLotsMin;
  const lotsMax = definition.quantityLotsMax;
  if (lotsMin < 1 || lotsMax < lotsMin || lotsMax > PRICE_TICKS_MAX) return "market_invalid";
  if (definition.feeBpsMaker < 0 || definition.feeBpsMaker > 1000) return "market_invalid";
  if (definition.feeBpsTaker < 0 || definition.feeBpsTaker > 1000) return "market_invalid";
  if (definition.priceBandBps < 1 || definition.priceBandBps > 5000) return "market_invalid";
  const levels = definition.levelsPerSideMax ?? state.options.levelsPerSideMax;
  const ordersMax = definition.ordersPerBookMax ?? state.options.ordersPerBookMax;
  if (levels < 1 || ordersMax < 1) return "market_invalid";
  const limits = { levelsPerSideMax: levels, ordersMax };
  return {
    marketId: definition.marketId,
    base,
    quote,
    instrumentId: definition.instrumentId ?? definition.marketId,
    priceStep: definition.priceStep,
    lotSize: definition.lotSize,
    priceStepScaled: step.value,
    lotUnits: lot.value,
    tickLotUnits,
    lotUnitsNumber: safeNumber(lot.value),
    tickLotUnitsNumber: safeNumber(tickLotUnits),
    quantityLotsMin: lotsMin,
    quantityLotsMax: lotsMax,
    feeBpsMaker: definition.feeBpsMaker,
    feeBpsTaker: definition.feeBpsTaker,
    priceBandBps: definition.priceBandBps,
    levelsPerSideMax: levels,
    ordersPerBookMax: ordersMax,
    open: false,
    bookReal: state.bookFactory(limits),
    bookDemo: state.bookFactory(limits),
    bandBuyMaxTicks: 0,
    bandSellMinTicks: 0,
    tickId: null,
  };
}

/** The value as a double when it is a safe integer, else +Infinity (forcing the bigint path). */
function safeNumber(value: bigint): number {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.POSITIVE_INFINITY;
}

/** Adds a built market to the state and anchors it to its instrument's last tick. */
export function installMarket(state: KernelState, market: MarketState): void {
  const reference = state.reference;
  reference.markets.set(market.marketId, market);
  let anchored = reference.marketsByInstrument.get(market.instrumentId);
  if (anchored === undefined) {
    anchored = [];
    reference.marketsByInstrument.set(market.instrumentId, anchored);
  }
  anchored.push(market);
  const tick = reference.ticks.get(market.instrumentId);
  if (tick !== undefined) updateBand(market, tick.price, tick.tickId);
}

/** Recomputes a market's price band from a tick price (decimal string). */
export function updateBand(market: MarketState, price: string, tickId: string): void {
  const parsed = parseAmount(price, SCALE_MAX);
  assert(parsed.ok && parsed.value > 0n, "tick price was validated");
  const denominator = market.priceStepScaled * BPS;
  const bps = BigInt(market.priceBandBps);
  const buyMax = divFloor(parsed.value * (BPS + bps), denominator);
  const sellMin = divCeil(parsed.value * (BPS - bps), denominator);
  const cap = BigInt(PRICE_TICKS_MAX);
  market.bandBuyMaxTicks = Number(buyMax > cap ? cap : buyMax);
  market.bandSellMinTicks = Number(sellMin < 1n ? 1n : sellMin > cap ? cap + 1n : sellMin);
  market.tickId = tickId;
}

export function marketView(market: MarketState): MarketView {
  return {
    marketId: market.marketId,
    baseAssetId: market.base.assetId,
    quoteAssetId: market.quote.assetId,
    instrumentId: market.instrumentId,
    priceStep: market.priceStep,
    lotSize: market.lotSize,
    lotUnits: market.lotUnits,
    tickLotUnits: market.tickLotUnits,
    quantityLotsMin: market.quantityLotsMin,
    quantityLotsMax: market.quantityLotsMax,
    feeBpsMaker: market.feeBpsMaker,
    feeBpsTaker: market.feeBpsTaker,
    priceBandBps: market.priceBandBps,
    levelsPerSideMax: market.levelsPerSideMax,
    ordersPerBookMax: market.ordersPerBookMax,
    open: market.open,
    baseScale: market.base.scale,
    quoteScale: market.quote.scale,
  };
}
