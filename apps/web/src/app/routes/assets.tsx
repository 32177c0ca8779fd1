import { useTickers } from "../../features/market-data/api/use-tickers.ts";
import { useBalances } from "../../features/wallet/api/wallet-api.ts";
import { AssetsPage } from "../../features/wallet/components/assets-page.tsx";
import { RequireLogin } from "../require-login.tsx";

/** The wallet's assets valued at the market data's last prices (asset/USDT tickers). */
function ValuedAssets() {
  const balances = useBalances();
  const assets = (balances.data?.items ?? []).map((b) => b.asset).filter((a) => a !== "USDT");
  const { tickers } = useTickers(assets.map((asset) => `${asset}USDT`));
  return <AssetsPage priceOf={(asset) => tickers.get(`${asset}USDT`)?.last} />;
}

export function Component() {
  return (
    <RequireLogin>
      <ValuedAssets />
    </RequireLogin>
  );
}
