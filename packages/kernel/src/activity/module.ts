// Deposit-bonus activities as a kernel module (type codes 93–95 of the community programmes'
// 90–99). The lapse a week after a reservation is a scheduled entry, not a command.

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { Json, KernelModule } from "../module.ts";
import type { Mode } from "../types.ts";
import {
  activityDefine,
  activityFund,
  activityReserve,
  lapseOwnerReservations,
  runActivityEntry,
} from "./handlers.ts";
import {
  createActivityState,
  ownerKey,
  promotionBalance,
  type ActivityState,
  type Reservation,
} from "./state.ts";
import type { ReservationStatus } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    activity: ActivityState;
  }
}

function sortedValues<V>(map: Map<string, V>): V[] {
  return [...map.entries()].sort((a, b) => compareStrings(a[0], b[0])).map((e) => e[1]);
}

export const activityModule = {
  name: "activity",
  createState: createActivityState,
  commands: {
    activity_define: {
      typeCode: 93,
      fields: [
        ["activityId", "string"],
        ["mode", "mode"],
        ["assetId", "string"],
        ["minDeposit", "bigint"],
        ["bonus", "bigint"],
        ["capacity", "int"],
        ["startsAtMs", "int"],
        ["endsAtMs", "int"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    activity_fund: {
      typeCode: 94,
      fields: [
        ["mode", "mode"],
        ["assetId", "string"],
        ["amount", "bigint"],
        ["reference", "string?"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    activity_reserve: {
      typeCode: 95,
      fields: [
        ["activityId", "string"],
        ["ownerId", "string"],
        ["mode", "mode"],
        ["reservationId", "string"],
      ],
      result: [],
    },
  },
  handlers: {
    activity_define: activityDefine,
    activity_fund: activityFund,
    activity_reserve: activityReserve,
  },
  runScheduled(state, entry) {
    runActivityEntry(state, entry.kind, entry.payload);
  },
  onDemoReset(state, owner) {
    if (owner.mode === "demo") lapseOwnerReservations(state, "demo", owner.ownerId);
    return 0;
  },
  snapshot: {
    write(state) {
      const a = state.activity;
      // No activity ever defined: no field, so such states hash as before.
      if (a.activities.size === 0) return { activity: undefined };
      return {
        activity: [
          sortedValues(a.activities).map((x): Json => [
            x.activityId,
            x.mode,
            x.assetId,
            x.minDeposit.toString(),
            x.bonus.toString(),
            x.capacity,
            x.startsAtMs,
            x.endsAtMs,
            x.taken,
          ]),
          // In order of reservation per owner: `byOwner` is rebuilt from this order.
          [...a.reservations.values()].map((r): Json => [
            r.reservationId,
            r.activityId,
            r.ownerId,
            r.mode,
            r.status,
            r.bonus.toString(),
            r.reservedAtMs,
            r.dueMs,
          ]),
        ],
      };
    },
    read(state, json) {
      const section = json.activity as [Json[][], Json[][]] | undefined;
      if (section === undefined) return;
      const a = state.activity;
      for (const [
        id,
        mode,
        assetId,
        minDeposit,
        bonus,
        capacity,
        starts,
        ends,
        taken,
      ] of section[0]) {
        a.activities.set(id as string, {
          activityId: id as string,
          mode: mode as Mode,
          assetId: assetId as string,
          minDeposit: BigInt(minDeposit as string),
          bonus: BigInt(bonus as string),
          capacity: capacity as number,
          startsAtMs: starts as number,
          endsAtMs: ends as number,
          taken: taken as number,
        });
      }
      for (const [id, activityId, ownerId, mode, status, bonus, reservedAt, due] of section[1]) {
        const reservation: Reservation = {
          reservationId: id as string,
          activityId: activityId as string,
          ownerId: ownerId as string,
          mode: mode as Mode,
          status: status as ReservationStatus,
          bonus: BigInt(bonus as string),
          reservedAtMs: reservedAt as number,
          dueMs: due as number,
        };
        a.reservations.set(reservation.reservationId, reservation);
        const key = ownerKey(reservation.mode, reservation.ownerId);
        a.byOwner.set(key, [...(a.byOwner.get(key) ?? []), reservation.reservationId]);
      }
    },
  },
  checkInvariants(state) {
    const a = state.activity;
    const reserved = new Map<string, bigint>(); // `mode|asset` → bonuses of open reservations
    const taken = new Map<string, number>();
    for (const r of a.reservations.values()) {
      const activity = a.activities.get(r.activityId);
      assert(activity !== undefined, "a reservation of no activity");
      assert(activity.mode === r.mode, "a reservation in another mode than its activity");
      assert(r.bonus === activity.bonus, "a reservation's bonus differs from its activity's");
      assert(r.dueMs > r.reservedAtMs, "a reservation due before it was made");
      if (r.status === "reserved") {
        const key = r.mode + "|" + activity.assetId;
        reserved.set(key, (reserved.get(key) ?? 0n) + r.bonus);
      }
      if (r.status !== "lapsed") taken.set(r.activityId, (taken.get(r.activityId) ?? 0) + 1);
      assert(
        a.byOwner.get(ownerKey(r.mode, r.ownerId))?.includes(r.reservationId) === true,
        "a reservation missing from its owner's index",
      );
    }
    for (const activity of a.activities.values()) {
      assert(activity.taken === (taken.get(activity.activityId) ?? 0), "activity places disagree");
      assert(activity.taken <= activity.capacity, "an activity over its capacity");
      assert(activity.bonus >= 0n && activity.minDeposit >= 0n, "negative activity terms");
      // The reserve holds exactly the bonuses promised to open reservations.
      const key = activity.mode + "|" + activity.assetId;
      assert(
        promotionBalance(state, activity.mode, "reserve", activity.assetId) ===
          (reserved.get(key) ?? 0n),
        "the promotion reserve differs from the open reservations' bonuses",
      );
    }
  },
} satisfies KernelModule;
