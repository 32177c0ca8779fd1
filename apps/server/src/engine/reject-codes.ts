import type { ErrorCode } from "@candor/contract";
import type { RejectCode } from "@candor/kernel";

/**
 * Every kernel rejection as the API answers it, for every module that submits commands. The
 * codes a user can cause through the API have their own error code (and message in every
 * locale); the rest can only come from a server bug or an operator command and answer
 * `command_rejected`. `satisfies` makes a new kernel code a compile error here until it is
 * mapped.
 */
export const errorCodeByRejectCode = {
  insufficient_balance: "insufficient_balance",
  price_must_be_positive: "price_must_be_positive",
  price_not_on_tick: "price_not_on_tick",
  price_too_high: "price_too_high",
  quantity_must_be_positive: "quantity_must_be_positive",
  quantity_not_on_lot: "quantity_not_on_lot",
  quantity_below_minimum: "quantity_below_minimum",
  quantity_too_high: "quantity_too_high",
  amount_must_be_positive: "amount_must_be_positive",
  amount_empty: "amount_malformed",
  amount_malformed: "amount_malformed",
  amount_negative_not_allowed: "amount_must_be_positive",
  amount_too_many_decimals: "amount_too_many_decimals",
  amount_above_maximum: "amount_above_maximum",
  market_not_found: "instrument_not_found",
  market_closed: "market_closed",
  asset_not_found: "asset_not_found",
  command_id_invalid: "client_order_id_invalid",
  command_id_reused: "client_order_id_reused",
  command_unknown: "command_rejected",
  demo_not_allowed: "demo_not_allowed",
  real_not_allowed: "demo_mode_required",
  // An order of the other mode is not the session's to see.
  mode_mismatch: "order_not_found",
  order_not_found: "order_not_found",
  order_type_invalid: "order_type_invalid",
  time_in_force_invalid: "time_in_force_invalid",
  too_many_open_orders: "too_many_open_orders",
  book_full: "book_full",
  post_only_would_trade: "post_only_would_trade",
  fok_not_filled: "fok_not_filled",
  price_outside_band: "price_outside_band",
  no_reference_price: "no_reference_price",
  account_not_found: "account_not_open",
  accounts_already_open: "command_rejected",
  owner_id_invalid: "command_rejected",
  same_account: "command_rejected",
  wallet_invalid: "command_rejected",
  time_went_backwards: "command_rejected",
  timestamp_invalid: "command_rejected",
  reference_missing: "command_rejected",
  reference_invalid: "command_rejected",
  withdrawal_not_found: "withdrawal_not_found",
  withdrawal_not_pending: "withdrawal_state_invalid",
  instrument_id_invalid: "instrument_not_found",
  nothing_to_cancel: "nothing_to_cancel",
  command_malformed: "command_rejected",
  asset_exists: "command_rejected",
  asset_invalid: "command_rejected",
  market_exists: "command_rejected",
  market_invalid: "command_rejected",
  mode_invalid: "command_rejected",
  owner_not_allowed: "command_rejected",
  withdrawal_exists: "command_rejected",
  tick_exists: "command_rejected",
  price_invalid: "price_invalid",
  quote_amount_too_small: "quote_amount_too_small",
  // Ticks come from the server's own tape, never from a user.
  tick_out_of_order: "command_rejected",
  quote_not_found: "quote_not_found",
  quote_expired: "quote_expired",
  // The spread, lifetime and tick age come from the server's configuration, not the user.
  quote_terms_invalid: "command_rejected",
  too_many_quotes: "too_many_quotes",
  house_insufficient: "house_insufficient",
  reference_price_stale: "reference_price_stale",
  // Perpetuals: market terms come from the deployment's configuration, not the user.
  perp_contract_invalid: "command_rejected",
  perp_lots_invalid: "command_rejected",
  perp_leverage_invalid: "command_rejected",
  perp_tiers_invalid: "command_rejected",
  perp_tier_amount_mismatch: "command_rejected",
  perp_tier_margin_too_high: "command_rejected",
  perp_fee_invalid: "command_rejected",
  perp_funding_invalid: "command_rejected",
  perp_band_invalid: "command_rejected",
  perp_liquidation_fee_invalid: "command_rejected",
  insufficient_margin: "insufficient_margin",
  leverage_invalid: "leverage_invalid",
  leverage_above_tier: "leverage_above_tier",
  margin_mode_locked: "margin_mode_locked",
  position_not_found: "position_not_found",
  position_not_isolated: "position_not_isolated",
  reduce_only_would_increase: "reduce_only_would_increase",
  margin_remove_too_much: "margin_remove_too_much",
  price_beyond_bankruptcy: "price_beyond_bankruptcy",
  seconds_product_not_found: "seconds_product_not_found",
  seconds_product_closed: "seconds_product_closed",
  // Product terms come from the operator's configuration, not the user.
  seconds_terms_invalid: "command_rejected",
  seconds_direction_invalid: "validation_failed",
  seconds_stake_below_minimum: "seconds_stake_below_minimum",
  seconds_stake_above_maximum: "seconds_stake_above_maximum",
  seconds_exposure_limit: "seconds_exposure_limit",
  // Contract ids are minted by the server.
  seconds_contract_exists: "command_rejected",
  too_many_open_contracts: "too_many_open_contracts",
  // Plan terms come from the operator's definition, not the user.
  savings_plan_invalid: "command_rejected",
  savings_plan_not_found: "savings_plan_not_found",
  savings_plan_closed: "savings_plan_closed",
  savings_amount_below_minimum: "savings_amount_below_minimum",
  savings_amount_above_maximum: "savings_amount_above_maximum",
  savings_amount_not_on_step: "savings_amount_not_on_step",
  // Either way the promise cannot be reserved now: the plan shows "sold out".
  savings_capacity_full: "savings_sold_out",
  savings_yield_insufficient: "savings_sold_out",
  // Subscription ids are minted by the server.
  savings_subscription_exists: "command_rejected",
  savings_subscription_not_found: "savings_subscription_not_found",
  savings_early_redemption_not_allowed: "savings_early_redemption_not_allowed",
  too_many_savings_subscriptions: "too_many_savings_subscriptions",
} as const satisfies Record<RejectCode, ErrorCode>;

export function errorCodeOf(code: RejectCode): ErrorCode {
  return errorCodeByRejectCode[code];
}
