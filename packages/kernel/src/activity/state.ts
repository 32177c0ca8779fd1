// The activity slice of kernel state, and the promotion system accounts.

import { accountOf, openOwner, ownerOf } from "../ledger/accounts.ts";
import type { Account } from "../ledger/state.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import type { ReservationStatus } from "./types.ts";

export interface Activity {
  activityId: string;
  mode: Mode;
  assetId: string;
  minDeposit: bigint;
  bonus: bigint;
  capacity: number;
  startsAtMs: number;
  endsAtMs: number;
  /** Reservations that are reserved or paid (lapsed ones free their place). */
  taken: number;
}

export interface Reservation {
  reservationId: string;
  activityId: string;
  ownerId: string;
  mode: Mode;
  status: ReservationStatus;
  bonus: bigint;
  reservedAtMs: number;
  /** The qualifying deposit must come before this time; then the reservation lapses. */
  dueMs: number;
}

export interface ActivityState {
  activities: Map<string, Activity>;
  reservations: Map<string, Reservation>;
  /** `mode|ownerId` → that owner's reservation ids, oldest first (rebuilt on restore). */
  byOwner: Map<string, string[]>;
}

export function createActivityState(): ActivityState {
  return { activities: new Map(), reservations: new Map(), byOwner: new Map() };
}

/** A week: the time a reservation waits for its qualifying deposit. */
export const DEPOSIT_WINDOW_MS = 7 * 86_400_000;
export const ACTIVITY_CAPACITY_MAX = 1_000_000;
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export const promotionOwners = {
  /** The operator's funded promotion money, not yet reserved. */
  promotion: "system:promotion",
  /** Bonuses reserved for open reservations. */
  reserve: "system:promotion_reserve",
} as const;

/** A promotion account (opened, at zero, on first use, so unused kernels hash as before). */
export function promotionAccount(
  state: KernelState,
  mode: Mode,
  name: keyof typeof promotionOwners,
  assetId: string,
): Account {
  const id = promotionOwners[name];
  const owner = ownerOf(state, mode, id) ?? openOwner(state, id, mode);
  return accountOf(state, owner, "fund", assetId);
}

/** A promotion account's available balance, opening nothing (zero if never used). */
export function promotionBalance(
  state: KernelState,
  mode: Mode,
  name: keyof typeof promotionOwners,
  assetId: string,
): bigint {
  return ownerOf(state, mode, promotionOwners[name])?.fund.get(assetId)?.available ?? 0n;
}

export function ownerKey(mode: Mode, ownerId: string): string {
  return mode + "|" + ownerId;
}
