// Owners and accounts: opening, finding, and the views of their balances.

import { assert } from "../assert.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode, type Wallet } from "../types.ts";
import { accountKey, ownerKey, type Account, type OwnerState } from "./state.ts";
import type { AccountBalance } from "./types.ts";

const OWNER_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** True for a user owner id the kernel accepts (system owners are never opened by command). */
export function validOwnerId(ownerId: string): boolean {
  return OWNER_PATTERN.test(ownerId);
}

/** Creates an owner record (no validation). */
export function openOwner(state: KernelState, ownerId: string, mode: Mode): OwnerState {
  const ledger = state.ledger;
  const key = ownerKey(mode, ownerId);
  assert(!ledger.owners.has(key), "owner already open");
  const owner: OwnerState = {
    key,
    ownerId,
    mode,
    index: ledger.ownerIndexNext++,
    system: ownerId.startsWith("system:"),
    accounts: new Map(),
    fund: new Map(),
  };
  ledger.owners.set(key, owner);
  (mode === "real" ? ledger.ownersReal : ledger.ownersDemo).set(ownerId, owner);
  return owner;
}

/** Opens every system owner of both modes (a new kernel has them from the start). */
export function openSystemOwners(state: KernelState): void {
  for (const mode of ["real", "demo"] as const) {
    for (const ownerId of Object.values(systemOwners)) {
      if (ownerId === systemOwners.external && mode === "demo") continue;
      if (ownerId === systemOwners.demoFaucet && mode === "real") continue;
      openOwner(state, ownerId, mode);
    }
  }
}

/** An open owner, or undefined. */
export function ownerOf(state: KernelState, mode: Mode, ownerId: string): OwnerState | undefined {
  return (mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo).get(ownerId);
}

/** A system owner, which always exists in the modes it belongs to. */
export function systemOwner(state: KernelState, mode: Mode, ownerId: string): OwnerState {
  const owner = ownerOf(state, mode, ownerId);
  assert(owner !== undefined, "system owners always exist");
  return owner;
}

/** Finds an open owner by id and mode; `owner_id_invalid` or `account_not_found` otherwise. */
export function findOwner(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): OwnerState | RejectCode {
  const owner = ownerOf(state, mode, ownerId);
  if (owner !== undefined) return owner;
  if (!OWNER_PATTERN.test(ownerId) && !ownerId.startsWith("system:")) return "owner_id_invalid";
  return "account_not_found";
}

/** The account of an owner, created (at zero) on first use. */
export function accountOf(
  state: KernelState,
  owner: OwnerState,
  wallet: Wallet,
  assetId: string,
): Account {
  if (wallet === "fund") {
    const fund = owner.fund.get(assetId);
    if (fund !== undefined) return fund;
  }
  const walletAsset = wallet + "|" + assetId;
  let account = owner.accounts.get(walletAsset);
  if (account === undefined) {
    const key = accountKey(owner.ownerId, owner.mode, wallet, assetId);
    account = {
      key,
      ownerId: owner.ownerId,
      mode: owner.mode,
      wallet,
      assetId,
      available: 0n,
      held: 0n,
      availableUnits: 0,
      heldUnits: 0,
      negativeAllowed:
        owner.ownerId === systemOwners.external || owner.ownerId === systemOwners.demoFaucet,
      postingSlots: [],
      touchedSerial: 0,
      heldExpected: 0n,
    };
    owner.accounts.set(walletAsset, account);
    if (wallet === "fund") owner.fund.set(assetId, account);
    state.ledger.accounts.set(key, account);
  }
  return account;
}

/** What an owner has available in one wallet and asset (zero for an account never used). */
export function availableOf(owner: OwnerState, wallet: Wallet, assetId: string): bigint {
  if (wallet === "fund") return owner.fund.get(assetId)?.available ?? 0n;
  return owner.accounts.get(wallet + "|" + assetId)?.available ?? 0n;
}

export function balanceView(account: Account): AccountBalance {
  return {
    account: account.key,
    ownerId: account.ownerId,
    mode: account.mode,
    wallet: account.wallet,
    assetId: account.assetId,
    available: account.available,
    held: account.held,
  };
}

/** Code-unit order, independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
