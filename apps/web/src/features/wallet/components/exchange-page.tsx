import type { ExchangeQuoteView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import {
  acceptQuote,
  requestQuote,
  useExchangePairs,
  useExchangeRecords,
} from "../api/accounts-api.ts";
import { walletKeys } from "../api/wallet-api.ts";
import { AmountInput, AssetSelect } from "./transfer-page.tsx";

/** Whole seconds left until `untilMs` (never negative). */
function useSecondsLeft(untilMs: number | undefined): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (untilMs === undefined) return;
    const timer = setInterval(() => setNowMs(Date.now()), 500);
    return () => clearInterval(timer);
  }, [untilMs]);
  return untilMs === undefined ? 0 : Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

/**
 * Quick exchange (spec Exchange, ExchangeList): a quote at the recorded tape price ± the
 * disclosed spread, citing its tick, against the labelled house account; accepted before its
 * expiry it executes exactly as quoted.
 */
export function ExchangePage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const pairs = useExchangePairs();
  const records = useExchangeRecords();
  const assets = [...new Set((pairs.data?.items ?? []).flatMap((p) => [p.quote, p.base]))];
  const [source, setSource] = useState("USDT");
  const [target, setTarget] = useState("BTC");
  const [amount, setAmount] = useState("");
  const [quote, setQuote] = useState<ExchangeQuoteView | null>(null);
  const secondsLeft = useSecondsLeft(quote?.expiresAtMs);

  const ask = async () => {
    setQuote(null);
    try {
      setQuote(
        await withLoading(
          requestQuote({
            requestId: newIdempotencyKey(),
            sourceAsset: source,
            targetAsset: target,
            sourceAmount: amount,
          }),
        ),
      );
    } catch (error) {
      showError(error);
    }
  };
  const accept = async () => {
    if (!quote) return;
    try {
      await withLoading(acceptQuote(quote.quoteId));
      showSuccess();
      setQuote(null);
      setAmount("");
    } catch (error) {
      showError(error);
    }
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  };

  return (
    <section className="page" aria-labelledby="exchange-title">
      <h1 id="exchange-title">{t("wallet.exchange.title")}</h1>
      {pairs.data ? (
        <p className="hint" data-testid="exchange-disclosure">
          {t("wallet.exchange.disclosure", {
            spread: (pairs.data.spreadBps / 100).toString(),
            seconds: Math.round(pairs.data.quoteTtlMs / 1000),
          })}
        </p>
      ) : null}
      <form
        className="order-form"
        onSubmit={(event) => {
          event.preventDefault();
          void ask();
        }}
      >
        <AssetSelect
          assets={assets}
          value={source}
          onChange={(a) => {
            setSource(a);
            setQuote(null);
          }}
          testId="exchange-source"
          label={t("wallet.exchange.from")}
        />
        <AssetSelect
          assets={assets}
          value={target}
          onChange={(a) => {
            setTarget(a);
            setQuote(null);
          }}
          testId="exchange-target"
          label={t("wallet.exchange.to")}
        />
        <AmountInput
          value={amount}
          onChange={(a) => {
            setAmount(a);
            setQuote(null);
          }}
          testId="exchange-amount"
        />
        <Button block type="submit" data-testid="exchange-quote">
          {t("wallet.exchange.getQuote")}
        </Button>
      </form>
      {quote ? (
        <div className="order-card" data-testid="exchange-quote-card">
          <dl>
            <dt>{t("wallet.exchange.youPay")}</dt>
            <dd>
              <Amount value={quote.sourceAmount} /> {quote.sourceAsset}
            </dd>
            <dt>{t("wallet.exchange.youReceive")}</dt>
            <dd data-testid="exchange-receive">
              <Amount value={quote.targetAmount} decimalsMax={18} /> {quote.targetAsset}
            </dd>
            <dt>{t("wallet.exchange.rate")}</dt>
            <dd>
              1 {quote.sourceAsset} = <Amount value={quote.rate} decimalsMax={18} />{" "}
              {quote.targetAsset}
            </dd>
            <dt>{t("wallet.price")}</dt>
            <dd>
              <Amount value={quote.price} /> ({t("wallet.tick")}{" "}
              <code data-testid="exchange-tick">{quote.tickId}</code>)
            </dd>
            <dt>{t("wallet.exchange.spread")}</dt>
            <dd>{(quote.spreadBps / 100).toString()} %</dd>
            <dt>{t("wallet.exchange.counterparty")}</dt>
            <dd>{quote.counterparty}</dd>
            <dt>{t("wallet.exchange.expiresIn")}</dt>
            <dd data-testid="exchange-expiry">
              {secondsLeft > 0
                ? t("wallet.exchange.seconds", { count: secondsLeft })
                : t("wallet.exchange.expired")}
            </dd>
          </dl>
          <Button
            block
            color="primary"
            onClick={() => void accept()}
            disabled={secondsLeft === 0}
            data-testid="exchange-accept"
          >
            {t("wallet.exchange.accept")}
          </Button>
        </div>
      ) : null}
      <h2>{t("wallet.exchange.records")}</h2>
      {records.isPending ? <LoadingState /> : null}
      {records.isError ? (
        <ErrorState message={records.error.message} onRetry={() => void records.refetch()} />
      ) : null}
      {records.isSuccess && records.data.items.length === 0 ? <EmptyState /> : null}
      <ul className="account-list">
        {records.data?.items.map((r) => (
          <li key={r.quoteId} className="order-card" data-testid="exchange-record">
            <div className="order-card-head">
              <span>
                -<Amount value={r.sourceAmount} /> {r.sourceAsset}
              </span>
              <span className="change up">
                +<Amount value={r.targetAmount} decimalsMax={18} /> {r.targetAsset}
              </span>
            </div>
            <dl>
              <dt>{t("wallet.exchange.rate")}</dt>
              <dd>
                <Amount value={r.rate} decimalsMax={18} />
              </dd>
              <dt>{t("wallet.tick")}</dt>
              <dd>
                <code>{r.tickId}</code>
              </dd>
              <dt>{t("coinCoin.order.time")}</dt>
              <dd>{new Date(r.executedAtMs).toLocaleString(i18n.language)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
