import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Tag } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { fetchSpotBalances, grantDemoFunds, newClientOrderId } from "../../spot/api/spot-api.ts";

/** Demo money a tap on "Get demo funds" asks for (the server caps grants). */
const demoGrantAsset = "USDT";
const demoGrantAmount = "10000";

/**
 * Assets (issue 8): the fund balances of the session's mode, available, held and total per
 * asset as decimal strings from the API (never floats), a link to the statement, demo funds
 * for demo users and an honest note that deposits are credited by the operator for now.
 */
export function AssetsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const demo = isDemo(session);
  const balances = useQuery({ queryKey: ["spot-balances"], queryFn: fetchSpotBalances });

  const getDemoFunds = async () => {
    try {
      await withLoading(
        grantDemoFunds({
          requestId: newClientOrderId(),
          asset: demoGrantAsset,
          amount: demoGrantAmount,
        }),
      );
      showSuccess();
    } catch (error) {
      showError(error);
    }
    void queryClient.invalidateQueries({ queryKey: ["spot-balances"] });
  };

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
      <h2>{t("coinCoin.funds.title")}</h2>
      {balances.isPending ? <LoadingState /> : null}
      {balances.isError ? (
        <ErrorState message={balances.error.message} onRetry={() => void balances.refetch()} />
      ) : null}
      {balances.isSuccess && balances.data.items.length === 0 ? <EmptyState /> : null}
      {balances.isSuccess && balances.data.items.length > 0 ? (
        <table className="spot-table" data-testid="asset-balances">
          <thead>
            <tr>
              <th scope="col">{t("coinCoin.funds.asset")}</th>
              <th scope="col">{t("coinCoin.form.available")}</th>
              <th scope="col">{t("coinCoin.funds.held")}</th>
              <th scope="col">{t("assets.total")}</th>
            </tr>
          </thead>
          <tbody>
            {balances.data.items.map((balance) => (
              <tr key={balance.asset} data-testid={`asset-row-${balance.asset}`}>
                <th scope="row">{balance.asset}</th>
                <td>
                  <Amount value={balance.available} />
                </td>
                <td>
                  <Amount value={balance.held} />
                </td>
                <td>
                  <Amount value={balance.total} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="link-row">
        <Link to="/assets/statement" data-testid="assets-statement-link">
          {t("coinCoin.funds.statement")}
        </Link>
        {demo ? (
          <Button
            size="small"
            color="warning"
            onClick={() => void getDemoFunds()}
            data-testid="assets-demo-funds"
          >
            {t("coinCoin.funds.getDemo")}
          </Button>
        ) : null}
      </div>
      {demo ? <p className="hint">{t("mode.explain")}</p> : null}
      <p className="hint" data-testid="assets-deposit-note">
        {t("assets.depositNote")}
      </p>
    </section>
  );
}
