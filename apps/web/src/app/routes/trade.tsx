import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ChartPanel } from "../../features/market-data/components/chart-panel.tsx";
import { ProductCountryNotice } from "../../features/security/components/product-country-notice.tsx";
import { PerpPage } from "../../features/perp/components/perp-page.tsx";

/** The Trade tab: links to the other trading screens, then the perpetual screen. */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <nav className="page" aria-label={t("seconds.trade.title")}>
        <ul className="trade-links">
          <li>
            <Link to="/coin-coin">{t("seconds.trade.spot")}</Link>
          </li>
          <li>
            <Link to="/options" data-testid="trade-options">
              {t("seconds.title")}
            </Link>
          </li>
          <li>
            <Link to="/savings" data-testid="trade-savings">
              {t("savings.title")}
            </Link>
          </li>
          <li>
            <Link to="/stocks" data-testid="trade-stocks">
              {t("stocks.title")}
            </Link>
          </li>
          <li>
            <Link to="/loans" data-testid="trade-loans">
              {t("loans.title")}
            </Link>
          </li>
        </ul>
      </nav>
      <ProductCountryNotice product="perp" />
      <PerpPage
        chart={({ instrumentId, priceScale }) => (
          <ChartPanel
            instrumentId={instrumentId}
            symbol={instrumentId}
            priceScale={priceScale}
            initialInterval="1m"
          />
        )}
      />
    </>
  );
}
