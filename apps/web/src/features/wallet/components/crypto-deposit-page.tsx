import type { DepositAddressView } from "@candor/contract";
import { Button } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { QrImage } from "../../../components/ui/qr-image.tsx";
import { ErrorState, ListStates, LoadingState } from "../../../components/ui/states.tsx";
import { isDemo, useSession } from "../../../lib/session.ts";
import { useChainDeposits, useDepositAddresses } from "../api/chain-deposits-api.ts";

/**
 * Crypto deposit (spec assets/recharge, rechargeList): the user's own address per network with
 * its QR code, the token, the minimum and the confirmations needed, then the deposits seen with
 * their confirmations as they grow. Simulated accounts cannot deposit.
 */
export function CryptoDepositPage() {
  const { t } = useTranslation();
  const demo = isDemo(useSession());
  return (
    <section className="page" aria-labelledby="crypto-deposit-title">
      <h1 id="crypto-deposit-title">{t("wallet.chainDeposit.title")}</h1>
      {demo ? (
        <p className="hint" data-testid="crypto-deposit-demo">
          {t("wallet.bankDeposit.demoNote")}
        </p>
      ) : (
        <>
          <DepositAddresses />
          <ChainDepositHistory />
        </>
      )}
    </section>
  );
}

function DepositAddresses() {
  const { t } = useTranslation();
  const addresses = useDepositAddresses(true);
  if (addresses.isPending) return <LoadingState />;
  if (addresses.isError) {
    return (
      <ErrorState message={addresses.error.message} onRetry={() => void addresses.refetch()} />
    );
  }
  if (addresses.data.items.length === 0) {
    return <p className="hint">{t("wallet.chainDeposit.unavailable")}</p>;
  }
  return (
    <>
      {addresses.data.items.map((item) => (
        <DepositAddressCard key={item.network} item={item} />
      ))}
    </>
  );
}

function DepositAddressCard({ item }: { item: DepositAddressView }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(item.address).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div className="order-card" data-testid="deposit-address-card" data-network={item.network}>
      {item.testChain ? (
        <p className="hint" role="note" data-testid="deposit-test-chain">
          {t("wallet.chainDeposit.testChain")}
        </p>
      ) : null}
      <dl>
        <dt>{t("wallet.chainDeposit.network")}</dt>
        <dd>
          {t(`wallet.addresses.networks.${item.network}`)} · {item.chainId}
        </dd>
        <dt>{t("wallet.chainDeposit.address")}</dt>
        <dd className="mono" data-testid="deposit-address">
          {item.address}
        </dd>
      </dl>
      <QrImage text={item.address} alt={t("wallet.chainDeposit.qr")} testId="deposit-address-qr" />
      <Button size="small" onClick={() => void copy()} data-testid="deposit-address-copy">
        {copied ? t("wallet.chainDeposit.copied") : t("wallet.chainDeposit.copy")}
      </Button>
      <dl>
        <dt>{t("wallet.chainDeposit.token")}</dt>
        <dd className="mono">
          {item.asset} · {item.token}
        </dd>
        <dt>{t("wallet.chainDeposit.minimum")}</dt>
        <dd data-testid="deposit-minimum">
          <Amount value={item.minimum} /> {item.asset}
        </dd>
        <dt>{t("wallet.chainDeposit.confirmations")}</dt>
        <dd data-testid="deposit-confirmations">{item.confirmations}</dd>
      </dl>
      <p className="hint">{t("wallet.chainDeposit.onlyToken", { asset: item.asset })}</p>
    </div>
  );
}

function ChainDepositHistory() {
  const { t, i18n } = useTranslation();
  const list = useChainDeposits(true);
  return (
    <>
      <h2>{t("wallet.chainDeposit.history")}</h2>
      <ListStates query={list} />
      <ul className="account-list">
        {list.data?.items.map((d) => (
          <li key={d.depositId} className="order-card" data-testid="chain-deposit-record">
            <div className="order-card-head">
              <span>
                <Amount value={d.amount} /> {d.asset}
              </span>
              <span data-testid="chain-deposit-state" data-state={d.state}>
                {t(`wallet.chainDeposit.states.${d.state}`)}
              </span>
            </div>
            <dl>
              <dt>{t("wallet.chainDeposit.confirmations")}</dt>
              <dd data-testid="chain-deposit-confirmations">
                {d.confirmations} / {d.confirmationsRequired}
              </dd>
              <dt>{t("wallet.withdraw.txHash")}</dt>
              <dd className="mono">{d.txHash}</dd>
              <dt>{t("coinCoin.order.time")}</dt>
              <dd>{new Date(d.seenAtMs).toLocaleString(i18n.language)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
