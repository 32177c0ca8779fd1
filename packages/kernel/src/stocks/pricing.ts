// The stock product's arithmetic, in one place: fill prices from the recorded quote and the
// disclosed spread, notionals, commission and stamp duty. Prices are 10^-18 units (the tape's
// precision); money is the asset's smallest unit. Every rounding is named and goes against the
// user by at most one unit (buys up, sells down), so the house never pays out unrounded value.

import { divCeil, divFloor, mulDiv, parseAmount, pow10, SCALE_MAX } from "../amount/amount.ts";
import type { StockConfigView, StockSide } from "./types.ts";

export const PRICE_UNITS_SCALE = SCALE_MAX;

/** Parses a tape price (up to 18 decimals) into 10^-18 units; null if it does not parse. */
export function priceUnitsOf(text: string): bigint | null {
  const parsed = parseAmount(text, PRICE_UNITS_SCALE);
  return parsed.ok && parsed.value > 0n ? parsed.value : null;
}

/** Parses a user price at the stock's price scale into 10^-18 units; null if invalid. */
export function limitUnitsOf(text: string, priceScale: number): bigint | null {
  const parsed = parseAmount(text, priceScale, { max: 10n ** 15n * pow10(priceScale) });
  return parsed.ok && parsed.value > 0n
    ? parsed.value * pow10(PRICE_UNITS_SCALE - priceScale)
    : null;
}

/**
 * The price a market order on `side` gets for a recorded quote: quote × (1 ± spread), rounded to
 * the stock's price scale (buys up, sells down).
 */
export function executablePrice(config: StockConfigView, side: StockSide, quote: bigint): bigint {
  const step = pow10(PRICE_UNITS_SCALE - config.priceScale);
  const bps = BigInt(config.spreadBps);
  if (side === "buy") return divCeil(mulDiv(quote, 10_000n + bps, 10_000n, "ceil"), step) * step;
  return divFloor(mulDiv(quote, 10_000n - bps, 10_000n, "floor"), step) * step;
}

/** Price × quantity in the asset's smallest units (buys rounded up, sells down). */
export function notionalOf(
  price: bigint,
  quantity: bigint,
  assetScale: number,
  side: StockSide,
): bigint {
  const divisor = pow10(PRICE_UNITS_SCALE - assetScale);
  return side === "buy" ? divCeil(price * quantity, divisor) : divFloor(price * quantity, divisor);
}

/** Commission of one fill: notional × bps, rounded up, at least the minimum. */
export function commissionOf(config: StockConfigView, notional: bigint): bigint {
  const fee = mulDiv(notional, BigInt(config.commissionBps), 10_000n, "ceil");
  return fee > config.commissionMin ? fee : config.commissionMin;
}

/** Stamp duty of one fill: notional × bps, rounded up to a multiple of the rounding unit. */
export function stampDutyOf(config: StockConfigView, notional: bigint): bigint {
  if (config.stampDutyBps === 0) return 0n;
  const duty = mulDiv(notional, BigInt(config.stampDutyBps), 10_000n, "ceil");
  return divCeil(duty, config.stampDutyRoundUnits) * config.stampDutyRoundUnits;
}

/** What a fill costs the buyer or pays the seller, with its parts. */
export interface FillCost {
  notional: bigint;
  commission: bigint;
  stampDuty: bigint;
  /** Buy: notional + fees; sell: notional − fees. */
  net: bigint;
}

export function fillCost(
  config: StockConfigView,
  side: StockSide,
  price: bigint,
  quantity: bigint,
  assetScale: number,
): FillCost {
  const notional = notionalOf(price, quantity, assetScale, side);
  const commission = commissionOf(config, notional);
  const stampDuty = stampDutyOf(config, notional);
  const fees = commission + stampDuty;
  return {
    notional,
    commission,
    stampDuty,
    net: side === "buy" ? notional + fees : notional - fees,
  };
}

/** Whether a limit order crosses at an executable price. */
export function crosses(side: StockSide, limit: bigint, executable: bigint): boolean {
  return side === "buy" ? executable <= limit : executable >= limit;
}
