// Reject codes the perpetuals product needs. The kernel's `reject-codes.ts` is append-only and
// is being restructured by another change, so the new codes live here until the wiring step
// appends `perpRejectCodesNew` to it (and adds `errors.<code>` to all 12 locales). Codes the
// kernel already has are reused by name and listed separately.

/** Codes that do not exist in the kernel yet, in the order they should be appended. */
export const perpRejectCodesNew = [
  // A perpetual market definition (operator command `define_perp_market`).
  "perp_contract_invalid",
  "perp_lots_invalid",
  "perp_leverage_invalid",
  "perp_tiers_invalid",
  "perp_tier_amount_mismatch",
  "perp_tier_margin_too_high",
  "perp_fee_invalid",
  "perp_funding_invalid",
  "perp_band_invalid",
  "perp_liquidation_fee_invalid",
  // Trading and position commands.
  "insufficient_margin",
  "leverage_invalid",
  "leverage_above_tier",
  "margin_mode_locked",
  "position_not_found",
  "position_not_isolated",
  "reduce_only_would_increase",
  "margin_remove_too_much",
  "price_beyond_bankruptcy",
] as const;

/** Codes of the kernel's `reject-codes.ts` that the perpetuals math also returns. */
export const perpRejectCodesExisting = [
  "market_invalid",
  "instrument_id_invalid",
  "amount_must_be_positive",
  "insufficient_balance",
  "quantity_must_be_positive",
  "price_must_be_positive",
  "owner_id_invalid",
  "owner_not_allowed",
  "account_not_found",
  "same_account",
  "quantity_too_high",
  "price_outside_band",
  "no_reference_price",
  "time_went_backwards",
] as const;

/** A rejection the perpetuals math can return. */
export type PerpRejectCode =
  (typeof perpRejectCodesNew)[number] | (typeof perpRejectCodesExisting)[number];

/** A value, or the code saying why not. The same shape as the kernel's `Result`. */
export type PerpResult<T> = { ok: true; value: T } | { ok: false; code: PerpRejectCode };

export function perpOk<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function perpReject(code: PerpRejectCode): { ok: false; code: PerpRejectCode } {
  return { ok: false, code };
}
