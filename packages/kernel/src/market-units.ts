// Conversions between the decimal strings people and the API use and the kernel's ticks and
// lots. They reject (with a code) what is not exactly on the grid; they never round.

import { formatAmount, parseAmount, SCALE_MAX } from "./amount/amount.ts";
import { ok, reject, type Result } from "./reject-codes.ts";
import type { MarketView } from "./reference/types.ts";

/** Largest price in ticks an order may carry. */
export const PRICE_TICKS_MAX = 1_000_000_000_000;

/** A decimal price (quote per one base unit, e.g. "30123.45") as ticks of the market. */
export function parsePriceTicks(market: MarketView, text: string): Result<number> {
  const price = parseAmount(text, SCALE_MAX);
  if (!price.ok)
    return price.code === "amount_too_many_decimals" ? reject("price_not_on_tick") : price;
  if (price.value <= 0n) return reject("price_must_be_positive");
  const step = parseAmount(market.priceStep, SCALE_MAX);
  if (!step.ok || step.value <= 0n) return reject("market_invalid");
  if (price.value % step.value !== 0n) return reject("price_not_on_tick");
  const ticks = price.value / step.value;
  if (ticks > BigInt(PRICE_TICKS_MAX)) return reject("price_too_high");
  return ok(Number(ticks));
}

/** A decimal quantity of base (e.g. "0.015") as lots of the market. */
export function parseQuantityLots(market: MarketView, text: string): Result<number> {
  const quantity = parseAmount(text, market.baseScale);
  if (!quantity.ok) {
    return quantity.code === "amount_too_many_decimals" ? reject("quantity_not_on_lot") : quantity;
  }
  if (quantity.value <= 0n) return reject("quantity_must_be_positive");
  if (quantity.value % market.lotUnits !== 0n) return reject("quantity_not_on_lot");
  const lots = quantity.value / market.lotUnits;
  if (lots > BigInt(market.quantityLotsMax)) return reject("quantity_too_high");
  if (lots < BigInt(market.quantityLotsMin)) return reject("quantity_below_minimum");
  return ok(Number(lots));
}

/** Ticks as the canonical decimal price string. */
export function formatPriceTicks(market: MarketView, priceTicks: number): string {
  const step = parseAmount(market.priceStep, SCALE_MAX);
  if (!step.ok) throw new RangeError("market price step is invalid");
  return formatAmount(BigInt(priceTicks) * step.value, SCALE_MAX);
}

/** Lots as the canonical decimal quantity string of base. */
export function formatQuantityLots(market: MarketView, quantityLots: number): string {
  return formatAmount(BigInt(quantityLots) * market.lotUnits, market.baseScale);
}
