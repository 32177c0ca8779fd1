import { formatDecimal, pow10 } from "@candor/decimal";
import { readDecimal } from "./decimal-text.ts";

/**
 * Turns decimal strings from the API into text for people: the locale's grouping and decimal
 * mark, truncation toward zero, trailing zeros trimmed. The value is read and written by the
 * codec (`@candor/decimal`, through `decimal-text.ts`) and never passes through a JavaScript
 * number: only the grouping of the integer part goes through `Intl`, on a bigint.
 */

/** Most decimals shown by default (spec §5). */
export const amountDecimalsMaxDefault = 8;

/** Options for `formatAmount`. */
export interface FormatAmountOptions {
  /** BCP 47 tag for grouping and the decimal mark, e.g. "de" gives 1.234,5. */
  locale: string;
  /** Most fraction digits shown; extra digits are truncated toward zero. Default 8. */
  decimalsMax?: number;
  /** Fewest fraction digits shown; trailing zeros are trimmed down to this. Default 0. */
  decimalsMin?: number;
  /** Shown instead when the value is not a decimal string. Default "--". */
  invalid?: string;
}

const separatorCache = new Map<string, { decimal: string }>();

function separatorsFor(locale: string) {
  let cached = separatorCache.get(locale);
  if (!cached) {
    // Read the decimal mark from a formatted sample; 1.5 is exact in binary, no money involved.
    const parts = new Intl.NumberFormat(locale).formatToParts(1.5);
    cached = { decimal: parts.find((part) => part.type === "decimal")?.value ?? "." };
    separatorCache.set(locale, cached);
  }
  return cached;
}

/**
 * Formats a decimal string such as "12345.678901234" for display: truncates toward zero to
 * `decimalsMax` decimals (so a shown balance is never more than what is there), trims trailing
 * zeros to `decimalsMin`, and groups the integer part the way the locale does.
 */
export function formatAmount(value: string, options: FormatAmountOptions): string {
  const parsed = readDecimal(value);
  if (!parsed) return options.invalid ?? "--";
  const decimalsMax = Math.max(0, options.decimalsMax ?? amountDecimalsMaxDefault);
  const decimalsMin = Math.min(options.decimalsMin ?? 0, decimalsMax);
  let { units, scale } = parsed;
  if (scale > decimalsMax) {
    // Bigint division truncates toward zero: "-0.000000001" at 8 decimals is 0, with no sign.
    units /= pow10(scale - decimalsMax);
    scale = decimalsMax;
  }
  const [integer = "0", fractionCanonical = ""] = formatDecimal(
    units < 0n ? -units : units,
    scale,
  ).split(".");
  const fraction = fractionCanonical.padEnd(decimalsMin, "0");
  const grouped = new Intl.NumberFormat(options.locale, { useGrouping: true }).format(
    BigInt(integer),
  );
  const sign = units < 0n ? "-" : "";
  return fraction
    ? `${sign}${grouped}${separatorsFor(options.locale).decimal}${fraction}`
    : `${sign}${grouped}`;
}
