// Savings plans: the operator defines them and funds the yield account. Both are journaled
// commands with the operator's id; neither promises anything to anyone by itself.

import { emit } from "../events.ts";
import { accountOf, systemOwner } from "../ledger/accounts.ts";
import { amountCode, AMOUNT_SANITY_MAX, post } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { ID_PATTERN } from "../reference/markets.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { systemOwners } from "../types.ts";
import { savingsAccount } from "./accounts.ts";
import { DAY_MS } from "./math.ts";
import type { SavingsPlanState } from "./state.ts";

export const CYCLE_DAYS_MAX = 3_650;
export const DAILY_RATE_E8_MAX = 5_000_000;
export const START_DELAY_MS_MAX = 7 * DAY_MS;
export const NAME_LENGTH_MAX = 64;
export const DETAILS_LENGTH_MAX = 2_000;
const REFERENCE_PATTERN = /^[\x21-\x7e]{1,128}$/;

export const savingsDefinePlan: Handler<"savings_define_plan"> = (state, command) => {
  if (!ID_PATTERN.test(command.planId)) return fail("savings_plan_invalid");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const existing = state.savings.plans.get(command.planId);
  const kind = command.kind;
  const early = command.earlyRedemption;
  if (
    (kind !== "savings" && kind !== "mining") ||
    (early !== "none" && early !== "forfeit_unpaid") ||
    command.name.length < 1 ||
    command.name.length > NAME_LENGTH_MAX ||
    command.details.length > DETAILS_LENGTH_MAX ||
    !Number.isSafeInteger(command.cycleDays) ||
    command.cycleDays < 1 ||
    command.cycleDays > CYCLE_DAYS_MAX ||
    !Number.isSafeInteger(command.dailyRateE8) ||
    command.dailyRateE8 < 1 ||
    command.dailyRateE8 > DAILY_RATE_E8_MAX ||
    !Number.isSafeInteger(command.startDelayMs) ||
    command.startDelayMs < 0 ||
    command.startDelayMs > START_DELAY_MS_MAX ||
    !Number.isSafeInteger(command.earlyPenaltyBps) ||
    command.earlyPenaltyBps < 0 ||
    command.earlyPenaltyBps > 10_000 ||
    command.amountMin <= 0n ||
    command.amountMax < command.amountMin ||
    command.amountStep <= 0n ||
    command.amountMin % command.amountStep !== 0n ||
    command.capacity < 0n ||
    command.capacity > AMOUNT_SANITY_MAX ||
    // Reservations and capacity are counted in the plan's asset and kind: they never change.
    (existing !== undefined && (existing.assetId !== asset.assetId || existing.kind !== kind))
  ) {
    return fail("savings_plan_invalid");
  }
  const code = amountCode(asset, command.amountMax);
  if (code !== null) return fail(code);
  const plan: SavingsPlanState = {
    planId: command.planId,
    kind,
    name: command.name,
    details: command.details,
    assetId: asset.assetId,
    cycleDays: command.cycleDays,
    dailyRateE8: command.dailyRateE8,
    startDelayMs: command.startDelayMs,
    amountMin: command.amountMin,
    amountMax: command.amountMax,
    amountStep: command.amountStep,
    capacity: command.capacity,
    earlyRedemption: early,
    earlyPenaltyBps: command.earlyPenaltyBps,
    open: command.open,
  };
  state.savings.plans.set(plan.planId, plan);
  emit(state, { type: "savings_plan_defined", plan: { ...plan }, operatorId: command.operatorId });
  return DONE;
};

export const savingsFundYield: Handler<"savings_fund_yield"> = (state, command) => {
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.mode === "real") {
    if (command.reference === null) return fail("reference_missing");
    if (!REFERENCE_PATTERN.test(command.reference)) return fail("reference_invalid");
  } else if (command.reference !== null && !REFERENCE_PATTERN.test(command.reference)) {
    return fail("reference_invalid");
  }
  // Real money arrives from outside like a deposit; demo money comes from the demo faucet.
  const source = systemOwner(
    state,
    command.mode,
    command.mode === "real" ? systemOwners.external : systemOwners.demoFaucet,
  );
  const yieldAccount = savingsAccount(state, command.mode, "yield", asset.assetId);
  post(state, {
    debit: accountOf(state, source, "fund", asset.assetId),
    credit: yieldAccount,
    amount: command.amount,
    reason: "savings_yield_funding",
    refs: { operatorId: command.operatorId, reference: command.reference },
  });
  emit(state, {
    type: "savings_yield_funded",
    mode: command.mode,
    assetId: asset.assetId,
    amount: command.amount,
    yieldAvailable: yieldAccount.available,
    reference: command.reference,
    operatorId: command.operatorId,
  });
  return DONE;
};
