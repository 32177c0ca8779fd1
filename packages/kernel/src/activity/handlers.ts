// The activity commands (define, fund, reserve), the qualifying deposit (called by funds when a
// deposit or a demo grant is posted) and the lapse a week after a reservation (scheduled).

import { findOwner, accountOf, systemOwner } from "../ledger/accounts.ts";
import { amountCode, post } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { Handler, Json } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { emit } from "../events.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import {
  ACTIVITY_CAPACITY_MAX,
  DEPOSIT_WINDOW_MS,
  ID_PATTERN,
  ownerKey,
  promotionAccount,
  promotionBalance,
  type Reservation,
} from "./state.ts";

const REFERENCE_PATTERN = /^[\x21-\x7e]{1,128}$/;

export const activityDefine: Handler<"activity_define"> = (state, command) => {
  if (!ID_PATTERN.test(command.activityId)) return fail("activity_id_invalid");
  if (state.activity.activities.has(command.activityId)) return fail("activity_exists");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  for (const amount of [command.minDeposit, command.bonus]) {
    const code = amountCode(asset, amount);
    if (code !== null) return fail(code);
  }
  const { capacity, startsAtMs, endsAtMs } = command;
  if (
    !Number.isSafeInteger(capacity) ||
    capacity < 1 ||
    capacity > ACTIVITY_CAPACITY_MAX ||
    !Number.isSafeInteger(startsAtMs) ||
    !Number.isSafeInteger(endsAtMs) ||
    startsAtMs < 0 ||
    endsAtMs <= startsAtMs
  ) {
    return fail("activity_terms_invalid");
  }
  state.activity.activities.set(command.activityId, {
    activityId: command.activityId,
    mode: command.mode,
    assetId: asset.assetId,
    minDeposit: command.minDeposit,
    bonus: command.bonus,
    capacity,
    startsAtMs,
    endsAtMs,
    taken: 0,
  });
  emit(state, {
    type: "activity_defined",
    activityId: command.activityId,
    mode: command.mode,
    assetId: asset.assetId,
    minDeposit: command.minDeposit,
    bonus: command.bonus,
    capacity,
    startsAtMs,
    endsAtMs,
    operatorId: command.operatorId,
  });
  return DONE;
};

export const activityFund: Handler<"activity_fund"> = (state, command) => {
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.mode === "real" && command.reference === null) return fail("reference_missing");
  if (command.reference !== null && !REFERENCE_PATTERN.test(command.reference)) {
    return fail("reference_invalid");
  }
  // Real money arrives from outside like a deposit; demo money only from the demo faucet.
  const source = systemOwner(
    state,
    command.mode,
    command.mode === "real" ? systemOwners.external : systemOwners.demoFaucet,
  );
  const promotion = promotionAccount(state, command.mode, "promotion", asset.assetId);
  post(state, {
    debit: accountOf(state, source, "fund", asset.assetId),
    credit: promotion,
    amount: command.amount,
    reason: "activity_funding",
    refs: { operatorId: command.operatorId, reference: command.reference ?? undefined },
  });
  emit(state, {
    type: "activity_funded",
    mode: command.mode,
    assetId: asset.assetId,
    amount: command.amount,
    promotionAvailable: promotion.available,
    reference: command.reference,
    operatorId: command.operatorId,
  });
  return DONE;
};

function report(state: KernelState, reservation: Reservation): void {
  emit(state, {
    type: "activity_reservation",
    reservationId: reservation.reservationId,
    activityId: reservation.activityId,
    ownerId: reservation.ownerId,
    mode: reservation.mode,
    status: reservation.status,
    bonus: reservation.bonus,
    dueMs: reservation.dueMs,
    atMs: state.nowMs,
  });
}

export const activityReserve: Handler<"activity_reserve"> = (state, command) => {
  const activity = state.activity.activities.get(command.activityId);
  if (activity === undefined || activity.mode !== command.mode) return fail("activity_not_found");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  if (!ID_PATTERN.test(command.reservationId)) return fail("activity_id_invalid");
  if (state.activity.reservations.has(command.reservationId)) return fail("activity_exists");
  if (state.nowMs < activity.startsAtMs || state.nowMs >= activity.endsAtMs) {
    return fail("activity_not_open");
  }
  if (activity.taken >= activity.capacity) return fail("activity_full");
  const key = ownerKey(command.mode, command.ownerId);
  const mine = state.activity.byOwner.get(key) ?? [];
  // One place per user and activity (a lapsed one may be booked again).
  for (const id of mine) {
    const other = state.activity.reservations.get(id)!;
    if (other.activityId === activity.activityId && other.status !== "lapsed") {
      return fail("activity_already_reserved");
    }
  }
  // The bonus is set aside now: a reservation is never promised money that is not there.
  if (promotionBalance(state, command.mode, "promotion", activity.assetId) < activity.bonus) {
    return fail("activity_promotion_short");
  }
  post(state, {
    debit: promotionAccount(state, command.mode, "promotion", activity.assetId),
    credit: promotionAccount(state, command.mode, "reserve", activity.assetId),
    amount: activity.bonus,
    reason: "activity_reserve",
    refs: { reference: command.reservationId },
  });
  const reservation: Reservation = {
    reservationId: command.reservationId,
    activityId: activity.activityId,
    ownerId: command.ownerId,
    mode: command.mode,
    status: "reserved",
    bonus: activity.bonus,
    reservedAtMs: state.nowMs,
    dueMs: state.nowMs + DEPOSIT_WINDOW_MS,
  };
  state.activity.reservations.set(reservation.reservationId, reservation);
  state.activity.byOwner.set(key, [...mine, reservation.reservationId]);
  activity.taken++;
  scheduleEntry(state, {
    dueMs: reservation.dueMs,
    module: "activity",
    kind: "lapse",
    payload: reservation.reservationId,
  });
  report(state, reservation);
  return DONE;
};

/**
 * A deposit (real) or demo grant of `amount` was just posted to the owner's fund account: the
 * owner's oldest open reservation of that asset whose minimum it meets is paid its bonus out of
 * the promotion reserve. At most one reservation per deposit.
 */
export function activityDeposit(
  state: KernelState,
  owner: OwnerState,
  assetId: string,
  amount: bigint,
): void {
  if (state.activity.reservations.size === 0) return;
  const ids = state.activity.byOwner.get(ownerKey(owner.mode, owner.ownerId));
  if (ids === undefined) return;
  for (const id of ids) {
    const reservation = state.activity.reservations.get(id)!;
    if (reservation.status !== "reserved" || state.nowMs >= reservation.dueMs) continue;
    const activity = state.activity.activities.get(reservation.activityId)!;
    if (activity.assetId !== assetId || amount < activity.minDeposit) continue;
    post(state, {
      debit: promotionAccount(state, owner.mode, "reserve", assetId),
      credit: accountOf(state, owner, "fund", assetId),
      amount: reservation.bonus,
      reason: "activity_bonus",
      refs: { reference: reservation.reservationId },
    });
    reservation.status = "paid";
    report(state, reservation);
    return;
  }
}

/** Returns an open reservation's bonus to the promotion account; its place is free again. */
export function lapseReservation(state: KernelState, reservation: Reservation): void {
  if (reservation.status !== "reserved") return;
  const activity = state.activity.activities.get(reservation.activityId)!;
  post(state, {
    debit: promotionAccount(state, reservation.mode, "reserve", activity.assetId),
    credit: promotionAccount(state, reservation.mode, "promotion", activity.assetId),
    amount: reservation.bonus,
    reason: "activity_release",
    refs: { reference: reservation.reservationId },
  });
  reservation.status = "lapsed";
  activity.taken--;
  report(state, reservation);
}

/** The scheduled lapse: the week is over; an unpaid reservation lapses. */
export function runActivityEntry(state: KernelState, kind: string, payload: Json): void {
  if (kind !== "lapse") return;
  const reservation = state.activity.reservations.get(payload as string);
  if (reservation !== undefined) lapseReservation(state, reservation);
}

/** reset_demo: the demo owner's open reservations lapse (their bonuses go back). */
export function lapseOwnerReservations(state: KernelState, mode: Mode, ownerId: string): void {
  for (const id of state.activity.byOwner.get(ownerKey(mode, ownerId)) ?? []) {
    lapseReservation(state, state.activity.reservations.get(id)!);
  }
}
