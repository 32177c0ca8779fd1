// A slow reference of deposit-bonus activities for the property test: plain maps of activities,
// reservations and the two promotion balances per mode, with the rules written out directly.

import type { Mode } from "../types.ts";

export interface RefActivity {
  id: string;
  mode: Mode;
  minDeposit: bigint;
  bonus: bigint;
  capacity: number;
  startsAtMs: number;
  endsAtMs: number;
}

export interface RefReservation {
  id: string;
  activityId: string;
  ownerId: string;
  mode: Mode;
  status: "reserved" | "paid" | "lapsed";
  dueMs: number;
}

export class ActivityReference {
  activities = new Map<string, RefActivity>();
  reservations: RefReservation[] = [];
  promotion = { real: 0n, demo: 0n };
  reserve = { real: 0n, demo: 0n };
  /** Bonuses paid per `mode|owner`. */
  bonuses = new Map<string, bigint>();

  define(a: RefActivity): boolean {
    if (this.activities.has(a.id) || a.capacity < 1 || a.endsAtMs <= a.startsAtMs) return false;
    if (a.bonus <= 0n || a.minDeposit <= 0n) return false;
    this.activities.set(a.id, a);
    return true;
  }

  fund(mode: Mode, amount: bigint): boolean {
    if (amount <= 0n) return false;
    this.promotion[mode] += amount;
    return true;
  }

  reserve_(id: string, activityId: string, ownerId: string, mode: Mode, now: number): boolean {
    const a = this.activities.get(activityId);
    if (a === undefined || a.mode !== mode) return false;
    if (this.reservations.some((r) => r.id === id)) return false;
    if (now < a.startsAtMs || now >= a.endsAtMs) return false;
    const live = this.reservations.filter((r) => r.activityId === activityId && r.status !== "lapsed"); // prettier-ignore
    if (live.length >= a.capacity) return false;
    if (live.some((r) => r.ownerId === ownerId)) return false;
    if (this.promotion[mode] < a.bonus) return false;
    this.promotion[mode] -= a.bonus;
    this.reserve[mode] += a.bonus;
    this.reservations.push({ id, activityId, ownerId, mode, status: "reserved", dueMs: now + 7 * 86_400_000 }); // prettier-ignore
    return true;
  }

  /** A deposit (real) or grant (demo): pays the oldest open qualifying reservation. */
  deposit(ownerId: string, mode: Mode, amount: bigint, now: number): bigint {
    for (const r of this.reservations) {
      if (r.ownerId !== ownerId || r.mode !== mode || r.status !== "reserved" || now >= r.dueMs) {
        continue;
      }
      const a = this.activities.get(r.activityId)!;
      if (amount < a.minDeposit) continue;
      r.status = "paid";
      this.reserve[mode] -= a.bonus;
      const key = mode + "|" + ownerId;
      this.bonuses.set(key, (this.bonuses.get(key) ?? 0n) + a.bonus);
      return a.bonus;
    }
    return 0n;
  }

  clock(now: number): void {
    for (const r of [...this.reservations].sort((x, y) => x.dueMs - y.dueMs)) {
      if (r.status !== "reserved" || r.dueMs > now) continue;
      const a = this.activities.get(r.activityId)!;
      r.status = "lapsed";
      this.reserve[r.mode] -= a.bonus;
      this.promotion[r.mode] += a.bonus;
    }
  }
}
