import { unitsOf } from "./units.ts";
import type { Tick } from "./feed.ts";
import type { Instrument } from "./instruments.ts";

/** Binance's public market-data WebSocket base (combined streams live under `/stream`). */
export const binanceStreamBase = "wss://stream.binance.com:9443";

/** The combined-stream URL for the trade streams of these instruments. */
export function binanceCombinedStreamUrl(
  base: string,
  instruments: readonly Pick<Instrument, "binanceSymbol">[],
): string {
  const streams = instruments
    .filter((i) => i.binanceSymbol)
    .map((i) => `${i.binanceSymbol}@trade`)
    .join("/");
  return `${base.replace(/\/$/, "")}/stream?streams=${streams}`;
}

/** What the parser made of one message: a tick, a message to skip, or an error. */
export type BinanceParseResult =
  | { kind: "tick"; tick: Tick }
  | { kind: "ignored"; reason: string }
  | { kind: "error"; reason: string };

const messageBytesMax = 16 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses one message of Binance's combined stream (`{"stream": "btcusdt@trade", "data": {...}}`)
 * for `trade` and `aggTrade` events. The price must fit the instrument's scale exactly (a price
 * is never rounded); the quantity is cut to the instrument's scale, since it only feeds volume.
 */
export function parseBinanceMessage(
  text: string,
  instrumentsByBinanceSymbol: ReadonlyMap<string, Instrument>,
): BinanceParseResult {
  if (text.length > messageBytesMax) return { kind: "error", reason: "message too large" };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: "error", reason: "not JSON" };
  }
  if (!isRecord(message) || typeof message.stream !== "string" || !isRecord(message.data)) {
    return { kind: "error", reason: "not a combined-stream message" };
  }
  const data = message.data;
  if (data.e !== "trade" && data.e !== "aggTrade") {
    return { kind: "ignored", reason: `event ${String(data.e)}` };
  }
  const symbol = typeof data.s === "string" ? data.s.toLowerCase() : "";
  const instrument = instrumentsByBinanceSymbol.get(symbol);
  if (!instrument) return { kind: "ignored", reason: `symbol ${symbol}` };
  if (typeof data.p !== "string" || typeof data.q !== "string" || typeof data.T !== "number") {
    return { kind: "error", reason: "missing price, quantity or time" };
  }
  const price = unitsOf(data.p, instrument.priceScale);
  if (price === null || price <= 0n) return { kind: "error", reason: `bad price ${data.p}` };
  const [whole, fraction = ""] = data.q.split(".");
  const quantity = unitsOf(
    `${whole}.${fraction.slice(0, instrument.quantityScale) || "0"}`,
    instrument.quantityScale,
  );
  if (quantity === null || quantity < 0n)
    return { kind: "error", reason: `bad quantity ${data.q}` };
  if (!Number.isSafeInteger(data.T) || data.T <= 0) return { kind: "error", reason: "bad time" };
  return {
    kind: "tick",
    tick: { instrumentId: instrument.id, atMs: data.T, price, quantity, source: "binance" },
  };
}

/** Index of instruments by their Binance stream symbol. */
export function instrumentsByBinanceSymbol(
  list: readonly Instrument[],
): ReadonlyMap<string, Instrument> {
  return new Map(list.filter((i) => i.binanceSymbol).map((i) => [i.binanceSymbol!, i]));
}
