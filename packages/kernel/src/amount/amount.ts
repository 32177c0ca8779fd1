// The kernel's money helpers are the shared decimal codec (`@candor/decimal`): one set of parse,
// format and rounding rules for kernel, server and web. The kernel parses strictly (zeros past
// an asset's scale are refused), which is what every journaled command was checked with.

import { parseDecimal, type ParseDecimalOptions } from "@candor/decimal";
import type { Result } from "../reject-codes.ts";

export {
  divCeil,
  divFloor,
  formatDecimal as formatAmount,
  mulDiv,
  pow10,
  SCALE_MAX,
  type Rounding,
} from "@candor/decimal";

/**
 * Integer count of an asset's smallest unit (USDT micro-unit, BTC satoshi). Never a float.
 * A plain `bigint` alias (not a brand) so arithmetic stays readable; the name documents intent.
 */
export type Amount = bigint;

/** Options for {@link parseAmount}: negatives and a maximum; zeros past the scale are refused. */
export type ParseAmountOptions = Pick<ParseDecimalOptions, "allowNegative" | "max">;

/** Parses an API amount strictly into smallest units at `scale` decimals (see `parseDecimal`). */
export function parseAmount(
  text: string,
  scale: number,
  options: ParseAmountOptions = {},
): Result<Amount> {
  return parseDecimal(text, scale, { allowNegative: options.allowNegative, max: options.max });
}
