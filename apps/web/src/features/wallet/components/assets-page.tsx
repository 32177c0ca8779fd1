import type { SpotBalanceView } from "@candor/contract";
import { Switch, Tabs, Tag } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { isZeroDecimal } from "../../../lib/decimal-text.ts";
import { formatDecimal } from "@candor/decimal";
import { isDemo, useSession } from "../../../lib/session.ts";
import { useBalances } from "../api/wallet-api.ts";
import { totalValue, valueOf } from "../lib/valuation.ts";
import { FundsLinks } from "./funds-links.tsx";

/** The asset demo funds are granted in from this page. */
const demoGrantAsset = "USDT";
/** Totals are shown in this asset, at these decimals. */
const valuationAsset = "USDT";
const valuationDecimals = 2;

/** The wallet actions; each opens its screen (a "coming later" page until that screen lands). */
const actions = ["deposit", "withdraw", "transfer", "exchange"] as const;

/**
 * Assets like a wallet app (issue 18): the total value in USDT at the last prices, Deposit /
 * Withdraw / Transfer / Exchange, one tab per wallet and the assets of the funding wallet with
 * icons, amounts and values, zero balances hidden unless asked for. Amounts are the API's
 * decimal strings and values are computed exactly in bigints (`lib/valuation.ts`).
 */
export function AssetsPage({
  priceOf,
}: {
  /** Last price of asset/USDT as a decimal string, when the market has one. */
  priceOf: (asset: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const demo = isDemo(session);
  const balances = useBalances();
  const [wallet, setWallet] = useState("fund");
  const [hideZero, setHideZero] = useState(true);
  const items = balances.data?.items ?? [];
  const total = totalValue(items, valuationAsset, priceOf, valuationDecimals);
  const shown = hideZero ? items.filter((b) => !isZeroDecimal(b.total)) : items;

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
      <div className="assets-total">
        <p className="label">{t("assets.totalValue", { asset: valuationAsset })}</p>
        <p className="assets-total-value" data-testid="assets-total">
          <Amount
            value={balances.isSuccess ? total.total : undefined}
            decimalsMax={valuationDecimals}
            decimalsMin={valuationDecimals}
          />
        </p>
        <p className="hint">{t("assets.valueNote")}</p>
        <nav className="assets-actions" aria-label={t("nav.assets")}>
          {actions.map((action) => (
            <Link key={action} to={`/assets/${action}`} data-testid={`assets-${action}`}>
              {t(`assets.actions.${action}`)}
            </Link>
          ))}
        </nav>
      </div>
      <Tabs activeKey={wallet} onChange={setWallet}>
        <Tabs.Tab key="fund" title={t("assets.wallets.fund")}>
          <label className="assets-hide-zero">
            <span>{t("assets.hideZero")}</span>
            <Switch
              checked={hideZero}
              onChange={setHideZero}
              aria-label={t("assets.hideZero")}
              data-testid="assets-hide-zero"
            />
          </label>
          {balances.isPending ? <LoadingState /> : null}
          {balances.isError ? (
            <ErrorState message={balances.error.message} onRetry={() => void balances.refetch()} />
          ) : null}
          {balances.isSuccess ? (
            <ul className="asset-list" data-testid="asset-balances">
              {shown.map((balance) => (
                <AssetRow key={balance.asset} balance={balance} price={priceOf(balance.asset)} />
              ))}
            </ul>
          ) : null}
          {balances.isSuccess && shown.length === 0 ? (
            <EmptyState text={t("assets.allZero")} />
          ) : null}
        </Tabs.Tab>
        <Tabs.Tab key="contract" title={t("assets.wallets.contract")}>
          <p className="hint">{t("later.text")}</p>
        </Tabs.Tab>
        <Tabs.Tab key="fiat" title={t("assets.wallets.fiat")}>
          <p className="hint">{t("later.text")}</p>
        </Tabs.Tab>
      </Tabs>
      <FundsLinks demo={demo} demoAsset={demoGrantAsset} testIdPrefix="assets-" />
      <p className="hint" data-testid="assets-deposit-note">
        {t("assets.depositNote")}
      </p>
    </section>
  );
}

function AssetRow({ balance, price }: { balance: SpotBalanceView; price: string | undefined }) {
  const { t } = useTranslation();
  const value =
    balance.asset === valuationAsset
      ? balance.total
      : (() => {
          const units = valueOf(balance.total, price, valuationDecimals);
          return units === undefined ? undefined : formatDecimal(units, valuationDecimals);
        })();
  return (
    <li className="asset-row" data-testid={`asset-row-${balance.asset}`}>
      {/* A letter icon: no image to load, and no third party asked for logos. */}
      <span className="asset-icon" aria-hidden="true">
        {balance.asset.slice(0, 1)}
      </span>
      <span className="asset-name">{balance.asset}</span>
      <span className="asset-amounts">
        <span className="asset-total">
          <Amount value={balance.total} />
        </span>
        <span className="hint">
          ≈ <Amount value={value} decimalsMax={valuationDecimals} /> {valuationAsset}
        </span>
        {isZeroDecimal(balance.held) ? null : (
          <span className="hint">
            {t("coinCoin.funds.held")} <Amount value={balance.held} />
          </span>
        )}
      </span>
    </li>
  );
}
