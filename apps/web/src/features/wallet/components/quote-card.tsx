import type { ExchangeQuoteView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { walletKeys } from "../api/wallet-api.ts";

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

/** A quote being asked for and accepted (Buy and quick exchange): the quote and its countdown. */
export interface QuoteState {
  quote: ExchangeQuoteView | null;
  secondsLeft: number;
  /** Drops the quote (the form changed, so it no longer answers what is asked). */
  clear: () => void;
  /** Asks for a new quote; an error is shown and leaves no quote. */
  ask: (request: () => Promise<ExchangeQuoteView>) => Promise<void>;
  /** Accepts the quote; on success `onAccepted` runs. The wallet is refetched either way. */
  accept: () => Promise<void>;
}

/**
 * The one quote flow of Buy and quick exchange: ask, count down to the expiry, accept in time
 * (`acceptQuote` is the product's accept endpoint), and refetch the wallet after accepting.
 */
export function useQuote(
  acceptQuote: (quoteId: string) => Promise<unknown>,
  onAccepted: () => void,
): QuoteState {
  const queryClient = useQueryClient();
  const [quote, setQuote] = useState<ExchangeQuoteView | null>(null);
  const secondsLeft = useSecondsLeft(quote?.expiresAtMs);
  const ask = async (request: () => Promise<ExchangeQuoteView>) => {
    setQuote(null);
    try {
      setQuote(await withLoading(request()));
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
      onAccepted();
    } catch (error) {
      showError(error);
    }
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  };
  return { quote, secondsLeft, clear: () => setQuote(null), ask, accept };
}

/**
 * A quote as the user accepts it: what is paid and received, the rate (where `showRate`), the
 * tape price and the tick it cites, the spread, the labelled counterparty and the time left.
 * Test ids are `${testPrefix}-quote-card`, `-receive`, `-tick`, `-expiry` and `-accept`.
 */
export function QuoteCard({
  state,
  testPrefix,
  showRate = false,
  note,
  acceptLabel,
}: {
  state: QuoteState;
  testPrefix: string;
  showRate?: boolean;
  note?: ReactNode;
  acceptLabel: string;
}) {
  const { t } = useTranslation();
  const { quote, secondsLeft } = state;
  if (!quote) return null;
  return (
    <div className="order-card" data-testid={`${testPrefix}-quote-card`}>
      <dl>
        <dt>{t("wallet.exchange.youPay")}</dt>
        <dd>
          <Amount value={quote.sourceAmount} /> {quote.sourceAsset}
        </dd>
        <dt>{t("wallet.exchange.youReceive")}</dt>
        <dd data-testid={`${testPrefix}-receive`}>
          <Amount value={quote.targetAmount} decimalsMax={18} /> {quote.targetAsset}
        </dd>
        {showRate ? (
          <>
            <dt>{t("wallet.exchange.rate")}</dt>
            <dd>
              1 {quote.sourceAsset} = <Amount value={quote.rate} decimalsMax={18} />{" "}
              {quote.targetAsset}
            </dd>
          </>
        ) : null}
        <dt>{t("wallet.price")}</dt>
        <dd>
          <Amount value={quote.price} /> ({t("wallet.tick")}{" "}
          <code data-testid={`${testPrefix}-tick`}>{quote.tickId}</code>)
        </dd>
        <dt>{t("wallet.exchange.spread")}</dt>
        <dd>{(quote.spreadBps / 100).toString()} %</dd>
        <dt>{t("wallet.exchange.counterparty")}</dt>
        <dd>{quote.counterparty}</dd>
        <dt>{t("wallet.exchange.expiresIn")}</dt>
        <dd data-testid={`${testPrefix}-expiry`}>
          {secondsLeft > 0
            ? t("wallet.exchange.seconds", { count: secondsLeft })
            : t("wallet.exchange.expired")}
        </dd>
      </dl>
      {note}
      <Button
        block
        color="primary"
        onClick={() => void state.accept()}
        disabled={secondsLeft === 0}
        data-testid={`${testPrefix}-accept`}
      >
        {acceptLabel}
      </Button>
    </div>
  );
}
