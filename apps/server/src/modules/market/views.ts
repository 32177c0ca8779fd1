import type {
  CandleView,
  DepthLevel,
  InstrumentView,
  TickerView,
  TradeView,
} from "@candor/contract";
import {
  calendars,
  type Candle,
  type FeedSource,
  type Instrument,
  type Tick,
  type TickerStats,
} from "@candor/market";
import { formatDecimalFixed } from "@candor/decimal";

/** Contract views of market data: every price and quantity as a decimal string. */
export function instrumentView(instrument: Instrument, source: FeedSource): InstrumentView {
  const calendar = calendars[instrument.calendarId];
  return {
    id: instrument.id,
    symbol: instrument.symbol,
    names: instrument.names,
    assetClass: instrument.assetClass,
    venue: instrument.venue,
    baseAsset: instrument.base.symbol,
    baseDecimals: instrument.base.decimals,
    quoteAsset: instrument.quote.symbol,
    quoteDecimals: instrument.quote.decimals,
    priceScale: instrument.priceScale,
    tickSize: formatDecimalFixed(instrument.tickSize, instrument.priceScale),
    quantityScale: instrument.quantityScale,
    lotSize: formatDecimalFixed(instrument.lotSize, instrument.quantityScale),
    products: [...instrument.products],
    stampDutyBps: instrument.stampDutyBps,
    calendar: { id: calendar.id, name: calendar.name, timeZone: calendar.timeZone },
    source,
  };
}

export function tickerView(
  instrument: Instrument,
  stats: TickerStats,
  marketOpen: boolean,
  source: FeedSource,
): TickerView {
  const price = (v: bigint) => formatDecimalFixed(v, instrument.priceScale);
  return {
    instrumentId: instrument.id,
    last: price(stats.last),
    open24h: price(stats.open),
    high24h: price(stats.high),
    low24h: price(stats.low),
    volume24h: formatDecimalFixed(stats.volume, instrument.quantityScale),
    // Basis points over 100 is percent: 125 bps → "1.25".
    changePercent24h: formatDecimalFixed(stats.changeBps, 2),
    lastAtMs: stats.lastAtMs,
    marketOpen,
    source,
  };
}

export function candleView(instrument: Instrument, candle: Candle, closed: boolean): CandleView {
  const price = (v: bigint) => formatDecimalFixed(v, instrument.priceScale);
  return {
    openMs: candle.openMs,
    open: price(candle.open),
    high: price(candle.high),
    low: price(candle.low),
    close: price(candle.close),
    volume: formatDecimalFixed(candle.volume, instrument.quantityScale),
    closed,
  };
}

export function tradeView(instrument: Instrument, id: string, tick: Tick): TradeView {
  return {
    id,
    instrumentId: instrument.id,
    price: formatDecimalFixed(tick.price, instrument.priceScale),
    quantity: formatDecimalFixed(tick.quantity, instrument.quantityScale),
    takerSide: null,
    atMs: tick.atMs,
    source: tick.source,
  };
}

export function levelView(instrument: Instrument, price: bigint, quantity: bigint): DepthLevel {
  return [
    formatDecimalFixed(price, instrument.priceScale),
    formatDecimalFixed(quantity, instrument.quantityScale),
  ];
}
