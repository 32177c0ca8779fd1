// Deposits, withdrawals and transfers.

import { activityDeposit } from "../activity/handlers.ts";
import { recordVipWithdrawal, vipWithdrawalCode } from "../vip/apply.ts";
import { accountOf, availableOf, findOwner, systemOwner } from "../ledger/accounts.ts";
import { amountCode, hold, post, release } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE, ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import type { WithdrawalState } from "./state.ts";
import type { WithdrawalView } from "./types.ts";
import { emit } from "../events.ts";

/** System owners that may receive deposits and hold funds like users. */
function fundableSystemOwner(ownerId: string): boolean {
  return (
    ownerId === systemOwners.marketMaker ||
    ownerId === systemOwners.treasury ||
    ownerId === systemOwners.house ||
    ownerId === systemOwners.insuranceFund
  );
}

export function withdrawalView(withdrawal: WithdrawalState): WithdrawalView {
  return {
    withdrawalId: withdrawal.withdrawalId,
    ownerId: withdrawal.account.ownerId,
    assetId: withdrawal.account.assetId,
    amount: withdrawal.amount,
    status: withdrawal.status,
    reference: withdrawal.reference,
    // Only when there is one, so the events of fee-less withdrawals stay as they were.
    ...(withdrawal.fee > 0n ? { fee: withdrawal.fee } : {}),
  };
}

function reportWithdrawal(state: KernelState, withdrawal: WithdrawalState): void {
  emit(state, { type: "withdrawal_changed", withdrawal: withdrawalView(withdrawal) });
}

export const creditDeposit: Handler<"credit_deposit"> = (state, command) => {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.reference.length === 0) return fail("reference_missing");
  const external = systemOwner(state, "real", systemOwners.external);
  const postingSeq = post(state, {
    debit: accountOf(state, external, "fund", asset.assetId),
    credit: accountOf(state, owner, "fund", asset.assetId),
    amount: command.amount,
    reason: "deposit",
    refs: { operatorId: command.operatorId, reference: command.reference },
  });
  // A deposit may qualify for a reserved deposit bonus (issue 23).
  activityDeposit(state, owner, asset.assetId, command.amount);
  return ok({ postingSeq });
};

export const withdrawalHold: Handler<"withdrawal_hold"> = (state, command) =>
  holdWithdrawal(state, command, 0n);

export const withdrawalHoldFee: Handler<"withdrawal_hold_fee"> = (state, command) => {
  if (command.fee < 0n) return fail("amount_negative_not_allowed");
  return holdWithdrawal(state, command, command.fee);
};

export const withdrawalHoldWallet: Handler<"withdrawal_hold_wallet"> = (state, command) => {
  if (command.wallet !== "fund" && command.wallet !== "fiat") return fail("wallet_invalid");
  if (command.fee < 0n) return fail("amount_negative_not_allowed");
  return holdWithdrawal(state, command, command.fee, command.wallet);
};

function holdWithdrawal(
  state: KernelState,
  command: {
    ownerId: string;
    mode: "real" | "demo";
    assetId: string;
    amount: bigint;
    withdrawalId: string;
  },
  fee: bigint,
  wallet: "fund" | "fiat" = "fund",
) {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (fee > 0n) {
    const feeCode = amountCode(asset, fee);
    if (feeCode !== null) return fail(feeCode);
  }
  if (command.withdrawalId.length === 0) return fail("reference_missing");
  const withdrawals = state.funds.withdrawals;
  if (withdrawals.has(command.withdrawalId)) return fail("withdrawal_exists");
  if (availableOf(owner, wallet, asset.assetId) < command.amount + fee) {
    return fail("insufficient_balance");
  }
  // The owner's VIP level may limit what leaves per UTC day (issue 23).
  const limitCode = vipWithdrawalCode(state, command.mode, owner.ownerId, asset.assetId, command.amount); // prettier-ignore
  if (limitCode !== null) return fail(limitCode);
  const account = accountOf(state, owner, wallet, asset.assetId);
  hold(state, account, command.amount + fee);
  recordVipWithdrawal(state, command.mode, owner.ownerId, asset.assetId, command.amount);
  const withdrawal: WithdrawalState = {
    withdrawalId: command.withdrawalId,
    account,
    amount: command.amount,
    fee,
    status: "pending",
    reference: null,
  };
  withdrawals.set(command.withdrawalId, withdrawal);
  reportWithdrawal(state, withdrawal);
  return DONE;
}

export const withdrawalComplete: Handler<"withdrawal_complete"> = (state, command) => {
  const withdrawal = state.funds.withdrawals.get(command.withdrawalId);
  if (withdrawal === undefined) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  if (command.reference.length === 0) return fail("reference_missing");
  const external = systemOwner(state, "real", systemOwners.external);
  const postingSeq = post(state, {
    debit: withdrawal.account,
    credit: accountOf(state, external, "fund", withdrawal.account.assetId),
    amount: withdrawal.amount,
    debitHeld: true,
    reason: "withdrawal",
    refs: { operatorId: command.operatorId, reference: command.reference },
  });
  if (withdrawal.fee > 0n) {
    post(state, {
      debit: withdrawal.account,
      credit: accountOf(
        state,
        systemOwner(state, "real", systemOwners.fees),
        "fund",
        withdrawal.account.assetId,
      ),
      amount: withdrawal.fee,
      debitHeld: true,
      reason: "withdrawal_fee",
      refs: { operatorId: command.operatorId, reference: withdrawal.withdrawalId },
    });
  }
  withdrawal.status = "completed";
  withdrawal.reference = command.reference;
  reportWithdrawal(state, withdrawal);
  return ok({ postingSeq });
};

export const withdrawalCancel: Handler<"withdrawal_cancel"> = (state, command) => {
  const withdrawal = state.funds.withdrawals.get(command.withdrawalId);
  if (withdrawal === undefined) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  release(state, withdrawal.account, withdrawal.amount + withdrawal.fee);
  withdrawal.status = "cancelled";
  reportWithdrawal(state, withdrawal);
  return DONE;
};

export const transferWallet: Handler<"transfer_wallet"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  // The market maker quotes perpetuals from its contract wallet: in demo it moves its demo money
  // there like a user. Real mode stays refused (journals already hold such a refusal, and replay
  // must give the same result); real inventory for perpetuals needs its own operator command.
  const demoMarketMaker = owner.ownerId === systemOwners.marketMaker && command.mode === "demo";
  if (owner.system && !demoMarketMaker) return fail("owner_not_allowed");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.sourceWallet === command.targetWallet) return fail("same_account");
  if (availableOf(owner, command.sourceWallet, asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const source = accountOf(state, owner, command.sourceWallet, asset.assetId);
  for (const module of state.modules) {
    const refused = module.outflowCode?.(state, source, command.amount) ?? null;
    if (refused !== null) return fail(refused);
  }
  const postingSeq = post(state, {
    debit: source,
    credit: accountOf(state, owner, command.targetWallet, asset.assetId),
    amount: command.amount,
    reason: "transfer_wallet",
  });
  for (const module of state.modules) module.afterOutflow?.(state, source);
  return ok({ postingSeq });
};

export const transferUser: Handler<"transfer_user"> = (state, command) => {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const target = findOwner(state, command.targetOwnerId, command.mode);
  if (typeof target === "string") return fail(target);
  if (target.system) return fail("owner_not_allowed");
  if (target === owner) return fail("same_account");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const postingSeq = post(state, {
    debit: accountOf(state, owner, "fund", asset.assetId),
    credit: accountOf(state, target, "fund", asset.assetId),
    amount: command.amount,
    reason: "transfer_user",
    refs: { reference: target.ownerId },
  });
  return ok({ postingSeq });
};
