// What an order holds, and the checks on its price and quantity.

import { PRICE_TICKS_MAX } from "../market-units.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { MarketState } from "../reference/state.ts";
import { bigintOfSafeInteger } from "../amount/bigint-of.ts";

/**
 * What an order holds: quote `priceTicks × lots × tickLotUnits` for a buy, base
 * `lots × lotUnits` for a sell. Computed in doubles when the product is provably exact (below
 * 2^53), which saves the hot path several bigint allocations; bigint otherwise.
 */
export function holdFor(
  market: MarketState,
  isBuy: boolean,
  priceTicks: number,
  lots: number,
): bigint {
  if (isBuy) {
    const product = priceTicks * lots * market.tickLotUnitsNumber;
    if (product <= Number.MAX_SAFE_INTEGER) return bigintOfSafeInteger(product);
    return BigInt(priceTicks) * BigInt(lots) * market.tickLotUnits;
  }
  const product = lots * market.lotUnitsNumber;
  if (product <= Number.MAX_SAFE_INTEGER) return bigintOfSafeInteger(product);
  return BigInt(lots) * market.lotUnits;
}

/**
 * What an order holds (see `holdFor`) as an exact double, or -1 when the product may exceed
 * 2^53 − 1 (the caller then falls back to `holdFor`).
 */
export function holdUnits(
  market: MarketState,
  isBuy: boolean,
  priceTicks: number,
  lots: number,
): number {
  const product = isBuy
    ? priceTicks * lots * market.tickLotUnitsNumber
    : lots * market.lotUnitsNumber;
  return product <= Number.MAX_SAFE_INTEGER ? product : -1;
}

/** Validates the numbers of a limit order; null when they are fine. */
export function limitCode(
  market: MarketState,
  priceTicks: number,
  quantityLots: number,
): RejectCode | null {
  if (priceTicks <= 0) return "price_must_be_positive";
  if (priceTicks > PRICE_TICKS_MAX) return "price_too_high";
  return lotsCode(market, quantityLots);
}

export function lotsCode(market: MarketState, quantityLots: number): RejectCode | null {
  if (quantityLots <= 0) return "quantity_must_be_positive";
  if (quantityLots < market.quantityLotsMin) return "quantity_below_minimum";
  if (quantityLots > market.quantityLotsMax) return "quantity_too_high";
  return null;
}

export function bookRejectCode(
  outcome: "rejected_post_only" | "rejected_fok" | "rejected_book_full",
): RejectCode {
  return outcome === "rejected_post_only"
    ? "post_only_would_trade"
    : outcome === "rejected_fok"
      ? "fok_not_filled"
      : "book_full";
}
