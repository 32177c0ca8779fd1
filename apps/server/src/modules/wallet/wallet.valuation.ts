import type { AccountAssetView, WalletAccountView } from "@candor/contract";
import { formatDecimal } from "@candor/decimal";
import { getAssets, getBalance, type KernelState, type Mode, type Wallet } from "@candor/kernel";
import { valuationPrices, valueIn } from "../../engine/valuation.ts";
import { balanceView } from "./wallet.views.ts";

/** The wallets every user has per mode, in the order screens show them. */
export const walletNames: readonly Wallet[] = ["fund", "contract", "fiat"];

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
      const valuation = valueIn(prices, asset.assetId, total, asset.scale, valuationScale);
      if (valuation !== null) sum += valuation;
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
