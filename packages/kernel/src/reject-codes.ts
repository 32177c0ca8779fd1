/**
 * Every expected rejection the kernel can return, as a stable string code.
 * Append-only: never rename or reuse a code, because journals,
 * clients and translations (`errors.<code>`) refer to them by name.
 */
export const rejectCodes = [
  "insufficient_balance",
  "price_must_be_positive",
  "price_not_on_tick",
  "price_too_high",
  "quantity_must_be_positive",
  "quantity_not_on_lot",
  "quantity_below_minimum",
  "quantity_too_high",
  "amount_must_be_positive",
  "amount_empty",
  "amount_malformed",
  "amount_negative_not_allowed",
  "amount_too_many_decimals",
  "amount_above_maximum",
  "market_not_found",
  "market_closed",
  "asset_not_found",
  "command_id_invalid",
  "command_id_reused",
  "command_unknown",
  "demo_not_allowed",
  "real_not_allowed",
  "mode_mismatch",
  "order_not_found",
  "order_type_invalid",
  "time_in_force_invalid",
  "too_many_open_orders",
  "book_full",
  "post_only_would_trade",
  "fok_not_filled",
  "price_outside_band",
  "no_reference_price",
  "account_not_found",
  "accounts_already_open",
  "owner_id_invalid",
  "same_account",
  "wallet_invalid",
  "time_went_backwards",
  "timestamp_invalid",
  "reference_missing",
  "reference_invalid",
  "withdrawal_not_found",
  "withdrawal_not_pending",
  "instrument_id_invalid",
  "nothing_to_cancel",
  "command_malformed",
  "asset_exists",
  "asset_invalid",
  "market_exists",
  "market_invalid",
  "mode_invalid",
  "owner_not_allowed",
  "withdrawal_exists",
  "tick_exists",
  "price_invalid",
  "quote_amount_too_small",
  "tick_out_of_order",
  "quote_not_found",
  "quote_expired",
  "quote_terms_invalid",
  "too_many_quotes",
  "house_insufficient",
  "reference_price_stale",
  // Perpetual contracts (perp/): appended from perp/reject-codes.ts.
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
  "insufficient_margin",
  "leverage_invalid",
  "leverage_above_tier",
  "margin_mode_locked",
  "position_not_found",
  "position_not_isolated",
  "reduce_only_would_increase",
  "margin_remove_too_much",
  "price_beyond_bankruptcy",
  "seconds_product_not_found",
  "seconds_product_closed",
  "seconds_terms_invalid",
  "seconds_direction_invalid",
  "seconds_stake_below_minimum",
  "seconds_stake_above_maximum",
  "seconds_exposure_limit",
  "seconds_contract_exists",
  "too_many_open_contracts",
  "savings_plan_invalid",
  "savings_plan_not_found",
  "savings_plan_closed",
  "savings_amount_below_minimum",
  "savings_amount_above_maximum",
  "savings_amount_not_on_step",
  "savings_capacity_full",
  "savings_yield_insufficient",
  "savings_subscription_exists",
  "savings_subscription_not_found",
  "savings_early_redemption_not_allowed",
  "too_many_savings_subscriptions",
  "stock_not_configured",
  "stock_terms_invalid",
  "stock_market_closed",
  "stock_quantity_invalid",
  "stock_price_invalid",
  "stock_order_kind_invalid",
  "stock_inventory_insufficient",
  "stock_holding_insufficient",
  "stock_house_cash_insufficient",
  "stock_order_too_small",
  "stock_too_many_orders",
  "stock_trading_closed",
  "loans_product_not_found",
  "loans_product_closed",
  "loans_terms_invalid",
  "loan_amount_invalid",
  "loans_ltv_too_high",
  "loans_pool_insufficient",
  "loan_exists",
  "loan_not_found",
  "loan_not_pending",
  "loan_not_active",
  "referral_self",
  "referral_exists",
  "referral_product_invalid",
  "referral_rebate_invalid",
] as const;

/** One of the stable rejection codes above. */
export type RejectCode = (typeof rejectCodes)[number];

/** The outcome of anything that can be rejected: a value, or a code saying why not. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: RejectCode };

/** Builds a successful result. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Builds a rejection. */
export function reject(code: RejectCode): { ok: false; code: RejectCode } {
  return { ok: false, code };
}

/** One shared, frozen rejection per code, made once at load: rejections are frequent and alike. */
const rejections = Object.freeze(
  Object.fromEntries(rejectCodes.map((code) => [code, Object.freeze(reject(code))])),
) as Readonly<Record<RejectCode, { readonly ok: false; readonly code: RejectCode }>>;

/** The shared, frozen rejection with `code` (do not mutate it). */
export function fail(code: RejectCode): { ok: false; code: RejectCode } {
  return rejections[code];
}
