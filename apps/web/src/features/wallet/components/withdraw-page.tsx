import type { WithdrawalView, WithdrawNetwork } from "@candor/contract";
import { formatDecimal, parseDecimal } from "@candor/decimal";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, ListStates, LoadingState } from "../../../components/ui/states.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { confirm, confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import {
  cancelWithdrawal,
  requestBankWithdrawal,
  requestWithdrawal,
  useBankCards,
  useAccounts,
  useWithdrawAddresses,
  useWithdrawalOptions,
  useWithdrawals,
} from "../api/accounts-api.ts";
import { walletKeys } from "../api/wallet-api.ts";
import { EndOfList } from "../../../components/ui/states.tsx";
import { AmountInput, AssetSelect } from "./transfer-page.tsx";

/** Decimal digits the arithmetic below works in (every asset's scale fits). */
const scale = 18;
const units = (text: string): bigint | null => {
  const parsed = parseDecimal(text, scale);
  return parsed.ok ? parsed.value : null;
};

/**
 * Withdraw (spec tibi, tibiList): asset, network, a saved address whose waiting period has
 * passed, the amount (max = available − fee), the fee, minimum and what the address receives,
 * the trade password and a confirmation; the history with every state, and cancel while it is
 * not yet sent. Amounts are decimal strings; the sums are done in bigint, never in floats.
 */
export function WithdrawPage() {
  const { t } = useTranslation();
  const demo = isDemo(useSession());
  const [to, setTo] = useState<"address" | "bank">("address");
  return (
    <section className="page" aria-labelledby="withdraw-title">
      <h1 id="withdraw-title">{t("wallet.withdraw.title")}</h1>
      {demo ? (
        <p className="hint" data-testid="withdraw-demo">
          {t("wallet.withdraw.demoNote")}
        </p>
      ) : (
        <>
          <div className="link-row" role="group" aria-label={t("wallet.withdraw.to")}>
            {(["address", "bank"] as const).map((kind) => (
              <Button
                key={kind}
                size="small"
                aria-pressed={to === kind}
                color={to === kind ? "primary" : "default"}
                onClick={() => setTo(kind)}
                data-testid={`withdraw-to-${kind}`}
              >
                {t(`wallet.withdraw.toKinds.${kind}`)}
              </Button>
            ))}
          </div>
          {to === "address" ? <WithdrawForm /> : <BankWithdrawForm />}
          <WithdrawalHistory />
        </>
      )}
    </section>
  );
}

/** A withdrawal's terms for the chosen asset and destination (a network, or the bank). */
interface WithdrawTerms {
  asset: string;
  minimum: string;
  fee: string;
}

/** What the user has typed into a withdrawal form, and the sums from it (in bigint). */
interface WithdrawDraft {
  amount: string;
  setAmount: (value: string) => void;
  tradePassword: string;
  setTradePassword: (value: string) => void;
  needsCode: boolean;
  code: string;
  setCode: (value: string) => void;
  wanted: bigint | null;
  /** Amount + fee, what leaves the account; null until both are known. */
  total: bigint | null;
  /** The largest amount whose total the available balance covers. */
  max: string;
  /**
   * Confirms `content`, then sends the request with the amount, trade password and (once the
   * server has asked for it) the two-factor code; the wallet is refetched either way.
   */
  send: (
    content: string,
    request: (secrets: {
      amount: string;
      tradePassword: string;
      totpCode?: string;
    }) => Promise<unknown>,
  ) => Promise<void>;
}

/** The one draft of both withdrawal forms (to an address and to a bank card). */
function useWithdrawDraft(terms: WithdrawTerms | undefined, available: string): WithdrawDraft {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState("");
  const [tradePassword, setTradePassword] = useState("");
  // Shown when the server asks for it: the user has two-factor sign-in on.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState("");
  const fee = terms ? units(terms.fee) : null;
  const wanted = units(amount);
  const total = wanted !== null && fee !== null ? wanted + fee : null;
  const max = (() => {
    const have = units(available);
    if (have === null || fee === null || have <= fee) return "0";
    return formatDecimal(have - fee, scale);
  })();
  const send: WithdrawDraft["send"] = async (content, request) => {
    if (!(await confirm({ content }))) return;
    try {
      await withLoading(
        request({
          amount,
          tradePassword,
          ...(needsCode && code.trim() ? { totpCode: code.trim() } : {}),
        }),
      );
      showSuccess();
      setAmount("");
      setTradePassword("");
      setCode("");
    } catch (error) {
      if (error instanceof ApiError && error.code === "two_factor_required") setNeedsCode(true);
      showError(error);
    }
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  };
  return {
    amount,
    setAmount,
    tradePassword,
    setTradePassword,
    needsCode,
    code,
    setCode,
    wanted,
    total,
    max,
    send,
  };
}

/**
 * The part both withdrawal forms share, below the destination: the amount with the available
 * balance and Max, the minimum, fee, what the destination receives and the total, the trade
 * password, the two-factor code once asked for, and the submit button. Test ids are
 * `${testPrefix}-amount`, `-max`, `-terms`, `-fee`, `-received`, `-total`, `-trade-password`,
 * `-totp` and `-submit`.
 */
function WithdrawDraftFields({
  draft,
  terms,
  asset,
  available,
  availableLabel,
  receivedLabel,
  ready,
  testPrefix,
}: {
  draft: WithdrawDraft;
  terms: WithdrawTerms | undefined;
  asset: string;
  available: string;
  availableLabel: string;
  receivedLabel: string;
  /** A destination is chosen. */
  ready: boolean;
  testPrefix: string;
}) {
  const { t } = useTranslation();
  const { wanted, total } = draft;
  return (
    <>
      <AmountInput
        value={draft.amount}
        onChange={draft.setAmount}
        testId={`${testPrefix}-amount`}
      />
      <div className="link-row">
        <span className="hint">
          {availableLabel}: <Amount value={available} /> {asset}
        </span>
        <Button
          size="mini"
          onClick={() => draft.setAmount(draft.max)}
          data-testid={`${testPrefix}-max`}
        >
          {t("wallet.withdraw.max")}
        </Button>
      </div>
      {terms ? (
        <dl data-testid={`${testPrefix}-terms`}>
          <dt>{t("wallet.withdraw.minimum")}</dt>
          <dd>
            <Amount value={terms.minimum} /> {asset}
          </dd>
          <dt>{t("wallet.withdraw.fee")}</dt>
          <dd data-testid={`${testPrefix}-fee`}>
            <Amount value={terms.fee} /> {asset}
          </dd>
          <dt>{receivedLabel}</dt>
          <dd data-testid={`${testPrefix}-received`}>
            {wanted !== null ? <Amount value={formatDecimal(wanted, scale)} /> : "—"} {asset}
          </dd>
          <dt>{t("wallet.withdraw.total")}</dt>
          <dd data-testid={`${testPrefix}-total`}>
            {total !== null ? <Amount value={formatDecimal(total, scale)} /> : "—"} {asset}
          </dd>
        </dl>
      ) : null}
      <div className="order-field">
        <Input
          type="password"
          aria-label={t("wallet.transfer.tradePassword")}
          placeholder={t("wallet.transfer.tradePassword")}
          value={draft.tradePassword}
          onChange={draft.setTradePassword}
          data-testid={`${testPrefix}-trade-password`}
        />
      </div>
      {draft.needsCode ? (
        <div className="order-field">
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-label={t("auth.login.totpCode")}
            placeholder={t("auth.login.totpCode")}
            value={draft.code}
            onChange={draft.setCode}
            maxLength={11}
            data-testid={`${testPrefix}-totp`}
          />
        </div>
      ) : null}
      <Button
        block
        color="primary"
        type="submit"
        disabled={!ready || total === null || draft.tradePassword === ""}
        data-testid={`${testPrefix}-submit`}
      >
        {t("wallet.withdraw.submit")}
      </Button>
    </>
  );
}

/** A withdrawal form once its options (and destinations) have loaded. */
function WithdrawFormFrame({
  loading,
  options,
  onSubmit,
  children,
}: {
  loading: boolean;
  options: ReturnType<typeof useWithdrawalOptions>;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  if (loading) return <LoadingState />;
  if (options.isError) {
    return <ErrorState message={options.error.message} onRetry={() => void options.refetch()} />;
  }
  return (
    <form
      className="order-form"
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/**
 * To a bound bank card, from the fiat wallet: the card, the amount, the bank minimum and fee
 * shown before confirming, the trade password, then the same states as a crypto withdrawal
 * (the operator marks it paid with the bank's reference instead of a transaction hash).
 */
function BankWithdrawForm() {
  const { t } = useTranslation();
  const options = useWithdrawalOptions();
  const cards = useBankCards();
  const accounts = useAccounts();
  const assets = options.data?.bank.map((b) => b.asset) ?? [];
  const [asset, setAsset] = useState("USDT");
  const terms = options.data?.bank.find((b) => b.asset === asset) ?? options.data?.bank[0];
  const [cardId, setCardId] = useState("");
  const chosen = cards.data?.items.find((c) => c.cardId === cardId) ?? cards.data?.items[0];
  const fiat = accounts.data?.wallets.find((w) => w.wallet === "fiat");
  const available = fiat?.items.find((i) => i.asset === terms?.asset)?.available ?? "0";
  const draft = useWithdrawDraft(terms, available);

  const submit = async () => {
    if (!terms || !chosen || draft.total === null) return;
    await draft.send(
      t("wallet.withdraw.confirmBank", {
        amount: draft.amount,
        asset: terms.asset,
        card: `${chosen.bankName} ${chosen.cardNumberMasked}`,
        fee: terms.fee,
        total: formatDecimal(draft.total, scale),
      }),
      (secrets) =>
        requestBankWithdrawal({
          requestId: newIdempotencyKey(),
          cardId: chosen.cardId,
          asset: terms.asset,
          ...secrets,
        }),
    );
  };

  return (
    <WithdrawFormFrame
      loading={options.isPending || cards.isPending}
      options={options}
      onSubmit={submit}
    >
      <AssetSelect
        assets={assets}
        value={terms?.asset ?? ""}
        onChange={setAsset}
        testId="bank-withdraw-asset"
      />
      {!cards.data || cards.data.items.length === 0 ? (
        <p className="hint" data-testid="withdraw-no-card">
          <Link to="/assets/bank-cards">{t("wallet.bankCards.empty")}</Link>
        </p>
      ) : (
        <label className="order-field">
          <span className="label">{t("wallet.withdraw.card")}</span>
          <select
            className="native-select"
            value={chosen?.cardId ?? ""}
            onChange={(event) => setCardId(event.target.value)}
            data-testid="withdraw-card"
          >
            {cards.data.items.map((c) => (
              <option key={c.cardId} value={c.cardId}>
                {`${c.bankName} ${c.cardNumberMasked} · ${c.cardholder}`}
              </option>
            ))}
          </select>
        </label>
      )}
      <WithdrawDraftFields
        draft={draft}
        terms={terms}
        asset={terms?.asset ?? ""}
        available={available}
        availableLabel={t("wallet.withdraw.availableFiat")}
        receivedLabel={t("wallet.withdraw.receivedCard")}
        ready={chosen !== undefined}
        testPrefix="bank-withdraw"
      />
    </WithdrawFormFrame>
  );
}

function WithdrawForm() {
  const { t, i18n } = useTranslation();
  const options = useWithdrawalOptions();
  const addresses = useWithdrawAddresses();
  const accounts = useAccounts();
  const assets = [...new Set(options.data?.items.map((i) => i.asset) ?? [])];
  const [asset, setAsset] = useState("USDT");
  const networks = options.data?.items.filter((i) => i.asset === asset) ?? [];
  const [network, setNetwork] = useState<WithdrawNetwork>("ethereum");
  const terms = networks.find((n) => n.network === network) ?? networks[0];
  const saved = addresses.data?.items.filter((a) => a.network === terms?.network) ?? [];
  const [addressId, setAddressId] = useState("");
  const chosen = saved.find((a) => a.addressId === addressId) ?? saved[0];
  const available =
    accounts.data?.wallets[0]?.items.find((i) => i.asset === asset)?.available ?? "0";
  const draft = useWithdrawDraft(terms, available);
  const locked = chosen !== undefined && chosen.usableFromMs > Date.now();

  const submit = async () => {
    if (!terms || !chosen || draft.total === null) return;
    await draft.send(
      t("wallet.withdraw.confirm", {
        amount: draft.amount,
        asset,
        address: chosen.address,
        network: t(`wallet.addresses.networks.${terms.network}`),
        fee: terms.fee,
        total: formatDecimal(draft.total, scale),
      }),
      (secrets) =>
        requestWithdrawal({
          requestId: newIdempotencyKey(),
          addressId: chosen.addressId,
          asset,
          ...secrets,
        }),
    );
  };

  return (
    <WithdrawFormFrame
      loading={options.isPending || addresses.isPending}
      options={options}
      onSubmit={submit}
    >
      <AssetSelect assets={assets} value={asset} onChange={setAsset} testId="withdraw-asset" />
      <label className="order-field">
        <span className="label">{t("wallet.addresses.network")}</span>
        <select
          className="native-select"
          value={terms?.network ?? ""}
          onChange={(event) => setNetwork(event.target.value as WithdrawNetwork)}
          data-testid="withdraw-network"
        >
          {networks.map((n) => (
            <option key={n.network} value={n.network}>
              {t(`wallet.addresses.networks.${n.network}`)}
            </option>
          ))}
        </select>
      </label>
      {saved.length === 0 ? (
        <p className="hint" data-testid="withdraw-no-address">
          <Link to="/assets/addresses">{t("wallet.addresses.empty")}</Link>
        </p>
      ) : (
        <label className="order-field">
          <span className="label">{t("wallet.withdraw.address")}</span>
          <select
            className="native-select"
            value={chosen?.addressId ?? ""}
            onChange={(event) => setAddressId(event.target.value)}
            data-testid="withdraw-address"
          >
            {saved.map((a) => (
              <option key={a.addressId} value={a.addressId}>
                {(a.remark ? `${a.remark} · ` : "") + a.address}
              </option>
            ))}
          </select>
        </label>
      )}
      {locked && chosen ? (
        <p className="order-warning" role="note" data-testid="withdraw-locked">
          {t("wallet.withdraw.locked", {
            time: new Date(chosen.usableFromMs).toLocaleString(i18n.language),
          })}
        </p>
      ) : null}
      <WithdrawDraftFields
        draft={draft}
        terms={terms}
        asset={asset}
        available={available}
        availableLabel={t("wallet.withdraw.available")}
        receivedLabel={t("wallet.withdraw.received")}
        ready={chosen !== undefined}
        testPrefix="withdraw"
      />
    </WithdrawFormFrame>
  );
}

function WithdrawalHistory() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const records = useWithdrawals();
  const cancel = async (w: WithdrawalView) => {
    const outcome = await confirmThenRun(t("wallet.withdraw.cancelConfirm"), () =>
      cancelWithdrawal(w.withdrawalId),
    );
    if (outcome !== "dismissed") void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  };
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language);
  return (
    <>
      <h2>{t("wallet.withdraw.records")}</h2>
      <ListStates query={records} />
      <ul className="account-list">
        {records.data?.items.map((w) => (
          <li key={w.withdrawalId} className="order-card" data-testid="withdrawal-record">
            <div className="order-card-head">
              <strong data-testid="withdrawal-status">
                {w.network === "bank" && w.status === "sent"
                  ? t("wallet.withdraw.paid")
                  : t(`wallet.withdraw.states.${w.status}`)}
              </strong>
              <span className="change down">
                -<Amount value={w.total} /> {w.asset}
              </span>
            </div>
            <code className="hash">{w.address}</code>
            <dl>
              <dt>
                {w.network === "bank"
                  ? t("wallet.withdraw.receivedCard")
                  : t("wallet.withdraw.received")}
              </dt>
              <dd>
                <Amount value={w.amount} /> {w.asset}
              </dd>
              <dt>{t("wallet.withdraw.fee")}</dt>
              <dd>
                <Amount value={w.fee} /> {w.asset}
              </dd>
              {w.txHash ? (
                <>
                  <dt>
                    {w.network === "bank"
                      ? t("wallet.withdraw.bankReference")
                      : t("wallet.withdraw.txHash")}
                  </dt>
                  <dd>
                    <code className="hash">{w.txHash}</code>
                  </dd>
                </>
              ) : null}
              {w.rejectReason ? (
                <>
                  <dt>{t("wallet.withdraw.reason")}</dt>
                  <dd>{w.rejectReason}</dd>
                </>
              ) : null}
            </dl>
            <ol className="hint" data-testid="withdrawal-steps">
              {w.steps.map((s, i) => (
                <li key={i}>
                  {w.network === "bank" && s.status === "sent"
                    ? t("wallet.withdraw.paid")
                    : t(`wallet.withdraw.states.${s.status}`)}{" "}
                  · {time(s.atMs)}
                  {s.operatorId ? ` · ${t("wallet.withdraw.operator")} ${s.operatorId}` : ""}
                </li>
              ))}
            </ol>
            {w.status === "pending" || w.status === "approved" ? (
              <Button size="mini" onClick={() => void cancel(w)} data-testid="withdrawal-cancel">
                {t("wallet.withdraw.cancel")}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {records.isSuccess && records.data.items.length > 0 ? <EndOfList /> : null}
    </>
  );
}
