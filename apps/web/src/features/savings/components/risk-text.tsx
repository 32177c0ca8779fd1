import { useTranslation } from "react-i18next";

/** What can go wrong, in plain words: the reserve, the operator's solvency, mining's terms. */
export function RiskText({ mining, demo }: { mining: boolean; demo: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="hint" aria-labelledby="savings-risk" data-testid="risk-text">
      <h3 id="savings-risk">{t("savings.risk.title")}</h3>
      <p>{t("savings.risk.reserve")}</p>
      <p>{t("savings.risk.solvency")}</p>
      {mining ? <p>{t("savings.risk.mining")}</p> : null}
      {demo ? <p>{t("savings.risk.demo")}</p> : null}
    </section>
  );
}
