import { useTranslation } from "react-i18next";
import { bcp47ByLocale, type Locale } from "@candor/contract/locales";
import { readDecimal } from "../../lib/decimal-text.ts";
import { formatAmount } from "../../lib/format-amount.ts";

/** A decimal string shown for people, in the current locale's digits; never through a float. */
export function Amount({
  value,
  decimalsMax,
  decimalsMin,
}: {
  value: string | undefined;
  decimalsMax?: number;
  decimalsMin?: number;
}) {
  const { i18n } = useTranslation();
  const locale = bcp47ByLocale[i18n.language as Locale] ?? "en";
  return (
    <span className="amount">
      {value === undefined
        ? "--"
        : formatAmount(value, {
            locale,
            ...(decimalsMax === undefined ? {} : { decimalsMax }),
            ...(decimalsMin === undefined ? {} : { decimalsMin }),
          })}
    </span>
  );
}

/** A change in percent with its sign and colour (up green, down red), e.g. "+1.25%". */
export function ChangePercent({ value }: { value: string | undefined }) {
  if (value === undefined) return <span className="change flat">--</span>;
  const read = readDecimal(value);
  const negative = read !== undefined && read.units < 0n;
  const zero = read !== undefined && read.units === 0n;
  const className = zero ? "change flat" : negative ? "change down" : "change up";
  return (
    <span className={className}>
      {zero || negative ? "" : "+"}
      <Amount value={value} decimalsMax={2} decimalsMin={2} />%
    </span>
  );
}
