// A slow reference of VIP levels for the property test: every configured level and every fill's
// volume kept as a plain list (never pruned), the 30-day volume summed from scratch, the level
// and the discounted fee recomputed for each fill. Volume conditions only (balances move inside
// a command between fills; the balance condition is hand-checked in vip.test.ts).

import type { Mode } from "../types.ts";

interface RefLevel {
  level: number;
  minVolume: bigint;
  feeDiscountBps: number;
}

export class VipReference {
  levels = new Map<string, RefLevel>(); // `mode|level`
  trades: { mode: Mode; ownerId: string; day: number; amount: bigint }[] = [];

  /** Mirrors vip_configure for volume-only levels in USDT; returns whether it is accepted. */
  configure(mode: Mode, level: number, minVolume: bigint, bps: number, remove: boolean): boolean {
    if (!Number.isInteger(level) || level < 0 || level > 10) return false;
    const key = mode + "|" + level;
    if (remove) {
      if (!this.levels.has(key)) return false;
      this.levels.delete(key);
    } else {
      if (bps < 0 || bps > 10_000 || minVolume < 0n) return false;
      if (level === 0 ? minVolume !== 0n : minVolume === 0n) return false;
      this.levels.set(key, { level, minVolume, feeDiscountBps: bps });
    }
    if (![...this.levels.keys()].some((k) => k.startsWith(mode + "|"))) {
      this.trades = this.trades.filter((t) => t.mode !== mode);
    }
    return true;
  }

  volume(mode: Mode, ownerId: string, today: number): bigint {
    let sum = 0n;
    for (const t of this.trades) {
      if (t.mode === mode && t.ownerId === ownerId && t.day > today - 30 && t.day <= today) {
        sum += t.amount;
      }
    }
    return sum;
  }

  discountBps(mode: Mode, ownerId: string, today: number): number {
    const volume = this.volume(mode, ownerId, today);
    let bps = 0;
    for (let level = 0; level <= 10; level++) {
      const l = this.levels.get(mode + "|" + level);
      if (l !== undefined && (level === 0 || volume >= l.minVolume)) bps = l.feeDiscountBps;
    }
    return bps;
  }

  /** The fee paid: the undiscounted fee less floor(fee × bps / 10,000). */
  fee(mode: Mode, ownerId: string, today: number, undiscounted: bigint): bigint {
    const bps = this.discountBps(mode, ownerId, today);
    return undiscounted - (undiscounted * BigInt(bps)) / 10_000n;
  }

  trade(mode: Mode, ownerId: string, day: number, amount: bigint): void {
    if (![...this.levels.keys()].some((k) => k.startsWith(mode + "|"))) return;
    this.trades.push({ mode, ownerId, day, amount });
  }
}
