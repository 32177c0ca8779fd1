// Opening accounts, demo grants and demo resets.

import { activityDeposit } from "../activity/handlers.ts";
import { parseAmount } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import {
  accountOf,
  compareStrings,
  findOwner,
  openOwner,
  ownerOf,
  systemOwner,
  validOwnerId,
} from "../ledger/accounts.ts";
import { amountCode, post } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE, ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import { emit } from "../events.ts";

export const openAccounts: Handler<"open_accounts"> = (state, command) => {
  if (!validOwnerId(command.ownerId)) return fail("owner_id_invalid");
  if (ownerOf(state, command.mode, command.ownerId) !== undefined) {
    return fail("accounts_already_open");
  }
  const owner = openOwner(state, command.ownerId, command.mode);
  emit(state, { type: "accounts_opened", ownerId: owner.ownerId, mode: owner.mode });
  if (owner.mode === "demo") grantDemoDefaults(state, owner);
  return DONE;
};

function grantDemoDefaults(state: KernelState, owner: OwnerState): void {
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  for (const grant of state.options.demoGrants) {
    const asset = state.reference.assets.get(grant.assetId);
    if (asset === undefined) continue;
    const amount = parseAmount(grant.amount, asset.scale);
    if (!amount.ok || amount.value <= 0n) continue;
    post(state, {
      debit: accountOf(state, faucet, "fund", asset.assetId),
      credit: accountOf(state, owner, "fund", asset.assetId),
      amount: amount.value,
      reason: "demo_grant",
    });
  }
}

export const grantDemo: Handler<"grant_demo"> = (state, command) => {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  // Demo inventory of the labelled market maker and the quick-exchange house.
  if (
    owner.system &&
    owner.ownerId !== systemOwners.marketMaker &&
    owner.ownerId !== systemOwners.house
  ) {
    return fail("owner_not_allowed");
  }
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  const postingSeq = post(state, {
    debit: accountOf(state, faucet, "fund", asset.assetId),
    credit: accountOf(state, owner, "fund", asset.assetId),
    amount: command.amount,
    reason: "demo_grant",
  });
  // Demo money granted is the demo mode's deposit: it may qualify for a demo activity's bonus.
  activityDeposit(state, owner, asset.assetId, command.amount);
  return ok({ postingSeq });
};

export const resetDemo: Handler<"reset_demo"> = (state, command) => {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  // Every product ends what the owner has open (spot cancels its orders), in registry order.
  let cancelledCount = 0;
  for (const module of state.modules) cancelledCount += module.onDemoReset?.(state, owner) ?? 0;
  const faucet = systemOwner(state, "demo", systemOwners.demoFaucet);
  const accounts = [...owner.accounts.values()].sort((a, b) => compareStrings(a.key, b.key));
  for (const account of accounts) {
    assert(account.held === 0n, "demo account still holds funds after its products reset");
    if (account.available > 0n) {
      post(state, {
        debit: account,
        credit: accountOf(state, faucet, "fund", account.assetId),
        amount: account.available,
        reason: "demo_reset",
      });
    }
  }
  grantDemoDefaults(state, owner);
  emit(state, { type: "demo_reset", ownerId: owner.ownerId });
  return ok({ cancelledCount });
};
