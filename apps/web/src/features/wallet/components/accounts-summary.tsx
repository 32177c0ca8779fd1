import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useAccounts } from "../api/accounts-api.ts";

/**
 * The total valuation and the three wallets (fund, contract, fiat) with their valuations, each
 * opening its account detail; then the transfer and quick-exchange entries.
 */
export function AccountsSummary() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  if (accounts.isPending) return <LoadingState />;
  if (accounts.isError) {
    return <ErrorState message={accounts.error.message} onRetry={() => void accounts.refetch()} />;
  }
  const data = accounts.data;
  return (
    <div data-testid="accounts-summary">
      <p className="hint">{t("wallet.totalValuation", { asset: data.valuationAsset })}</p>
      <p className="valuation-total" data-testid="total-valuation">
        <Amount value={data.totalValuation} /> {data.valuationAsset}
      </p>
      <ul className="account-list">
        {data.wallets.map((w) => (
          <li key={w.wallet} className="order-card" data-testid={`account-${w.wallet}`}>
            <Link to={`/assets/account/${w.wallet}`} className="order-card-head">
              <span>{t(`wallet.names.${w.wallet}`)}</span>
              <span>
                <Amount value={w.valuation} /> {data.valuationAsset}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="link-row">
        <Link to="/assets/recharge" data-testid="assets-crypto-deposit-link">
          {t("wallet.chainDeposit.title")}
        </Link>
        <Link to="/assets/bank-deposit" data-testid="assets-bank-deposit-link">
          {t("wallet.bankDeposit.title")}
        </Link>
        <Link to="/buy" data-testid="assets-buy-link">
          {t("wallet.buy.title")}
        </Link>
        <Link to="/assets/transfer" data-testid="assets-transfer-link">
          {t("wallet.transfer.title")}
        </Link>
        <Link to="/assets/exchange" data-testid="assets-exchange-link">
          {t("wallet.exchange.title")}
        </Link>
        <Link to="/assets/addresses" data-testid="assets-addresses-link">
          {t("wallet.addresses.title")}
        </Link>
        <Link to="/assets/bank-cards" data-testid="assets-bank-cards-link">
          {t("wallet.bankCards.title")}
        </Link>
        <Link to="/assets/withdraw" data-testid="assets-withdraw-link">
          {t("wallet.withdraw.title")}
        </Link>
      </div>
      <p className="hint">{t("wallet.valuationNote")}</p>
    </div>
  );
}
