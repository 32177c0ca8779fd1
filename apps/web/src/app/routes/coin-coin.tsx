import { CoinCoinPage } from "../../features/spot/components/coin-coin-page.tsx";
import { TradingPanel } from "../../features/spot/components/trading-panel.tsx";

export function Component() {
  return <CoinCoinPage trading={(props) => <TradingPanel {...props} />} />;
}
