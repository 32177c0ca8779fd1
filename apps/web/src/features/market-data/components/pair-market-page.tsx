import type { InstrumentView } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { NoticeBar, Tabs, Tag } from "antd-mobile";
import { DownOutline } from "antd-mobile-icons";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Amount, ChangePercent } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { isDemo, useSession } from "../../../lib/session.ts";
import { fetchSpotPairs, marketDataKeys } from "../api/market-data-api.ts";
import { fetchMarketStatus } from "../api/pair-api.ts";
import { useDepth, useRecentTrades, useSocketState, useTicker } from "../api/use-market-data.ts";
import { ChartPanel } from "./chart-panel.tsx";
import { OrderBook } from "./order-book.tsx";
import { PairPicker } from "./pair-picker.tsx";
import { RecentTrades } from "./recent-trades.tsx";

/** The pair shown when the link names none. */
export const defaultPairId = "BTCUSDT";

/** What the trading part of the screen (composed in by `src/app`) receives from the market part. */
export interface TradingSlotProps {
  pair: InstrumentView;
  /** The last traded price, a decimal string, when known. */
  lastPrice: string | undefined;
  marketOpen: boolean | undefined;
  /** A price tapped in the order book, with a counter so tapping the same price again counts. */
  pickedPrice: { price: string; at: number } | undefined;
}

/**
 * The market part of the Coin-Coin (spot) screen: pair picker, ticker, chart, order book and
 * recent trades from the market API and socket. `trading` renders what trades on the pair (the
 * order form and the user's orders, from another feature) under them; `src/app` puts them
 * together.
 */
export function PairMarketPage({ trading }: { trading: (props: TradingSlotProps) => ReactNode }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [picking, setPicking] = useState(false);
  const pairs = useQuery({ queryKey: marketDataKeys.spotPairs(), queryFn: fetchSpotPairs });

  if (pairs.isPending) return <LoadingState />;
  if (pairs.isError) {
    return <ErrorState message={pairs.error.message} onRetry={() => void pairs.refetch()} />;
  }
  const wanted = searchParams.get("pair") ?? defaultPairId;
  const pair = pairs.data.find((p) => p.id === wanted) ?? pairs.data[0];
  if (!pair) return <ErrorState message={t("coinCoin.pair.none")} />;

  return (
    <section className="page spot-page" aria-labelledby="coin-coin-title">
      <h1 id="coin-coin-title" className="visually-hidden">
        {t("coinCoin.title")}
      </h1>
      <PairPicker
        pairs={pairs.data}
        visible={picking}
        onClose={() => setPicking(false)}
        onPick={(id) => setSearchParams({ pair: id }, { replace: true })}
      />
      <PairMarket
        key={pair.id}
        pair={pair}
        onOpenPicker={() => setPicking(true)}
        trading={trading}
      />
    </section>
  );
}

function PairMarket({
  pair,
  onOpenPicker,
  trading,
}: {
  pair: InstrumentView;
  onOpenPicker: () => void;
  trading: (props: TradingSlotProps) => ReactNode;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const mode = isDemo(session) ? "demo" : "real";
  const { ticker } = useTicker(pair.id);
  const status = useQuery({
    queryKey: marketDataKeys.status(pair.id),
    queryFn: () => fetchMarketStatus(pair.id),
    refetchInterval: 60_000,
  });
  const book = useDepth(pair.id, mode);
  const trades = useRecentTrades(pair.id);
  const socketState = useSocketState();
  const [tab, setTab] = useState("book");
  const [pickedPrice, setPickedPrice] = useState<TradingSlotProps["pickedPrice"]>();
  const marketOpen = ticker?.marketOpen ?? status.data?.open;

  return (
    <>
      <div className="spot-header">
        <button
          type="button"
          className="pair-button"
          onClick={onOpenPicker}
          aria-haspopup="dialog"
          aria-label={t("coinCoin.pair.change", { symbol: pair.symbol })}
          data-testid="pair-button"
        >
          <span className="pair-symbol" data-testid="pair-symbol">
            {pair.symbol}
          </span>
          <DownOutline aria-hidden="true" />
        </button>
        {mode === "demo" ? (
          <Tag color="warning" data-testid="spot-demo-mode">
            {t("coinCoin.demoBooks")}
          </Tag>
        ) : null}
        <span className={`socket-state ${socketState}`} data-testid="socket-state">
          {t(`coinCoin.socket.${socketState}`)}
        </span>
      </div>
      <div className="spot-ticker" data-testid="spot-ticker">
        <span className="spot-last" data-testid="last-price">
          <Amount value={ticker?.last} decimalsMax={pair.priceScale} />
        </span>
        <ChangePercent value={ticker?.changePercent24h} />
        <dl className="spot-stats">
          <div>
            <dt>{t("coinCoin.ticker.high")}</dt>
            <dd>
              <Amount value={ticker?.high24h} decimalsMax={pair.priceScale} />
            </dd>
          </div>
          <div>
            <dt>{t("coinCoin.ticker.low")}</dt>
            <dd>
              <Amount value={ticker?.low24h} decimalsMax={pair.priceScale} />
            </dd>
          </div>
          <div>
            <dt>{t("coinCoin.ticker.volume")}</dt>
            <dd>
              <Amount value={ticker?.volume24h} decimalsMax={2} />
            </dd>
          </div>
        </dl>
      </div>
      {pair.source === "simulated" ? (
        <p className="hint" data-testid="simulated-label">
          {t("markets.simulated")}
        </p>
      ) : null}
      {marketOpen === false ? (
        <NoticeBar
          color="alert"
          wrap
          data-testid="market-closed"
          content={
            <span>
              {t("coinCoin.closed")}
              {status.data && status.data.openAlternatives.length > 0
                ? ` ${t("coinCoin.closedAlternatives", {
                    list: status.data.openAlternatives.slice(0, 5).join(", "),
                  })}`
                : ""}
            </span>
          }
        />
      ) : null}
      <ChartPanel instrumentId={pair.id} symbol={pair.symbol} />
      <section className="spot-card" aria-labelledby="book-title">
        <h2 id="book-title" className="visually-hidden">
          {t("coinCoin.book.title")}
        </h2>
        <Tabs activeKey={tab} onChange={setTab}>
          <Tabs.Tab key="book" title={t("coinCoin.book.title")}>
            <OrderBook
              book={book}
              priceScale={pair.priceScale}
              lastPrice={ticker?.last}
              onPick={(price) => setPickedPrice({ price, at: Date.now() })}
            />
          </Tabs.Tab>
          <Tabs.Tab key="trades" title={t("coinCoin.trades.title")}>
            <RecentTrades
              trades={trades.trades}
              isPending={trades.isPending}
              error={trades.error}
              priceScale={pair.priceScale}
            />
          </Tabs.Tab>
        </Tabs>
      </section>
      {trading({ pair, lastPrice: ticker?.last, marketOpen, pickedPrice })}
    </>
  );
}
