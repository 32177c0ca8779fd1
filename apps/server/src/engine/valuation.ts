// Prices of assets in one valuation asset (USDT) from the tape's last ticks: the wallet's
// account values and the transparency page's trading results use the same ones.
import { formatDecimal, mulDiv, parseDecimal, pow10 } from "@candor/decimal";
import { getLastTick, getMarkets, type KernelState } from "@candor/kernel";

/** Tape prices are read at up to 18 decimals (what record_tick accepts). */
export const PRICE_SCALE = 18;

/** An asset's price in the valuation asset: the scaled price and the tick it came from. */
export interface Valuation {
  /** valuation-asset units per whole asset unit × 10^18. */
  priceScaled: bigint;
  price: string;
  tickId: string | null;
}

/**
 * The price of each asset in the valuation asset from the tape's last ticks: the asset's own
 * market against it (asset/valuation), else the inverse market (valuation/asset), else none.
 * Exact: the inverse is rounded down to 18 decimals and says so by being a quotient.
 */
export function valuationPrices(state: KernelState, valuationAssetId: string) {
  const prices = new Map<string, Valuation>();
  prices.set(valuationAssetId, { priceScaled: pow10(PRICE_SCALE), price: "1", tickId: null });
  for (const market of getMarkets(state)) {
    const tick = getLastTick(state, market.instrumentId);
    if (!tick) continue;
    const parsed = parseDecimal(tick.price, PRICE_SCALE);
    if (!parsed.ok || parsed.value <= 0n) continue;
    if (market.quoteAssetId === valuationAssetId && !prices.has(market.baseAssetId)) {
      prices.set(market.baseAssetId, {
        priceScaled: parsed.value,
        price: tick.price,
        tickId: tick.tickId,
      });
    }
  }
  for (const market of getMarkets(state)) {
    if (market.baseAssetId !== valuationAssetId || prices.has(market.quoteAssetId)) continue;
    const tick = getLastTick(state, market.instrumentId);
    const parsed = tick ? parseDecimal(tick.price, PRICE_SCALE) : undefined;
    if (!tick || !parsed?.ok || parsed.value <= 0n) continue;
    // One quote unit is worth 1 / price of the valuation asset (rounded down).
    const inverse = mulDiv(pow10(PRICE_SCALE), pow10(PRICE_SCALE), parsed.value, "floor");
    prices.set(market.quoteAssetId, {
      priceScaled: inverse,
      price: formatDecimal(inverse, PRICE_SCALE),
      tickId: tick.tickId,
    });
  }
  return prices;
}

/**
 * `units` of an asset (at its `scale`) in valuation units of 10^-valuationScale, rounded down
 * (toward minus infinity for negative amounts); null when the asset has no price.
 */
export function valueIn(
  prices: ReadonlyMap<string, Valuation>,
  assetId: string,
  units: bigint,
  scale: number,
  valuationScale: number,
): bigint | null {
  const price = prices.get(assetId);
  if (!price) return null;
  return mulDiv(
    units,
    price.priceScaled * pow10(valuationScale),
    pow10(scale + PRICE_SCALE),
    "floor",
  );
}
