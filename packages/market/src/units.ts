import { parseDecimal } from "@candor/decimal";

/**
 * A decimal from the catalogue or a feed in 10^-scale units, or null when it is not one. Feeds
 * pad with zeros ("96000.01000000"), so zeros past the scale are accepted; any other extra
 * digit is refused, never rounded.
 */
export function unitsOf(text: string, scale: number): bigint | null {
  const parsed = parseDecimal(text, scale, { allowNegative: true, extraZeros: "accept" });
  return parsed.ok ? parsed.value : null;
}
