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
  /** Best bid and best ask of the book in the session's mode, decimal strings, when known. */
  bestBid: string | undefined;
  bestAsk: string | undefined;
}

/** What trades on the pair, from other features; `src/app` puts them together. */
export interface TradingSlots {
  /** The order form: beside the book, above the fold (issue 18). */
  trading: (props: TradingSlotProps) => ReactNode;
  /** Funds and the user's orders, under the chart and the full book. */
  below: (props: TradingSlotProps) => ReactNode;
}

/**
 * The Coin-Coin (spot) screen laid out like the big mobile exchanges: pair header with the
 * price and 24 h figures; the order form and a compact order book side by side above the fold;
 * the chart in a collapsible panel; the full book and recent trades; then funds and orders.
 */
export function PairMarketPage({ trading, below }: TradingSlots) {
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
        below={below}
      />
    </section>
  );
}

function PairMarket({
  pair,
  onOpenPicker,
  trading,
  below,
}: TradingSlots & {
  pair: InstrumentView;
  onOpenPicker: () => void;
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
  const [chartOpen, setChartOpen] = useState(false);
  const [groupStep, setGroupStep] = useState(pair.tickSize);
  const [pickedPrice, setPickedPrice] = useState<TradingSlotProps["pickedPrice"]>();
  const marketOpen = ticker?.marketOpen ?? status.data?.open;
  const slot: TradingSlotProps = {
    pair,
    lastPrice: ticker?.last,
    marketOpen,
    pickedPrice,
    bestBid: book?.bids[0]?.[0],
    bestAsk: book?.asks[0]?.[0],
  };
  const pick = (price: string) => setPickedPrice({ price, at: Date.now() });

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
      <div className="trade-grid">
        <div className="trade-grid-form">{trading(slot)}</div>
        <section className="trade-grid-book" aria-labelledby="book-title">
          <h2 id="book-title" className="visually-hidden">
            {t("coinCoin.book.title")}
          </h2>
          <OrderBook
            variant="compact"
            book={book}
            tickSize={pair.tickSize}
            quantityScale={pair.quantityScale}
            lastPrice={ticker?.last}
            onPick={pick}
            groupStep={groupStep}
            onGroupStep={setGroupStep}
          />
        </section>
      </div>
      <section className="spot-card" aria-labelledby="chart-title">
        <button
          type="button"
          className="chart-toggle"
          aria-expanded={chartOpen}
          aria-controls="chart-panel"
          onClick={() => setChartOpen((open) => !open)}
          data-testid="chart-toggle"
        >
          <span id="chart-title">{t("coinCoin.chart.title")}</span>
          <DownOutline aria-hidden="true" className={chartOpen ? "flip" : undefined} />
        </button>
        {chartOpen ? (
          <div id="chart-panel">
            <ChartPanel instrumentId={pair.id} symbol={pair.symbol} priceScale={pair.priceScale} />
          </div>
        ) : null}
      </section>
      <section className="spot-card" aria-label={t("coinCoin.book.title")}>
        <Tabs activeKey={tab} onChange={setTab}>
          <Tabs.Tab key="book" title={t("coinCoin.book.title")}>
            <OrderBook
              variant="full"
              book={book}
              tickSize={pair.tickSize}
              quantityScale={pair.quantityScale}
              lastPrice={ticker?.last}
              onPick={pick}
              groupStep={groupStep}
              onGroupStep={setGroupStep}
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
      {below(slot)}
    </>
  );
}
