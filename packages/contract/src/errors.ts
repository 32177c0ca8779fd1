/**
 * Every error the API can answer with, and its HTTP status. Append-only: never rename or reuse
 * a code, because clients match on it. Each code has a message in every locale
 * (`locales/<locale>.json`, key `errors.<code>`).
 */
export const httpStatusByErrorCode = {
  validation_failed: 400,
  malformed_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  captcha_required: 400,
  captcha_invalid: 400,
  agreement_required: 400,
  invalid_credentials: 401,
  account_exists: 409,
  email_code_invalid: 400,
  invite_code_invalid: 400,
  wallet_signature_invalid: 401,
  wallet_nonce_invalid: 401,
  trade_password_not_set: 409,
  trade_password_invalid: 403,
  password_incorrect: 403,
  demo_not_allowed: 403,
  demo_deposit_not_allowed: 403,
  demo_withdraw_not_allowed: 403,
  mail_unavailable: 503,
  instrument_not_found: 404,
  market_closed: 409,
  subscription_limit_reached: 429,
  slow_consumer: 503,
  bad_message: 400,
  command_rejected: 422,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof httpStatusByErrorCode;
export const errorCodes = Object.keys(httpStatusByErrorCode) as ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(httpStatusByErrorCode, value);
}
