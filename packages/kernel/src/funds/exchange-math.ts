// Quick-exchange pricing: the amount a user receives for a source amount at a tape price ± a
// spread. Exact integer arithmetic; every result is rounded down, so the house never delivers
// more than the disclosed rate and the remainder (under one smallest unit) stays with it.

import { assert } from "../assert.ts";
import { pow10 } from "../amount/amount.ts";

/** The decimals a tape price is read at (record_tick accepts up to 18). */
export const PRICE_SCALE = 18;

/** Basis points in one. */
const BPS = 10_000n;

/** What a quick exchange is priced from. */
export interface ExchangePricing {
  /** "sell": the user gives base and receives quote; "buy": gives quote, receives base. */
  side: "buy" | "sell";
  /** Tape price (quote per whole base) × 10^18, positive. */
  priceScaled: bigint;
  spreadBps: number;
  baseScale: number;
  quoteScale: number;
  /** Smallest units of what the user gives, positive. */
  sourceAmount: bigint;
}

/**
 * The smallest units the user receives, rounded down:
 * sell: source × price × (1 − spread), buy: source ÷ (price × (1 + spread)), each converted
 * between the assets' decimals.
 */
export function exchangeTargetAmount(p: ExchangePricing): bigint {
  assert(p.priceScaled > 0n, "exchange price must be positive");
  assert(p.sourceAmount > 0n, "exchange amount must be positive");
  assert(p.spreadBps >= 0 && p.spreadBps < 10_000, "spread out of range");
  const spread = BigInt(p.spreadBps);
  const base = pow10(p.baseScale);
  const quote = pow10(p.quoteScale);
  const price = pow10(PRICE_SCALE);
  if (p.side === "sell") {
    const numerator = p.sourceAmount * p.priceScaled * quote * (BPS - spread);
    return numerator / (base * price * BPS);
  }
  const numerator = p.sourceAmount * base * price * BPS;
  return numerator / (quote * p.priceScaled * (BPS + spread));
}
