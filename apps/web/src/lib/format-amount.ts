/**
 * Turns decimal strings from the API into text for people. Amounts never pass through a
 * JavaScript number: the integer part is a bigint and the fraction stays a string of digits.
 */

/** Most decimals shown by default (spec §5). */
export const amountDecimalsMaxDefault = 8;

const decimalPattern = /^([+-])?(\d+)(?:\.(\d*))?$/;

/** A decimal string split into sign, integer digits and fraction digits. */
export interface DecimalParts {
  negative: boolean;
  /** Integer digits without leading zeros ("0" for zero). */
  integer: string;
  /** Fraction digits, possibly empty. */
  fraction: string;
}

/** Parses "-1234.5600" into its parts; returns undefined for anything that is not a decimal. */
export function parseDecimal(value: string): DecimalParts | undefined {
  const match = decimalPattern.exec(value.trim());
  if (!match) return undefined;
  const integer = match[2]!.replace(/^0+(?=\d)/, "");
  return { negative: match[1] === "-", integer, fraction: match[3] ?? "" };
}

/**
 * Keeps at most `decimalsMax` fraction digits by dropping the rest: truncation toward zero,
 * the rounding rule for display, so a shown balance is never more than what is there.
 */
export function truncateTowardZero(parts: DecimalParts, decimalsMax: number): DecimalParts {
  const fraction = parts.fraction.slice(0, Math.max(0, decimalsMax));
  const isZero = /^0*$/.test(parts.integer) && /^0*$/.test(fraction);
  // "-0.000000001" truncated to 8 decimals is zero, which has no sign.
  return { negative: parts.negative && !isZero, integer: parts.integer, fraction };
}

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
 * `decimalsMax` decimals, trims trailing zeros to `decimalsMin`, and groups the integer part the
 * way the locale does (through `Intl` on a bigint, so no precision is lost).
 */
export function formatAmount(value: string, options: FormatAmountOptions): string {
  const parsed = parseDecimal(value);
  if (!parsed) return options.invalid ?? "--";
  const decimalsMax = options.decimalsMax ?? amountDecimalsMaxDefault;
  const decimalsMin = Math.min(options.decimalsMin ?? 0, decimalsMax);
  const truncated = truncateTowardZero(parsed, decimalsMax);
  let fraction = truncated.fraction.replace(/0+$/, "");
  if (fraction.length < decimalsMin) fraction = fraction.padEnd(decimalsMin, "0");
  const integer = new Intl.NumberFormat(options.locale, { useGrouping: true }).format(
    BigInt(truncated.integer),
  );
  const sign = truncated.negative ? "-" : "";
  return fraction
    ? `${sign}${integer}${separatorsFor(options.locale).decimal}${fraction}`
    : `${sign}${integer}`;
}
