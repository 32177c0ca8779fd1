import { Tag } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { ListStates } from "../../../components/ui/states.tsx";
import { isDemo, useSession } from "../../../lib/session.ts";
import { useBalances } from "../api/wallet-api.ts";
import { AccountsSummary } from "./accounts-summary.tsx";
import { BalanceTable } from "./balance-table.tsx";
import { FundsLinks } from "./funds-links.tsx";

/** The asset demo funds are granted in from this page. */
const demoGrantAsset = "USDT";

/**
 * Assets (issue 8): the fund balances of the session's mode, available, held and total per
 * asset as decimal strings from the API (never floats), a link to the statement, demo funds
 * for demo users and an honest note that deposits are credited by the operator for now.
 */
export function AssetsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const demo = isDemo(session);
  const balances = useBalances();

  return (
    <section className="page" aria-labelledby="assets-title">
      <h1 id="assets-title">{t("nav.assets")}</h1>
      <p className="hint" data-testid="assets-mode">
        {demo ? (
          <Tag color="warning" fill="solid">
            {t("mode.demoBadge")}
          </Tag>
        ) : null}{" "}
        {demo ? t("mode.demo") : t("mode.real")}
      </p>
      <AccountsSummary />
      <h2>{t("coinCoin.funds.title")}</h2>
      <ListStates query={balances} />
      {balances.isSuccess && balances.data.items.length > 0 ? (
        <BalanceTable balances={balances.data.items} withTotal testId="asset-balances" />
      ) : null}
      <FundsLinks demo={demo} demoAsset={demoGrantAsset} testIdPrefix="assets-" />
      <p className="hint" data-testid="assets-deposit-note">
        {t("assets.depositNote")}
      </p>
    </section>
  );
}
