// The VIP rules where products use them: the level an owner is at now, the discounted trading
// fee (spot and perp call `vipFee` before collecting a fee), the volume a fill adds, and the
// daily withdrawal limit (funds calls `vipWithdrawalCode` before holding a withdrawal).

import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import {
  dayOf,
  discountedFee,
  levelFor,
  vipAsset,
  vipLevels,
  VIP_WINDOW_DAYS,
  windowVolume,
  type VipLevel,
} from "./state.ts";

/** The owner's 30-day volume in the VIP asset of `mode` (0 when VIP is not configured). */
export function vipVolume(state: KernelState, mode: Mode, ownerId: string): bigint {
  return windowVolume(state.vip.volumes.get(mode + "|" + ownerId), dayOf(state.nowMs));
}

/** The owner's fund-wallet balance (available + held) of the VIP asset. */
export function vipBalance(
  state: KernelState,
  mode: Mode,
  ownerId: string,
  assetId: string,
): bigint {
  const owners = mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo;
  const account = owners.get(ownerId)?.fund.get(assetId);
  return account === undefined ? 0n : account.available + account.held;
}

/** The level the owner is at now, or null (VIP not configured, or no level reached). */
export function vipLevelOf(state: KernelState, mode: Mode, ownerId: string): VipLevel | null {
  if (state.vip.levels.size === 0) return null;
  const assetId = vipAsset(state, mode);
  if (assetId === null) return null;
  return levelFor(
    vipLevels(state, mode),
    vipVolume(state, mode, ownerId),
    vipBalance(state, mode, ownerId, assetId),
  );
}

/** `fee` less the owner's VIP discount (the fee itself when there is none). */
export function vipFee(state: KernelState, mode: Mode, ownerId: string, fee: bigint): bigint {
  if (state.vip.levels.size === 0 || fee <= 0n) return fee;
  const level = vipLevelOf(state, mode, ownerId);
  return level === null ? fee : discountedFee(fee, level.feeDiscountBps);
}

/**
 * Adds a fill's volume (`amount` of `assetId`) to the owner's bucket of today. Counted only
 * while VIP is configured in the mode and only in its asset; buckets that left the window go.
 */
export function recordVipVolume(
  state: KernelState,
  mode: Mode,
  ownerId: string,
  assetId: string,
  amount: bigint,
): void {
  if (state.vip.levels.size === 0 || amount <= 0n) return;
  if (vipAsset(state, mode) !== assetId) return;
  const today = dayOf(state.nowMs);
  const key = mode + "|" + ownerId;
  const buckets = (state.vip.volumes.get(key) ?? []).filter((b) => b.day > today - VIP_WINDOW_DAYS);
  const last = buckets[buckets.length - 1];
  if (last !== undefined && last.day === today) last.amount += amount;
  else buckets.push({ day: today, amount });
  state.vip.volumes.set(key, buckets);
}

/** What the owner already withdrew today of the VIP asset. */
export function vipWithdrawnToday(state: KernelState, mode: Mode, ownerId: string): bigint {
  const record = state.vip.withdrawn.get(mode + "|" + ownerId);
  return record !== undefined && record.day === dayOf(state.nowMs) ? record.amount : 0n;
}

/**
 * Refuses a withdrawal of `amount` (plus its fee) that would take the owner past the daily
 * limit of its level; null when allowed. Only the VIP asset is limited.
 */
export function vipWithdrawalCode(
  state: KernelState,
  mode: Mode,
  ownerId: string,
  assetId: string,
  amount: bigint,
): RejectCode | null {
  if (state.vip.levels.size === 0 || vipAsset(state, mode) !== assetId) return null;
  const level = vipLevelOf(state, mode, ownerId);
  if (level === null || level.withdrawDailyLimit === 0n) return null;
  if (vipWithdrawnToday(state, mode, ownerId) + amount > level.withdrawDailyLimit) {
    return "vip_withdrawal_limit";
  }
  return null;
}

/** Counts a withdrawal held (cancelled ones stay counted: the limit is on requests). */
export function recordVipWithdrawal(
  state: KernelState,
  mode: Mode,
  ownerId: string,
  assetId: string,
  amount: bigint,
): void {
  if (state.vip.levels.size === 0 || vipAsset(state, mode) !== assetId) return;
  const today = dayOf(state.nowMs);
  const key = mode + "|" + ownerId;
  const withdrawn = vipWithdrawnToday(state, mode, ownerId);
  state.vip.withdrawn.set(key, { day: today, amount: withdrawn + amount });
}
