import type { SpotBalanceView } from "@candor/contract";
import { formatDecimal, pow10 } from "@candor/decimal";
import { readDecimal } from "../../../lib/decimal-text.ts";

/**
 * The value of balances in one quote asset (USDT), exactly: amount × last price in bigints,
 * rounded down at `decimals` (a shown total is never more than what the balances are worth at
 * those prices). `priceOf(asset)` is the last price of asset/quote as a decimal string, or
 * undefined when there is none (such assets are left out and reported).
 */
export function totalValue(
  balances: readonly Pick<SpotBalanceView, "asset" | "total">[],
  quoteAsset: string,
  priceOf: (asset: string) => string | undefined,
  decimals: number,
): { total: string; unpriced: string[] } {
  // Summed 18 decimals finer than shown, and rounded down once at the end.
  const extra = 18;
  let units = 0n;
  const unpriced: string[] = [];
  for (const balance of balances) {
    const value = valueOf(
      balance.total,
      balance.asset === quoteAsset ? "1" : priceOf(balance.asset),
      decimals + extra,
    );
    if (value === undefined) {
      if (readDecimal(balance.total)?.units !== 0n) unpriced.push(balance.asset);
      continue;
    }
    units += value;
  }
  return { total: formatDecimal(units / pow10(extra), decimals), unpriced };
}

/** amount × price in units of 10^-decimals, rounded toward zero; undefined without a price. */
export function valueOf(
  amount: string,
  price: string | undefined,
  decimals: number,
): bigint | undefined {
  const a = price === undefined ? undefined : readDecimal(amount);
  const p = price === undefined ? undefined : readDecimal(price);
  if (!a || !p) return undefined;
  const product = a.units * p.units;
  const scale = a.scale + p.scale;
  return scale >= decimals ? product / pow10(scale - decimals) : product * pow10(decimals - scale);
}
