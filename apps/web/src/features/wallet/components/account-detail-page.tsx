import type { WalletName } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, ListStates, LoadingState } from "../../../components/ui/states.tsx";
import { useAccounts, useAccountStatement } from "../api/accounts-api.ts";

/**
 * Account detail (spec zhanghuDetail): one wallet's assets with balance, available, frozen, the
 * valuation and the tape tick it used; then the wallet's postings, newest first.
 */
export function AccountDetailPage({ wallet }: { wallet: WalletName }) {
  const { t, i18n } = useTranslation();
  const accounts = useAccounts();
  const statement = useAccountStatement(wallet);
  const account = accounts.data?.wallets.find((w) => w.wallet === wallet);
  const valuationAsset = accounts.data?.valuationAsset ?? "";
  return (
    <section className="page" aria-labelledby="account-title">
      <h1 id="account-title">{t(`wallet.names.${wallet}`)}</h1>
      {accounts.isPending ? <LoadingState /> : null}
      {accounts.isError ? (
        <ErrorState message={accounts.error.message} onRetry={() => void accounts.refetch()} />
      ) : null}
      {account ? (
        <>
          <p data-testid="account-valuation">
            {t("wallet.valuation")}: <Amount value={account.valuation} /> {valuationAsset}
          </p>
          <ul className="account-list">
            {account.items.map((item) => (
              <li
                key={item.asset}
                className="order-card"
                data-testid={`account-asset-${item.asset}`}
              >
                <div className="order-card-head">
                  <strong>{item.asset}</strong>
                  <span>
                    <Amount value={item.total} />
                  </span>
                </div>
                <dl>
                  <dt>{t("wallet.available")}</dt>
                  <dd>
                    <Amount value={item.available} />
                  </dd>
                  <dt>{t("wallet.frozen")}</dt>
                  <dd>
                    <Amount value={item.held} />
                  </dd>
                  <dt>{t("wallet.valuation")}</dt>
                  <dd>
                    {item.valuation === null ? (
                      t("wallet.noPrice")
                    ) : (
                      <>
                        <Amount value={item.valuation} /> {valuationAsset}
                      </>
                    )}
                  </dd>
                  {item.tickId ? (
                    <>
                      <dt>{t("wallet.price")}</dt>
                      <dd>
                        <Amount value={item.price ?? undefined} /> ({t("wallet.tick")}{" "}
                        <code>{item.tickId}</code>)
                      </dd>
                    </>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t("wallet.postings")}</h2>
      <ListStates query={statement} />
      {statement.isSuccess && statement.data.items.length > 0 ? (
        <ul className="account-list">
          {statement.data.items.map((line) => (
            <li
              key={`${line.postingSeq}-${line.asset}`}
              className="order-card"
              data-testid="account-posting"
            >
              <div className="order-card-head">
                <span>{t(`coinCoin.statement.reasons.${line.reason}`)}</span>
                <span className={line.amount.startsWith("-") ? "change down" : "change up"}>
                  {line.amount.startsWith("-") ? "" : "+"}
                  <Amount value={line.amount} /> {line.asset}
                </span>
              </div>
              <dl>
                <dt>{t("coinCoin.order.time")}</dt>
                <dd>{new Date(line.atMs).toLocaleString(i18n.language)}</dd>
                <dt>{t("coinCoin.statement.posting")}</dt>
                <dd>{line.postingSeq}</dd>
                {line.tickId ? (
                  <>
                    <dt>{t("wallet.tick")}</dt>
                    <dd>
                      <code>{line.tickId}</code>
                    </dd>
                  </>
                ) : null}
              </dl>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
