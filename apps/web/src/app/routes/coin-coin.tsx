import {
  PairMarketPage,
  type TradingSlotProps,
} from "../../features/market-data/components/pair-market-page.tsx";
import { OrdersPanel } from "../../features/spot-trading/components/orders-panel.tsx";
import { TradingPanel } from "../../features/spot-trading/components/trading-panel.tsx";
import { useBalances, useRefreshBalances } from "../../features/wallet/api/wallet-api.ts";
import { PairFunds } from "../../features/wallet/components/pair-funds.tsx";
import { useSession } from "../../lib/session.ts";

/** Balances refresh this often while the order form shows them (the socket pushes sooner). */
const balancesRefetchMs = 5_000;

/** The order form of Coin-Coin: spot trading's form on the wallet's balances. */
function Trading(props: TradingSlotProps) {
  const session = useSession();
  const balances = useBalances({ enabled: session !== null, refetchIntervalMs: balancesRefetchMs });
  const refreshBalances = useRefreshBalances();
  return (
    <TradingPanel
      {...props}
      balances={balances.data?.items ?? []}
      onFundsChanged={refreshBalances}
    />
  );
}

/** Under the chart and the full book: the pair's funds and the user's orders, when signed in. */
function Below({ pair }: TradingSlotProps) {
  const session = useSession();
  const refreshBalances = useRefreshBalances();
  if (!session) return null;
  return (
    <>
      <PairFunds baseAsset={pair.baseAsset} quoteAsset={pair.quoteAsset} />
      <OrdersPanel instrumentId={pair.id} onFundsChanged={refreshBalances} />
    </>
  );
}

export function Component() {
  return (
    <PairMarketPage
      trading={(props) => <Trading {...props} />}
      below={(props) => <Below {...props} />}
    />
  );
}
