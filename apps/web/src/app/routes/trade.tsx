import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ComingLaterPage } from "../../features/coming-later/components/coming-later-page.tsx";

/** The Trade tab: the trading screens built so far, then what comes later. */
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
        </ul>
      </nav>
      <ComingLaterPage titleKey="nav.trade" />
    </>
  );
}
