import {
  PairMarketPage,
  type TradingSlotProps,
} from "../../features/market-data/components/pair-market-page.tsx";
import { TradingPanel } from "../../features/spot-trading/components/trading-panel.tsx";
import { useBalances, useRefreshBalances } from "../../features/wallet/api/wallet-api.ts";
import { PairFunds } from "../../features/wallet/components/pair-funds.tsx";
import { useSession } from "../../lib/session.ts";

/** Balances refresh this often while the order form shows them (the socket pushes sooner). */
const balancesRefetchMs = 5_000;

/** The trading part of Coin-Coin: spot trading's form and orders on the wallet's balances. */
function Trading(props: TradingSlotProps) {
  const session = useSession();
  const balances = useBalances({ enabled: session !== null, refetchIntervalMs: balancesRefetchMs });
  const refreshBalances = useRefreshBalances();
  return (
    <TradingPanel
      {...props}
      balances={balances.data?.items ?? []}
      onFundsChanged={refreshBalances}
      funds={(assets) => <PairFunds {...assets} />}
    />
  );
}

export function Component() {
  return <PairMarketPage trading={(props) => <Trading {...props} />} />;
}
