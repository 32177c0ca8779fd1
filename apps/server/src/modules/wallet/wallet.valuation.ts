import type { AccountAssetView, WalletAccountView } from "@candor/contract";
import { formatDecimal, mulDiv, parseDecimal, pow10 } from "@candor/decimal";
import {
  getAssets,
  getBalance,
  getLastTick,
  getMarkets,
  type KernelState,
  type Mode,
  type Wallet,
} from "@candor/kernel";
import { balanceView } from "./wallet.views.ts";

/** The wallets every user has per mode, in the order screens show them. */
export const walletNames: readonly Wallet[] = ["fund", "contract", "fiat"];

/** Tape prices are read at up to 18 decimals (what record_tick accepts). */
const PRICE_SCALE = 18;

/** An asset's price in the valuation asset: the scaled price and the tick it came from. */
interface Valuation {
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
 * The user's three wallets in one mode, each asset with balance, available, held (frozen) and
 * its value in the valuation asset; sums rounded down, bigint throughout.
 */
export function walletAccounts(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  valuationAssetId: string,
): {
  valuationDecimals: number;
  totalValuation: string;
  wallets: WalletAccountView[];
} {
  const assets = getAssets(state);
  const valuationScale = assets.find((a) => a.assetId === valuationAssetId)?.scale ?? 6;
  const prices = valuationPrices(state, valuationAssetId);
  let grand = 0n;
  const wallets = walletNames.map((wallet): WalletAccountView => {
    let sum = 0n;
    const items = assets.map((asset): AccountAssetView => {
      const b = getBalance(state, ownerId, mode, wallet, asset.assetId);
      const total = b.available + b.held;
      const price = prices.get(asset.assetId);
      let valuation: bigint | null = null;
      if (price) {
        // total / 10^scale × price / 10^18 in valuation units of 10^-valuationScale.
        valuation = mulDiv(
          total,
          price.priceScaled * pow10(valuationScale),
          pow10(asset.scale + PRICE_SCALE),
          "floor",
        );
        sum += valuation;
      }
      return {
        ...balanceView(asset.assetId, asset.scale, b.available, b.held),
        valuation: valuation === null ? null : formatDecimal(valuation, valuationScale),
        price: price?.price ?? null,
        tickId: price?.tickId ?? null,
      };
    });
    grand += sum;
    return { wallet, valuation: formatDecimal(sum, valuationScale), items };
  });
  return {
    valuationDecimals: valuationScale,
    totalValuation: formatDecimal(grand, valuationScale),
    wallets,
  };
}
