// Loans: the operator's product terms and the lending pool's funding (journaled commands).
// Applications, repayments and collateral are in loans.ts.

import { emit } from "../events.ts";
import { accountOf, availableOf, systemOwner } from "../ledger/accounts.ts";
import { AMOUNT_SANITY_MAX, amountCode, post } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { ID_PATTERN } from "../reference/markets.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { systemOwners } from "../types.ts";
import { DAILY_RATE_PPM_MAX, poolAccount, TERM_DAYS_MAX, TICK_AGE_MS_MAX } from "./loans.ts";

export const loansConfigure: Handler<"loans_configure"> = (state, command) => {
  if (!ID_PATTERN.test(command.productId)) return fail("loans_terms_invalid");
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  const loanAsset = state.reference.assets.get(command.loanAssetId);
  const collateralAsset = state.reference.assets.get(command.collateralAssetId);
  if (loanAsset === undefined || collateralAsset === undefined) return fail("asset_not_found");
  const existing = state.loans.products.get(command.productId);
  if (
    loanAsset === collateralAsset ||
    !Number.isInteger(command.ltvInitialBps) ||
    !Number.isInteger(command.ltvMarginCallBps) ||
    !Number.isInteger(command.ltvLiquidationBps) ||
    command.ltvInitialBps < 1 ||
    command.ltvMarginCallBps <= command.ltvInitialBps ||
    command.ltvLiquidationBps <= command.ltvMarginCallBps ||
    command.ltvLiquidationBps > 10_000 ||
    !Number.isInteger(command.termDays) ||
    command.termDays < 1 ||
    command.termDays > TERM_DAYS_MAX ||
    !Number.isInteger(command.dailyRatePpm) ||
    command.dailyRatePpm < 0 ||
    command.dailyRatePpm > DAILY_RATE_PPM_MAX ||
    !Number.isSafeInteger(command.tickAgeMaxMs) ||
    command.tickAgeMaxMs < 1 ||
    command.tickAgeMaxMs > TICK_AGE_MS_MAX ||
    command.amountMin <= 0n ||
    command.amountMax < command.amountMin ||
    command.amountMax > AMOUNT_SANITY_MAX ||
    // A product's assets never change: its loans are counted in them.
    (existing !== undefined &&
      (existing.loanAssetId !== loanAsset.assetId ||
        existing.collateralAssetId !== collateralAsset.assetId))
  ) {
    return fail("loans_terms_invalid");
  }
  const code = amountCode(loanAsset, command.amountMax);
  if (code !== null) return fail(code);
  const product = {
    productId: command.productId,
    loanAssetId: loanAsset.assetId,
    collateralAssetId: collateralAsset.assetId,
    instrumentId: command.instrumentId,
    ltvInitialBps: command.ltvInitialBps,
    ltvMarginCallBps: command.ltvMarginCallBps,
    ltvLiquidationBps: command.ltvLiquidationBps,
    amountMin: command.amountMin,
    amountMax: command.amountMax,
    termDays: command.termDays,
    dailyRatePpm: command.dailyRatePpm,
    reviewRequired: command.reviewRequired,
    tickAgeMaxMs: command.tickAgeMaxMs,
    open: command.open,
  };
  state.loans.products.set(product.productId, product);
  emit(state, {
    type: "loans_configured",
    product: { ...product },
    operatorId: command.operatorId,
  });
  return DONE;
};

export const loansFundPool: Handler<"loans_fund_pool"> = (state, command) => {
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  // Real: from the treasury's deposited money. Demo: from the demo faucet (demo money only).
  const source =
    command.mode === "real"
      ? systemOwner(state, "real", systemOwners.treasury)
      : systemOwner(state, "demo", systemOwners.demoFaucet);
  if (command.mode === "real" && availableOf(source, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  post(state, {
    debit: accountOf(state, source, "fund", asset.assetId),
    credit: poolAccount(state, command.mode, asset.assetId),
    amount: command.amount,
    reason: "loans_pool_funding",
    refs: { operatorId: command.operatorId, reference: command.id },
  });
  emit(state, {
    type: "loans_pool_funded",
    mode: command.mode,
    assetId: asset.assetId,
    amount: command.amount,
    operatorId: command.operatorId,
  });
  return DONE;
};

/** The instrument's last tick if fresh enough, or a rejection code. */
