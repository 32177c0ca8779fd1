// The VIP slice of kernel state and the pure rules over it: which level an owner is at, the
// discounted fee, and the rolling 30-day volume.

import type { Mode } from "../types.ts";

export interface VipLevel {
  level: number;
  assetId: string;
  minVolume: bigint;
  minBalance: bigint;
  feeDiscountBps: number;
  withdrawDailyLimit: bigint;
}

/** Traded volume on one UTC day (days since the epoch). */
export interface VolumeBucket {
  day: number;
  amount: bigint;
}

export interface VipState {
  /** `mode|level` → level. */
  levels: Map<string, VipLevel>;
  /** `mode|ownerId` → daily volume buckets, oldest first, only days within the window. */
  volumes: Map<string, VolumeBucket[]>;
  /** `mode|ownerId` → amount withdrawn (held for withdrawal) on `day` in the VIP asset. */
  withdrawn: Map<string, VolumeBucket>;
}

export function createVipState(): VipState {
  return { levels: new Map(), volumes: new Map(), withdrawn: new Map() };
}

export const VIP_LEVEL_MAX = 10;
export const VIP_WINDOW_DAYS = 30;
export const BPS_MAX = 10_000;
export const DAY_MS = 86_400_000;

export function dayOf(atMs: number): number {
  return Math.floor(atMs / DAY_MS);
}

/** The levels configured in `mode`, lowest first. */
export function vipLevels(state: { vip: VipState }, mode: Mode): VipLevel[] {
  const out: VipLevel[] = [];
  for (let level = 0; level <= VIP_LEVEL_MAX; level++) {
    const found = state.vip.levels.get(mode + "|" + level);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** The asset VIP measures in `mode`, or null when no level is configured. */
export function vipAsset(state: { vip: VipState }, mode: Mode): string | null {
  for (let level = 0; level <= VIP_LEVEL_MAX; level++) {
    const found = state.vip.levels.get(mode + "|" + level);
    if (found !== undefined) return found.assetId;
  }
  return null;
}

/** Sum of the buckets within the window that ends on `today` (today and the 29 days before). */
export function windowVolume(buckets: readonly VolumeBucket[] | undefined, today: number): bigint {
  if (buckets === undefined) return 0n;
  let sum = 0n;
  for (const bucket of buckets) {
    if (bucket.day > today - VIP_WINDOW_DAYS && bucket.day <= today) sum += bucket.amount;
  }
  return sum;
}

/** Whether `volume` / `balance` reach `level` (level 0 always; else either set threshold). */
export function reaches(level: VipLevel, volume: bigint, balance: bigint): boolean {
  if (level.level === 0) return true;
  return (
    (level.minVolume > 0n && volume >= level.minVolume) ||
    (level.minBalance > 0n && balance >= level.minBalance)
  );
}

/** The highest configured level reached, or null when none (no level 0 and none reached). */
export function levelFor(
  levels: readonly VipLevel[],
  volume: bigint,
  balance: bigint,
): VipLevel | null {
  let best: VipLevel | null = null;
  for (const level of levels) if (reaches(level, volume, balance)) best = level;
  return best;
}

/**
 * A fee after a discount of `bps`: the discount is floor(fee × bps / 10,000), so the fee paid
 * rounds up (the venue never under-collects) and stays between 0 and the undiscounted fee.
 */
export function discountedFee(fee: bigint, bps: number): bigint {
  if (fee <= 0n || bps <= 0) return fee;
  return fee - (fee * BigInt(bps)) / BigInt(BPS_MAX);
}
