import type { BankDepositView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, ListStates, LoadingState } from "../../../components/ui/states.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import {
  bankDepositKeys,
  createBankDeposit,
  uploadImage,
  uploadUrl,
  useBankDepositOptions,
  useBankDeposits,
} from "../api/bank-deposits-api.ts";
import { walletKeys } from "../api/wallet-api.ts";
import { AmountInput, AssetSelect } from "./transfer-page.tsx";

/**
 * Bank deposit (spec assets/recharge, rechargeList): the operator's bank details, the amount
 * and asset, a payment-proof image with a preview, then "Deposit request submitted" and the
 * history of requests. An operator credits or rejects each request; nothing credits by itself.
 * Simulated accounts cannot deposit.
 */
export function BankDepositPage() {
  const { t } = useTranslation();
  const demo = isDemo(useSession());
  return (
    <section className="page" aria-labelledby="bank-deposit-title">
      <h1 id="bank-deposit-title">{t("wallet.bankDeposit.title")}</h1>
      {demo ? (
        <p className="hint" data-testid="bank-deposit-demo">
          {t("wallet.bankDeposit.demoNote")}
        </p>
      ) : (
        <>
          <BankDepositForm />
          <BankDepositHistory />
        </>
      )}
    </section>
  );
}

function BankDepositForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const options = useBankDepositOptions();
  const [asset, setAsset] = useState("");
  const [amount, setAmount] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<BankDepositView | null>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  if (options.isPending) return <LoadingState />;
  if (options.isError) {
    return <ErrorState message={options.error.message} onRetry={() => void options.refetch()} />;
  }
  const { bank, assets, maxUploadBytes } = options.data;
  if (!bank) return <p className="hint">{t("wallet.bankDeposit.unavailable")}</p>;
  const assetIds = assets.map((a) => a.assetId);
  const chosen = asset || assetIds[0] || "";
  const submit = async () => {
    if (!file) return showError(new Error(t("wallet.bankDeposit.proofRequired")));
    try {
      const deposit = await withLoading(
        uploadImage(file, "bank_deposit_proof").then((upload) =>
          createBankDeposit({ assetId: chosen, amount, proofUploadId: upload.uploadId }),
        ),
      );
      setSubmitted(deposit.deposit);
      setAmount("");
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: bankDepositKeys.list });
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    } catch (error) {
      showError(error);
    }
  };
  return (
    <>
      <h2>{t("wallet.bankDeposit.sendTo")}</h2>
      <dl className="bank-details" data-testid="bank-details">
        <dt>{t("wallet.bankDeposit.bankName")}</dt>
        <dd>{bank.bankName}</dd>
        <dt>{t("wallet.bankDeposit.accountName")}</dt>
        <dd>{bank.accountName}</dd>
        <dt>{t("wallet.bankDeposit.accountNumber")}</dt>
        <dd>
          <span data-testid="bank-account-number">{bank.accountNumber}</span>{" "}
          <CopyButton text={bank.accountNumber} testId="bank-account-copy" />
        </dd>
        {bank.bankCode ? (
          <>
            <dt>{t("wallet.bankDeposit.bankCode")}</dt>
            <dd>{bank.bankCode}</dd>
          </>
        ) : null}
        {bank.note ? (
          <>
            <dt>{t("wallet.bankDeposit.note")}</dt>
            <dd>
              {bank.note} <CopyButton text={bank.note} testId="bank-note-copy" />
            </dd>
          </>
        ) : null}
      </dl>
      {submitted ? (
        <div className="order-card" role="status" data-testid="bank-deposit-submitted">
          <p>
            <strong>{t("wallet.bankDeposit.submitted")}</strong>
          </p>
          <p>
            <Amount value={submitted.amount} /> {submitted.assetId} ·{" "}
            {t("wallet.bankDeposit.states.pending")}
          </p>
          <Button size="small" onClick={() => setSubmitted(null)}>
            {t("wallet.bankDeposit.another")}
          </Button>
        </div>
      ) : (
        <form
          className="order-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <AssetSelect
            assets={assetIds}
            value={chosen}
            onChange={setAsset}
            testId="bank-deposit-asset"
          />
          <AmountInput value={amount} onChange={setAmount} testId="bank-deposit-amount" />
          <div className="order-field">
            <span className="label">{t("wallet.bankDeposit.proof")}</span>
            {/* The native picker's own words follow the browser's language: ours are shown. */}
            <label className="file-picker">
              <input
                type="file"
                accept="image/jpeg,image/png"
                className="visually-hidden"
                aria-label={t("wallet.bankDeposit.proof")}
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                data-testid="bank-deposit-file"
              />
              <span className="adm-button adm-button-default adm-button-small" aria-hidden="true">
                {t("wallet.bankDeposit.chooseImage")}
              </span>
            </label>
          </div>
          <p className="hint">
            {t("wallet.bankDeposit.proofHint", { size: Math.floor(maxUploadBytes / 1_048_576) })}
          </p>
          {preview ? (
            <img
              src={preview}
              alt={t("wallet.bankDeposit.preview")}
              className="upload-preview"
              data-testid="bank-deposit-preview"
            />
          ) : null}
          <p className="hint">{t("wallet.bankDeposit.manualNote")}</p>
          <Button block color="primary" type="submit" data-testid="bank-deposit-submit">
            {t("wallet.bankDeposit.submit")}
          </Button>
        </form>
      )}
    </>
  );
}

function BankDepositHistory() {
  const { t, i18n } = useTranslation();
  const list = useBankDeposits();
  return (
    <>
      <h2>{t("wallet.bankDeposit.history")}</h2>
      <ListStates query={list} />
      <ul className="account-list">
        {list.data?.items.map((d) => (
          <li key={d.depositId} className="order-card" data-testid="bank-deposit-record">
            <div className="order-card-head">
              <span>
                <Amount value={d.amount} /> {d.assetId}
              </span>
              <span data-testid="bank-deposit-state" data-state={d.state}>
                {t(`wallet.bankDeposit.states.${d.state}`)}
              </span>
            </div>
            <dl>
              <dt>{t("coinCoin.order.time")}</dt>
              <dd>{new Date(d.createdAtMs).toLocaleString(i18n.language)}</dd>
              {d.rejectReason ? (
                <>
                  <dt>{t("wallet.bankDeposit.reason")}</dt>
                  <dd data-testid="bank-deposit-reason">{d.rejectReason}</dd>
                </>
              ) : null}
              {d.postingSeq !== null ? (
                <>
                  <dt>{t("coinCoin.statement.posting")}</dt>
                  <dd>
                    <Link to="/assets/statement" data-testid="bank-deposit-statement-link">
                      {d.postingSeq}
                    </Link>
                  </dd>
                </>
              ) : null}
              <dt>{t("wallet.bankDeposit.proof")}</dt>
              <dd>
                <a href={uploadUrl(d.proofUploadId)} target="_blank" rel="noreferrer">
                  <img
                    src={uploadUrl(d.proofUploadId)}
                    alt={t("wallet.bankDeposit.viewProof")}
                    className="upload-thumbnail"
                    loading="lazy"
                    data-testid="bank-deposit-proof"
                  />
                </a>
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Copies a bank detail to the clipboard (the user pastes it into their bank's transfer form). */
function CopyButton({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Button size="mini" onClick={() => void copy()} data-testid={testId}>
      {copied ? t("wallet.chainDeposit.copied") : t("wallet.chainDeposit.copy")}
    </Button>
  );
}
