import type { ExchangeQuoteView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { acceptBuyQuote, requestBuyQuote, useBuyOptions } from "../api/accounts-api.ts";
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
 * Buy (spec index/buy): crypto for the fiat wallet's balance, the newcomer's path after a bank
 * deposit. A quote at the tape price ± the disclosed spread, citing its tick, against the
 * labelled house, with an expiry; accepted in time it executes exactly as quoted.
 */
export function BuyPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const options = useBuyOptions();
  const [asset, setAsset] = useState("BTC");
  const [amount, setAmount] = useState("");
  const [quote, setQuote] = useState<ExchangeQuoteView | null>(null);
  const secondsLeft = useSecondsLeft(quote?.expiresAtMs);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: walletKeys.all });

  const ask = async () => {
    setQuote(null);
    try {
      setQuote(
        await withLoading(requestBuyQuote({ requestId: newIdempotencyKey(), asset, amount })),
      );
    } catch (error) {
      showError(error);
    }
    refresh();
  };
  const accept = async () => {
    if (!quote) return;
    try {
      await withLoading(acceptBuyQuote(quote.quoteId));
      showSuccess();
      setQuote(null);
      setAmount("");
    } catch (error) {
      showError(error);
    }
    refresh();
  };

  if (options.isPending) return <LoadingState />;
  if (options.isError) {
    return <ErrorState message={options.error.message} onRetry={() => void options.refetch()} />;
  }
  const data = options.data;
  const priced = data.items.filter((i) => i.price !== null);
  const chosen = priced.find((i) => i.asset === asset) ?? priced[0];
  return (
    <section className="page" aria-labelledby="buy-title">
      <h1 id="buy-title">{t("wallet.buy.title")}</h1>
      <p className="hint" data-testid="buy-disclosure">
        {t("wallet.buy.disclosure", {
          asset: data.payAsset,
          spread: (data.spreadBps / 100).toString(),
          seconds: Math.round(data.quoteTtlMs / 1000),
        })}
      </p>
      <p data-testid="buy-available">
        {t("wallet.buy.available")}: <Amount value={data.available} /> {data.payAsset}
      </p>
      <div className="link-row">
        <Link to="/assets/bank-deposit" data-testid="buy-deposit-link">
          {t("wallet.bankDeposit.title")}
        </Link>
        <Link to="/assets/transfer" data-testid="buy-transfer-link">
          {t("wallet.transfer.title")}
        </Link>
      </div>
      <form
        className="order-form"
        onSubmit={(event) => {
          event.preventDefault();
          void ask();
        }}
      >
        <AssetSelect
          assets={priced.map((i) => i.asset)}
          value={chosen?.asset ?? ""}
          onChange={(a) => {
            setAsset(a);
            setQuote(null);
          }}
          testId="buy-asset"
          label={t("wallet.buy.asset")}
        />
        {chosen?.price ? (
          <p className="hint">
            {t("wallet.price")}: <Amount value={chosen.price} /> {data.payAsset} ({t("wallet.tick")}{" "}
            <code>{chosen.tickId}</code>)
          </p>
        ) : null}
        <AmountInput
          value={amount}
          onChange={(a) => {
            setAmount(a);
            setQuote(null);
          }}
          testId="buy-amount"
          label={t("wallet.buy.spend", { asset: data.payAsset })}
        />
        <Button block type="submit" disabled={!chosen || amount === ""} data-testid="buy-quote">
          {t("wallet.exchange.getQuote")}
        </Button>
      </form>
      {quote ? (
        <div className="order-card" data-testid="buy-quote-card">
          <dl>
            <dt>{t("wallet.exchange.youPay")}</dt>
            <dd>
              <Amount value={quote.sourceAmount} /> {quote.sourceAsset}
            </dd>
            <dt>{t("wallet.exchange.youReceive")}</dt>
            <dd data-testid="buy-receive">
              <Amount value={quote.targetAmount} decimalsMax={18} /> {quote.targetAsset}
            </dd>
            <dt>{t("wallet.price")}</dt>
            <dd>
              <Amount value={quote.price} /> ({t("wallet.tick")}{" "}
              <code data-testid="buy-tick">{quote.tickId}</code>)
            </dd>
            <dt>{t("wallet.exchange.spread")}</dt>
            <dd>{(quote.spreadBps / 100).toString()} %</dd>
            <dt>{t("wallet.exchange.counterparty")}</dt>
            <dd>{quote.counterparty}</dd>
            <dt>{t("wallet.exchange.expiresIn")}</dt>
            <dd data-testid="buy-expiry">
              {secondsLeft > 0
                ? t("wallet.exchange.seconds", { count: secondsLeft })
                : t("wallet.exchange.expired")}
            </dd>
          </dl>
          <p className="hint">{t("wallet.buy.paymentNote")}</p>
          <Button
            block
            color="primary"
            onClick={() => void accept()}
            disabled={secondsLeft === 0}
            data-testid="buy-accept"
          >
            {t("wallet.buy.accept")}
          </Button>
        </div>
      ) : null}
      <Link to="/assets/exchange">{t("wallet.buy.history")}</Link>
    </section>
  );
}
