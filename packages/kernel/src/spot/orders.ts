// Finding the owner and the order a spot command names.

import { findOwner } from "../ledger/accounts.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import type { OrderState } from "./state.ts";

/** An owner who may trade: users and the market maker. */
export function traderOwner(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): OwnerState | RejectCode {
  const owner = findOwner(state, ownerId, mode);
  if (typeof owner === "string") return owner;
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) return "owner_not_allowed";
  return owner;
}

/** Most open orders an owner may have in one mode. */
export function openOrdersMax(state: KernelState, owner: OwnerState): number {
  return owner.ownerId === systemOwners.marketMaker
    ? state.options.openOrdersMarketMakerMax
    : state.options.openOrdersPerOwnerMax;
}

/**
 * The open order a cancel or replace names, when it belongs to the commanding owner; else the
 * code to reject with. Looks the order up first (one Map lookup on the hot path) and only then,
 * on a miss, works out which owner check failed.
 */
export function commandedOrder(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  orderId: number,
): OrderState | RejectCode {
  const order = state.spot.orders.get(orderId);
  if (order !== undefined && order.ownerId === ownerId && order.mode === mode) {
    return order;
  }
  const owner = traderOwner(state, ownerId, mode);
  return typeof owner === "string" ? owner : "order_not_found";
}
