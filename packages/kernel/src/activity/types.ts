// Deposit-bonus activities (issue 23): the operator defines an activity (a fixed bonus for a
// qualifying deposit, a capacity and a booking window) and funds the mode's promotion account;
// a user reserves a place, which moves the bonus from the promotion account into the promotion
// reserve at once (refused when the promotion account is short); a qualifying deposit within a
// week pays the reserved bonus; otherwise a scheduled lapse returns it to the promotion account.

import type { CommandBase, Mode, NoValue } from "../types.ts";

/** Defines an activity; an id is defined once. */
export interface ActivityDefineCommand extends CommandBase {
  type: "activity_define";
  activityId: string;
  mode: Mode;
  assetId: string;
  /** The smallest deposit (smallest units) that qualifies. */
  minDeposit: bigint;
  /** The bonus paid for a qualifying deposit (smallest units). */
  bonus: bigint;
  /** How many reservations the activity takes (reserved and paid ones count). */
  capacity: number;
  /** Reservations are taken from `startsAtMs` until before `endsAtMs`. */
  startsAtMs: number;
  endsAtMs: number;
  operatorId: string | null;
}

/**
 * Funds the mode's promotion account: real money arrives from outside (with a reference), demo
 * money comes from the demo faucet.
 */
export interface ActivityFundCommand extends CommandBase {
  type: "activity_fund";
  mode: Mode;
  assetId: string;
  amount: bigint;
  reference: string | null;
  operatorId: string | null;
}

/** Reserves a place in an activity for an owner; the bonus is reserved at once. */
export interface ActivityReserveCommand extends CommandBase {
  type: "activity_reserve";
  activityId: string;
  ownerId: string;
  mode: Mode;
  reservationId: string;
}

export type ReservationStatus = "reserved" | "paid" | "lapsed";

export interface ActivityDefinedEvent {
  type: "activity_defined";
  activityId: string;
  mode: Mode;
  assetId: string;
  minDeposit: bigint;
  bonus: bigint;
  capacity: number;
  startsAtMs: number;
  endsAtMs: number;
  operatorId: string | null;
}

export interface ActivityFundedEvent {
  type: "activity_funded";
  mode: Mode;
  assetId: string;
  amount: bigint;
  promotionAvailable: bigint;
  reference: string | null;
  operatorId: string | null;
}

/** A reservation changed: reserved, paid (bonus to the owner) or lapsed (bonus returned). */
export interface ActivityReservationEvent {
  type: "activity_reservation";
  reservationId: string;
  activityId: string;
  ownerId: string;
  mode: Mode;
  status: ReservationStatus;
  bonus: bigint;
  dueMs: number;
  atMs: number;
}

declare module "../types.ts" {
  interface CommandMap {
    activity_define: ActivityDefineCommand;
    activity_fund: ActivityFundCommand;
    activity_reserve: ActivityReserveCommand;
  }
  interface ResultMap {
    activity_define: NoValue;
    activity_fund: NoValue;
    activity_reserve: NoValue;
  }
  interface EventMap {
    activity_defined: ActivityDefinedEvent;
    activity_funded: ActivityFundedEvent;
    activity_reservation: ActivityReservationEvent;
  }
}
