import { StocksPortfolioCard } from "../../features/stocks/components/stocks-portfolio-card.tsx";
import { AssetsPage } from "../../features/wallet/components/assets-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <AssetsPage />
      <StocksPortfolioCard />
    </RequireLogin>
  );
}
