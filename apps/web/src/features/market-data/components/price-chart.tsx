import type { CandleInterval, CandleView } from "@candor/contract";
import {
  CandlestickSeries,
  ColorType,
  createChart,
  TickMarkType,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef } from "react";
import type { Formatter } from "../../../lib/format.ts";

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

/** Axis labels by locale: the time of day within a day, else day and month, month or year. */
function tickLabel(time: Time, type: TickMarkType, locale: string): string {
  if (typeof time !== "number") return String(time);
  const options: Intl.DateTimeFormatOptions =
    type === TickMarkType.Year
      ? { year: "numeric" }
      : type === TickMarkType.Month
        ? { month: "short" }
        : type === TickMarkType.DayOfMonth
          ? { day: "numeric", month: "short" }
          : { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  // Local time, as the crosshair label and every other date in the app.
  return new Intl.DateTimeFormat(locale, options).format(time * 1000);
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
  format,
  priceScale,
}: {
  candles: readonly CandleView[];
  live: CandleView | undefined;
  interval: CandleInterval;
  label: string;
  /** The app's formatting layer in the current locale, for the scales' labels. */
  format: Formatter;
  /** Decimals of the pair's prices. */
  priceScale: number;
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
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) => tickLabel(time, type, format.locale),
      },
      localization: {
        locale: format.locale,
        // The label digits come from a decimal string (the scale's number written at the pair's
        // decimals), formatted by the app's one layer: "98.000,00" on a German page.
        priceFormatter: (price: number) => format.fixed(price.toFixed(priceScale), priceScale),
        timeFormatter: (time: Time) =>
          typeof time === "number" ? format.dateTime(time * 1000) : String(time),
      },
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
  }, [format, priceScale]);

  useEffect(() => {
    const bars = candles.map(toBar);
    series.current?.setData(bars);
    lastTime.current = bars.at(-1)?.time ?? 0;
    chart.current?.timeScale().fitContent();
    // The chart is made again when the locale changes: give it the bars again.
  }, [candles, interval, format, priceScale]);

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
