import { useQuery } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import {
  fetchStockHoldings,
  fetchStocks,
  grantStockDemoFunds,
  stocksKeys,
} from "../api/stocks-api.ts";
import { HoldingsList } from "./holdings-list.tsx";

/** The stock list (spec index/Stock): every stock with its quote and session, and the portfolio. */
export function StocksPage() {
  const { t } = useTranslation();
  const session = useSession();
  const demo = isDemo(session);
  const mode = demo ? "demo" : "real";
  const stocks = useQuery({
    queryKey: stocksKeys.list(mode),
    queryFn: () => fetchStocks(mode),
    refetchInterval: 5_000,
  });
  const holdings = useQuery({
    queryKey: stocksKeys.holdings(),
    queryFn: fetchStockHoldings,
    enabled: session !== null,
    refetchInterval: 5_000,
  });
  return (
    <section className="page" aria-labelledby="stocks-title">
      <div className="row">
        <h1 id="stocks-title">{t("stocks.title")}</h1>
        {session ? (
          <Link to="/stocks/orders" data-testid="stock-orders-link">
            {t("stocks.orders.title")}
          </Link>
        ) : null}
      </div>
      {demo ? (
        <Button
          size="small"
          data-testid="stock-demo-funds"
          onClick={() => {
            withLoading(grantStockDemoFunds())
              .then(() => showSuccess(t("stocks.demoFundsDone")))
              .catch(showError);
          }}
        >
          {t("stocks.demoFunds")}
        </Button>
      ) : null}
      {stocks.isPending ? <LoadingState /> : null}
      {stocks.isError ? (
        <ErrorState message={stocks.error.message} onRetry={() => void stocks.refetch()} />
      ) : null}
      {stocks.isSuccess ? (
        <ul className="plain-list" data-testid="stock-list">
          {stocks.data.items.map((s) => (
            <li key={s.instrumentId} className="spot-card">
              <Link
                to={`/stocks/${encodeURIComponent(s.instrumentId)}`}
                data-testid={`stock-${s.instrumentId}`}
              >
                <strong>{s.symbol}</strong> {s.name}
              </Link>{" "}
              <span>
                <Amount value={s.lastPrice ?? undefined} /> {s.asset}
              </span>{" "}
              <span className={s.session.open ? "up" : "muted"}>
                {s.session.open ? t("stocks.session.open") : t("stocks.session.closed")}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {holdings.isSuccess ? (
        <section aria-labelledby="stock-portfolio">
          <h2 id="stock-portfolio">{t("stocks.holdings.title")}</h2>
          {holdings.data.totals.map((total) => (
            <p key={total.asset} data-testid={`stock-total-${total.asset}`}>
              {t("stocks.holdings.marketValue")}: <Amount value={total.marketValue} /> {total.asset}{" "}
              · {t("stocks.holdings.unrealised")}: <Amount value={total.unrealisedPnl} /> ·{" "}
              {t("stocks.holdings.realised")}: <Amount value={total.realisedPnl} />
            </p>
          ))}
          <HoldingsList items={holdings.data.items} />
        </section>
      ) : null}
    </section>
  );
}
