import { Button } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { ListStates } from "../../../components/ui/states.tsx";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import {
  acceptQuote,
  requestQuote,
  useExchangePairs,
  useExchangeRecords,
} from "../api/accounts-api.ts";
import { QuoteCard, useQuote } from "./quote-card.tsx";
import { AmountInput, AssetSelect } from "./transfer-page.tsx";

/**
 * Quick exchange (spec Exchange, ExchangeList): a quote at the recorded tape price ± the
 * disclosed spread, citing its tick, against the labelled house account; accepted before its
 * expiry it executes exactly as quoted.
 */
export function ExchangePage() {
  const { t, i18n } = useTranslation();
  const pairs = useExchangePairs();
  const records = useExchangeRecords();
  const assets = [...new Set((pairs.data?.items ?? []).flatMap((p) => [p.quote, p.base]))];
  const [source, setSource] = useState("USDT");
  const [target, setTarget] = useState("BTC");
  const [amount, setAmount] = useState("");
  const quote = useQuote(acceptQuote, () => setAmount(""));

  const ask = () =>
    quote.ask(() =>
      requestQuote({
        requestId: newIdempotencyKey(),
        sourceAsset: source,
        targetAsset: target,
        sourceAmount: amount,
      }),
    );

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
            quote.clear();
          }}
          testId="exchange-source"
          label={t("wallet.exchange.from")}
        />
        <AssetSelect
          assets={assets}
          value={target}
          onChange={(a) => {
            setTarget(a);
            quote.clear();
          }}
          testId="exchange-target"
          label={t("wallet.exchange.to")}
        />
        <AmountInput
          value={amount}
          onChange={(a) => {
            setAmount(a);
            quote.clear();
          }}
          testId="exchange-amount"
        />
        <Button block type="submit" data-testid="exchange-quote">
          {t("wallet.exchange.getQuote")}
        </Button>
      </form>
      <QuoteCard
        state={quote}
        testPrefix="exchange"
        showRate
        acceptLabel={t("wallet.exchange.accept")}
      />
      <h2>{t("wallet.exchange.records")}</h2>
      <ListStates query={records} />
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
