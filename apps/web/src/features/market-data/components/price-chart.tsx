import type { CandleInterval, CandleView } from "@candor/contract";
import {
  CandlestickSeries,
  ColorType,
  createChart,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef } from "react";

/**
 * One candle as the chart library wants it. The library draws with numbers, so prices become
 * numbers here and only here, for placing pixels; nothing computed from them is shown as an
 * amount (the ticker, book and form keep the decimal strings).
 */
function toBar(candle: CandleView): CandlestickData<UTCTimestamp> {
  return {
    time: Math.floor(candle.openMs / 1000) as UTCTimestamp,
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
  };
}

function readColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/**
 * The candlestick chart (lightweight-charts, loaded in its own chunk). `candles` is the REST
 * history; `live` is the latest bar from the socket, which updates or appends.
 */
export default function PriceChart({
  candles,
  live,
  interval,
  label,
}: {
  candles: readonly CandleView[];
  live: CandleView | undefined;
  interval: CandleInterval;
  label: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<"Candlestick"> | null>(null);
  const lastTime = useRef(0);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: "transparent" },
        textColor: readColour("--adm-color-text", "#333333"),
        attributionLogo: true,
      },
      grid: {
        vertLines: { color: readColour("--adm-color-border", "#eeeeee") },
        horzLines: { color: readColour("--adm-color-border", "#eeeeee") },
      },
      timeScale: { timeVisible: true, secondsVisible: false },
    });
    const up = readColour("--candor-up", "#0a7d38");
    const down = readColour("--candor-down", "#c4161c");
    series.current = created.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      wickUpColor: up,
      wickDownColor: down,
      borderVisible: false,
    });
    chart.current = created;
    return () => {
      created.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    const bars = candles.map(toBar);
    series.current?.setData(bars);
    lastTime.current = bars.at(-1)?.time ?? 0;
    chart.current?.timeScale().fitContent();
  }, [candles, interval]);

  useEffect(() => {
    if (!live || !series.current) return;
    const bar = toBar(live);
    // The library refuses bars older than its last one; a late frame is simply skipped.
    if (bar.time < lastTime.current) return;
    series.current.update(bar);
    lastTime.current = bar.time;
  }, [live]);

  return (
    <div
      className="price-chart"
      ref={container}
      role="figure"
      aria-label={label}
      data-testid="price-chart"
    />
  );
}
