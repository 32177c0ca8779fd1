import type { SpotBalanceView } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";

/** Fund balances per asset: available and held, and the total when `withTotal` is set. */
export function BalanceTable({
  balances,
  withTotal = false,
  testId,
}: {
  balances: readonly SpotBalanceView[];
  withTotal?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <table className="spot-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t("coinCoin.funds.asset")}</th>
          <th scope="col">{t("coinCoin.form.available")}</th>
          <th scope="col">{t("coinCoin.funds.held")}</th>
          {withTotal ? <th scope="col">{t("assets.total")}</th> : null}
        </tr>
      </thead>
      <tbody>
        {balances.map((balance) => (
          <tr key={balance.asset} data-testid={`asset-row-${balance.asset}`}>
            <th scope="row">{balance.asset}</th>
            <td>
              <Amount value={balance.available} />
            </td>
            <td>
              <Amount value={balance.held} />
            </td>
            {withTotal ? (
              <td>
                <Amount value={balance.total} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
