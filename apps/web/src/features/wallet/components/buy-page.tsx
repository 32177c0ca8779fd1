import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { acceptBuyQuote, requestBuyQuote, useBuyOptions } from "../api/accounts-api.ts";
import { walletKeys } from "../api/wallet-api.ts";
import { QuoteCard, useQuote } from "./quote-card.tsx";
import { AmountInput, AssetSelect } from "./transfer-page.tsx";

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
  const refresh = () => void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  const quote = useQuote(acceptBuyQuote, () => setAmount(""));

  const ask = async () => {
    await quote.ask(() => requestBuyQuote({ requestId: newIdempotencyKey(), asset, amount }));
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
            quote.clear();
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
            quote.clear();
          }}
          testId="buy-amount"
          label={t("wallet.buy.spend", { asset: data.payAsset })}
        />
        <Button block type="submit" disabled={!chosen || amount === ""} data-testid="buy-quote">
          {t("wallet.exchange.getQuote")}
        </Button>
      </form>
      <QuoteCard
        state={quote}
        testPrefix="buy"
        note={<p className="hint">{t("wallet.buy.paymentNote")}</p>}
        acceptLabel={t("wallet.buy.accept")}
      />
      <Link to="/assets/exchange">{t("wallet.buy.history")}</Link>
    </section>
  );
}
