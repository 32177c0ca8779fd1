import type { CandleInterval, CandleView } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { Selector } from "antd-mobile";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import { marketDataKeys } from "../api/market-data-api.ts";
import { fetchCandles } from "../api/pair-api.ts";

// The chart library is ~56 KB gzip: its own chunk, loaded only when the chart shows.
const PriceChart = lazy(() => import("./price-chart.tsx"));

const intervals: readonly CandleInterval[] = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"];

/** Candles of the pair with an interval picker; history by REST, the open bar by socket. */
export function ChartPanel({
  instrumentId,
  symbol,
  priceScale,
  initialInterval = "15m",
}: {
  instrumentId: string;
  symbol: string;
  /** Decimals of the pair's prices, for the price scale's labels. */
  priceScale: number;
  /** The interval shown first (default 15 minutes; seconds contracts start at 1 minute). */
  initialInterval?: CandleInterval;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [interval, setCandleInterval] = useState<CandleInterval>(initialInterval);
  const history = useQuery({
    queryKey: marketDataKeys.candles(instrumentId, interval),
    queryFn: () => fetchCandles(instrumentId, interval),
  });
  const [live, setLive] = useState<CandleView | undefined>();
  useEffect(() => {
    setLive(undefined);
    return marketSocket().subscribe({ channel: "candles", instrumentId, interval }, (message) => {
      if (message.type === "candle") setLive(message.data);
    });
  }, [instrumentId, interval]);

  return (
    <div className="chart-panel">
      {/* One row that scrolls sideways when the labels are long; focusable for keyboards. */}
      <div className="interval-scroll" tabIndex={0}>
        <Selector<CandleInterval>
          className="interval-selector"
          showCheckMark={false}
          aria-label={t("coinCoin.chart.interval")}
          columns={7}
          value={[interval]}
          onChange={(value) => value[0] && setCandleInterval(value[0])}
          options={intervals.map((value) => ({
            label: t(`coinCoin.chart.intervals.${value}`),
            value,
          }))}
        />
      </div>
      {history.isPending ? <LoadingState /> : null}
      {history.isError ? (
        <ErrorState message={history.error.message} onRetry={() => void history.refetch()} />
      ) : null}
      {history.isSuccess ? (
        <Suspense fallback={<LoadingState />}>
          <PriceChart
            candles={history.data.candles}
            live={live}
            interval={interval}
            format={format}
            priceScale={priceScale}
            label={t("coinCoin.chart.label", { symbol })}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
