import type { ParseKeys } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/**
 * A tab whose screens come with a later issue. It says so plainly instead of showing made-up
 * balances or prices.
 */
export function ComingLaterPage({ titleKey }: { titleKey: ParseKeys }) {
  const { t } = useTranslation();
  return (
    <section className="page" aria-labelledby="later-title">
      <h1 id="later-title">{t(titleKey)}</h1>
      <p data-testid="coming-later">{t("later.text")}</p>
      <Link to="/quotation">{t("later.toQuotation")}</Link>
    </section>
  );
}
