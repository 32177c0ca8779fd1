import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { fetchStockHoldings, stocksKeys } from "../api/stocks-api.ts";

/** The stock portfolio's totals per currency, for the Assets page (links to the stock list). */
export function StocksPortfolioCard() {
  const { t } = useTranslation();
  const holdings = useQuery({
    queryKey: stocksKeys.holdings(),
    queryFn: fetchStockHoldings,
    refetchInterval: 10_000,
  });
  if (!holdings.isSuccess || holdings.data.totals.length === 0) return null;
  return (
    <section className="page spot-card" aria-labelledby="assets-stocks" data-testid="assets-stocks">
      <h2 id="assets-stocks">
        <Link to="/stocks">{t("stocks.holdings.title")}</Link>
      </h2>
      {holdings.data.totals.map((total) => (
        <p key={total.asset}>
          {t("stocks.holdings.marketValue")}: <Amount value={total.marketValue} /> {total.asset} ·{" "}
          {t("stocks.holdings.unrealised")}: <Amount value={total.unrealisedPnl} />
        </p>
      ))}
    </section>
  );
}
