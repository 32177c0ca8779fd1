import type { WalletName } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Checkbox, Input, Tabs } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { ListStates } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import {
  lookUpRecipient,
  transferBetweenWallets,
  transferToUser,
  useAccounts,
  useTransferLimits,
  useTransferRecords,
} from "../api/accounts-api.ts";
import { walletKeys } from "../api/wallet-api.ts";

const wallets: readonly WalletName[] = ["fund", "contract", "fiat"];

/**
 * Transfer (spec Transfer, TransferList): between the user's own wallets, instantly, and to
 * another user by id — the recipient's masked name is shown first, the user confirms that it
 * cannot be undone and gives the trade password. Demo money never leaves its demo accounts.
 */
export function TransferPage() {
  const { t } = useTranslation();
  const demo = isDemo(useSession());
  const [tab, setTab] = useState<"own" | "user">("own");
  return (
    <section className="page" aria-labelledby="transfer-title">
      <h1 id="transfer-title">{t("wallet.transfer.title")}</h1>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as "own" | "user")}>
        <Tabs.Tab key="own" title={t("wallet.transfer.own")} />
        <Tabs.Tab key="user" title={t("wallet.transfer.toUser")} />
      </Tabs>
      {tab === "own" ? (
        <OwnTransfer />
      ) : demo ? (
        <p className="hint">{t("wallet.transfer.demoNote")}</p>
      ) : (
        <UserTransfer />
      )}
      <TransferRecords />
    </section>
  );
}

function useAssetIds(): string[] {
  const accounts = useAccounts();
  return accounts.data?.wallets[0]?.items.map((i) => i.asset) ?? ["USDT"];
}

function useAfterTransfer() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: walletKeys.all });
}

function OwnTransfer() {
  const { t } = useTranslation();
  const assets = useAssetIds();
  const after = useAfterTransfer();
  const [source, setSource] = useState<WalletName>("fund");
  const [target, setTarget] = useState<WalletName>("contract");
  const [asset, setAsset] = useState("USDT");
  const [amount, setAmount] = useState("");
  const submit = async () => {
    try {
      await withLoading(
        transferBetweenWallets({
          requestId: newIdempotencyKey(),
          asset,
          amount,
          sourceWallet: source,
          targetWallet: target,
        }),
      );
      showSuccess();
      setAmount("");
    } catch (error) {
      showError(error);
    }
    after();
  };
  return (
    <form
      className="order-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <WalletSelect
        label={t("wallet.transfer.from")}
        value={source}
        onChange={setSource}
        testId="transfer-source"
      />
      <WalletSelect
        label={t("wallet.transfer.to")}
        value={target}
        onChange={setTarget}
        testId="transfer-target"
      />
      <AssetSelect assets={assets} value={asset} onChange={setAsset} testId="transfer-asset" />
      <AmountInput value={amount} onChange={setAmount} testId="transfer-amount" />
      <Button block color="primary" type="submit" data-testid="transfer-own-submit">
        {t("wallet.transfer.submit")}
      </Button>
    </form>
  );
}

function UserTransfer() {
  const { t } = useTranslation();
  const assets = useAssetIds();
  const after = useAfterTransfer();
  const limits = useTransferLimits(true);
  const [recipientId, setRecipientId] = useState("");
  const [recipient, setRecipient] = useState<{ userId: string; maskedName: string } | null>(null);
  const [asset, setAsset] = useState("USDT");
  const [amount, setAmount] = useState("");
  const [tradePassword, setTradePassword] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const left = limits.data?.items.find((i) => i.asset === asset)?.left;
  const check = async () => {
    setRecipient(null);
    try {
      setRecipient(await withLoading(lookUpRecipient(recipientId.trim())));
    } catch (error) {
      showError(error);
    }
  };
  const submit = async () => {
    if (!recipient) return;
    try {
      await withLoading(
        transferToUser({
          requestId: newIdempotencyKey(),
          recipientId: recipient.userId,
          asset,
          amount,
          tradePassword,
          confirmIrreversible: confirmed,
        }),
      );
      showSuccess();
      setAmount("");
      setTradePassword("");
      setConfirmed(false);
    } catch (error) {
      showError(error);
    }
    after();
  };
  return (
    <form
      className="order-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="order-field">
        <Input
          aria-label={t("wallet.transfer.recipientId")}
          placeholder={t("wallet.transfer.recipientId")}
          inputMode="numeric"
          value={recipientId}
          onChange={(text) => {
            setRecipientId(text);
            setRecipient(null);
          }}
          data-testid="transfer-recipient-id"
        />
      </div>
      <Button size="small" onClick={() => void check()} data-testid="transfer-recipient-check">
        {t("wallet.transfer.checkRecipient")}
      </Button>
      {recipient ? (
        <>
          <p data-testid="transfer-recipient-name">
            {t("wallet.transfer.recipient")}: <strong>{recipient.maskedName}</strong> (ID{" "}
            {recipient.userId})
          </p>
          <AssetSelect
            assets={assets}
            value={asset}
            onChange={setAsset}
            testId="transfer-user-asset"
          />
          <AmountInput value={amount} onChange={setAmount} testId="transfer-user-amount" />
          {left !== undefined ? (
            <p className="hint" data-testid="transfer-limit-left">
              {t("wallet.transfer.limitLeft")}: <Amount value={left} /> {asset}
            </p>
          ) : null}
          <div className="order-field">
            <Input
              type="password"
              aria-label={t("wallet.transfer.tradePassword")}
              placeholder={t("wallet.transfer.tradePassword")}
              value={tradePassword}
              onChange={setTradePassword}
              data-testid="transfer-trade-password"
            />
          </div>
          <p className="order-warning" role="note">
            {t("wallet.transfer.irreversible")}
          </p>
          <Checkbox checked={confirmed} onChange={setConfirmed} data-testid="transfer-confirm">
            {t("wallet.transfer.confirmIrreversible")}
          </Checkbox>
          <Button
            block
            color="danger"
            type="submit"
            disabled={!confirmed}
            data-testid="transfer-user-submit"
          >
            {t("wallet.transfer.submitToUser")}
          </Button>
        </>
      ) : null}
    </form>
  );
}

function TransferRecords() {
  const { t, i18n } = useTranslation();
  const records = useTransferRecords();
  return (
    <>
      <h2>{t("wallet.transfer.records")}</h2>
      <ListStates query={records} />
      <ul className="account-list">
        {records.data?.items.map((r) => (
          <li key={r.transferId} className="order-card" data-testid="transfer-record">
            <div className="order-card-head">
              <span>
                {r.kind === "wallet"
                  ? `${t(`wallet.names.${r.sourceWallet}`)} → ${t(`wallet.names.${r.targetWallet}`)}`
                  : r.direction === "out"
                    ? t("wallet.transfer.sentTo", { name: r.counterpartyName ?? r.counterpartyId })
                    : t("wallet.transfer.receivedFrom", {
                        name: r.counterpartyName ?? r.counterpartyId,
                      })}
              </span>
              <span className={r.direction === "out" ? "change down" : "change up"}>
                {r.direction === "out" ? "-" : r.direction === "in" ? "+" : ""}
                <Amount value={r.amount} /> {r.asset}
              </span>
            </div>
            <dl>
              <dt>{t("coinCoin.order.time")}</dt>
              <dd>{new Date(r.atMs).toLocaleString(i18n.language)}</dd>
              <dt>{t("coinCoin.statement.posting")}</dt>
              <dd>{r.postingSeq}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function WalletSelect({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: WalletName;
  onChange: (wallet: WalletName) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <label className="order-field">
      <span className="label">{label}</span>
      <select
        className="native-select"
        value={value}
        onChange={(event) => onChange(event.target.value as WalletName)}
        data-testid={testId}
      >
        {wallets.map((w) => (
          <option key={w} value={w}>
            {t(`wallet.names.${w}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An asset picker over the defined assets. */
export function AssetSelect({
  assets,
  value,
  onChange,
  testId,
  label,
}: {
  assets: readonly string[];
  value: string;
  onChange: (asset: string) => void;
  testId: string;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <label className="order-field">
      <span className="label">{label ?? t("wallet.asset")}</span>
      <select
        className="native-select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {assets.map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A decimal amount as typed (a comma becomes a point); the server checks it exactly. */
export function AmountInput({
  value,
  onChange,
  testId,
  label,
}: {
  value: string;
  onChange: (amount: string) => void;
  testId: string;
  label?: string;
}) {
  const { t } = useTranslation();
  const text = label ?? t("wallet.amount");
  return (
    <div className="order-field">
      <Input
        aria-label={text}
        placeholder={text}
        inputMode="decimal"
        value={value}
        onChange={(input) => onChange(input.replace(",", "."))}
        data-testid={testId}
      />
    </div>
  );
}
