import { bcp47ByLocale, type Locale } from "@candor/contract/locales";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { readDecimal } from "./decimal-text.ts";
import { formatAmount, type FormatAmountOptions } from "./format-amount.ts";
import { toEpochMs } from "./timestamp.ts";

/**
 * The one formatting layer for people: prices, amounts, percentages and dates in the current
 * locale. Digits always come from decimal strings (`@candor/decimal` through `format-amount`);
 * `Intl` supplies only grouping, the decimal mark, the percent pattern and date words.
 */
export interface Formatter {
  /** BCP 47 tag of the current locale ("ja" for the app's "jp"). */
  locale: string;
  /** A decimal string as text: "1.234,5" in German; "--" when missing or not a decimal. */
  amount(value: string | undefined, options?: Omit<FormatAmountOptions, "locale">): string;
  /** A decimal string at exactly `decimals` decimals (prices and sizes of one market). */
  fixed(value: string | undefined, decimals: number): string;
  /** A percentage given as a decimal string of percent ("1.25" → "+1.25%", "1,25 %" in German). */
  percent(value: string | undefined, options?: { signed?: boolean; decimals?: number }): string;
  /** Date and time, e.g. "26 Nov 2026, 17:40" (ms or seconds since the epoch). */
  dateTime(value: number | string): string;
  /** Date only, e.g. "26 Nov 2026". */
  date(value: number | string): string;
  /** Time of day, 24 h, e.g. "17:40:05". */
  time(value: number | string): string;
  /** "5 minutes ago", "yesterday"; the date itself when older than a week. */
  relative(value: number | string, nowMs: number): string;
}

const cache = new Map<string, Formatter>();

/** The formatter of a BCP 47 locale (cached: `Intl` objects are costly to build). */
export function formatterFor(locale: string): Formatter {
  const cached = cache.get(locale);
  if (cached) return cached;
  // The percent pattern ("50 %", "%50", "50%") from a sample; 0.5 is exact, no money involved.
  const parts = new Intl.NumberFormat(locale, { style: "percent" }).formatToParts(0.5);
  const numberAt = parts.findIndex((part) => part.type === "integer");
  const prefix = parts
    .slice(0, numberAt)
    .map((part) => part.value)
    .join("");
  const suffix = parts
    .slice(numberAt + 1)
    .map((part) => part.value)
    .join("");
  const dateTimeFormat = new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const timeFormat = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const relativeFormat = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const at = (value: number | string) => toEpochMs(value);
  const formatter: Formatter = {
    locale,
    amount: (value, options) =>
      value === undefined ? "--" : formatAmount(value, { locale, ...options }),
    fixed: (value, decimals) =>
      value === undefined
        ? "--"
        : formatAmount(value, { locale, decimalsMax: decimals, decimalsMin: decimals }),
    percent(value, options = {}) {
      const read = value === undefined ? undefined : readDecimal(value);
      if (value === undefined || !read) return "--";
      const decimals = options.decimals ?? 2;
      const sign = options.signed && read.units > 0n ? "+" : "";
      const text = formatAmount(value, { locale, decimalsMax: decimals, decimalsMin: decimals });
      const negative = text.startsWith("-");
      return `${negative ? "-" : sign}${prefix}${negative ? text.slice(1) : text}${suffix}`;
    },
    dateTime: (value) => {
      const ms = at(value);
      return ms === undefined ? "--" : dateTimeFormat.format(ms);
    },
    date: (value) => {
      const ms = at(value);
      return ms === undefined ? "--" : dateFormat.format(ms);
    },
    time: (value) => {
      const ms = at(value);
      return ms === undefined ? "--" : timeFormat.format(ms);
    },
    relative(value, nowMs) {
      const ms = at(value);
      if (ms === undefined) return "--";
      const seconds = Math.round((ms - nowMs) / 1000);
      const steps: [Intl.RelativeTimeFormatUnit, number][] = [
        ["second", 60],
        ["minute", 60],
        ["hour", 24],
        ["day", 7],
      ];
      let amount = seconds;
      for (const [unit, size] of steps) {
        if (Math.abs(amount) < size) return relativeFormat.format(amount, unit);
        amount = Math.round(amount / size);
      }
      return dateFormat.format(ms);
    },
  };
  cache.set(locale, formatter);
  return formatter;
}

/** The BCP 47 tag of an app locale ("jp" → "ja"), English for anything unknown. */
export function bcp47Of(language: string): string {
  return bcp47ByLocale[language as Locale] ?? "en";
}

/** The formatter of the current language; re-renders when the language changes. */
export function useFormat(): Formatter {
  const { i18n } = useTranslation();
  const locale = bcp47Of(i18n.language);
  return useMemo(() => formatterFor(locale), [locale]);
}
