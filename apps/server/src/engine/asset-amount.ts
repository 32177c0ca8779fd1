import { getAssets, parseAmount } from "@candor/kernel";
import { AppError } from "../http/app-error.ts";
import type { EngineSubmitQuery } from "./submit.ts";
import { errorCodeOf } from "./reject-codes.ts";

/**
 * A parser of decimal amounts of `assetId` into its smallest unit, for an operator's terms
 * (VIP and agent levels): `asset_not_found` for an unknown asset, the kernel's amount codes for
 * a malformed, negative or over-precise amount.
 */
export function assetAmountParser(
  engine: Pick<EngineSubmitQuery, "query">,
  assetId: string,
): (text: string) => bigint {
  const scale = engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId)?.scale;
  if (scale === undefined) throw new AppError("asset_not_found");
  return (text) => {
    const parsed = parseAmount(text, scale);
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    return parsed.value;
  };
}
