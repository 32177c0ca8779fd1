import { randomUUID } from "node:crypto";
import type { ActivityView, OperatorActivityView, PromotionBalanceView } from "@candor/contract";
import {
  ACTIVITY_DEPOSIT_WINDOW_MS,
  formatAmount,
  getAssets,
  parseAmount,
  promotionBalance,
  type Activity,
  type KernelState,
  type Mode,
} from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import { ensureAccounts, submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";

const DAY_MS = 86_400_000;

/** An activity as one user sees it, from the kernel's state. */
export function activityView(
  state: KernelState,
  activity: Activity,
  ownerId: string,
  nowMs: number,
): ActivityView {
  const scale = getAssets(state).find((a) => a.assetId === activity.assetId)?.scale ?? 0;
  const mine = (state.activity.byOwner.get(activity.mode + "|" + ownerId) ?? [])
    .map((id) => state.activity.reservations.get(id)!)
    .filter((r) => r.activityId === activity.activityId);
  const latest = mine[mine.length - 1];
  const open = nowMs >= activity.startsAtMs && nowMs < activity.endsAtMs;
  const stateOf = (): ActivityView["state"] => {
    if (latest?.status === "reserved") return "reserved";
    if (latest?.status === "paid") return "ended";
    if (nowMs < activity.startsAtMs) return "upcoming";
    return open && activity.taken < activity.capacity ? "bookable" : "ended";
  };
  return {
    activityId: activity.activityId,
    mode: activity.mode,
    asset: activity.assetId,
    minDeposit: formatAmount(activity.minDeposit, scale),
    bonus: formatAmount(activity.bonus, scale),
    capacity: activity.capacity,
    remaining: activity.capacity - activity.taken,
    startsAt: new Date(activity.startsAtMs).toISOString(),
    endsAt: new Date(activity.endsAtMs).toISOString(),
    depositDays: ACTIVITY_DEPOSIT_WINDOW_MS / DAY_MS,
    state: stateOf(),
    reservation:
      latest === undefined
        ? null
        : {
            reservationId: latest.reservationId,
            status: latest.status,
            dueAt: new Date(latest.dueMs).toISOString(),
          },
  };
}

/** Deposit-bonus activities over the kernel (no read model: the kernel holds them all). */
export class ActivitiesService {
  constructor(
    private readonly engine: EngineSubmitQuery | undefined,
    private readonly now: () => number,
  ) {}

  private requireEngine(): EngineSubmitQuery {
    if (!this.engine) throw new AppError("service_unavailable");
    return this.engine;
  }

  list(ownerId: string, mode: Mode): { activities: ActivityView[] } {
    if (!this.engine) return { activities: [] };
    const now = this.now();
    return this.engine.query((state) => ({
      activities: [...state.activity.activities.values()]
        .filter((a) => a.mode === mode)
        .sort((a, b) => b.startsAtMs - a.startsAtMs || (a.activityId < b.activityId ? -1 : 1))
        .map((a) => activityView(state, a, ownerId, now)),
    }));
  }

  /**
   * Operator: every activity of both modes with its places and reservations, and the promotion
   * balances (available and reserved) of each mode and asset an activity uses.
   */
  operatorList(): { activities: OperatorActivityView[]; promotion: PromotionBalanceView[] } {
    if (!this.engine) return { activities: [], promotion: [] };
    const now = this.now();
    return this.engine.query((state) => {
      const counts = new Map<string, { reserved: number; paid: number }>();
      for (const r of state.activity.reservations.values()) {
        const count = counts.get(r.activityId) ?? { reserved: 0, paid: 0 };
        if (r.status === "reserved") count.reserved += 1;
        if (r.status === "paid") count.paid += 1;
        counts.set(r.activityId, count);
      }
      const scaleOf = (assetId: string) =>
        getAssets(state).find((a) => a.assetId === assetId)?.scale ?? 0;
      const activities = [...state.activity.activities.values()].sort(
        (a, b) =>
          (a.mode < b.mode ? 1 : a.mode > b.mode ? -1 : 0) ||
          b.startsAtMs - a.startsAtMs ||
          (a.activityId < b.activityId ? -1 : 1),
      );
      const pairs = new Map<string, { mode: Mode; asset: string }>();
      for (const a of activities)
        pairs.set(`${a.mode}|${a.assetId}`, { mode: a.mode, asset: a.assetId });
      return {
        activities: activities.map((a) => {
          const scale = scaleOf(a.assetId);
          const count = counts.get(a.activityId) ?? { reserved: 0, paid: 0 };
          const status: OperatorActivityView["status"] =
            now < a.startsAtMs
              ? "upcoming"
              : now >= a.endsAtMs
                ? "ended"
                : a.taken >= a.capacity
                  ? "full"
                  : "open";
          return {
            activityId: a.activityId,
            mode: a.mode,
            asset: a.assetId,
            minDeposit: formatAmount(a.minDeposit, scale),
            bonus: formatAmount(a.bonus, scale),
            capacity: a.capacity,
            remaining: a.capacity - a.taken,
            reservedCount: count.reserved,
            paidCount: count.paid,
            startsAt: new Date(a.startsAtMs).toISOString(),
            endsAt: new Date(a.endsAtMs).toISOString(),
            status,
          };
        }),
        promotion: [...pairs.values()].map(({ mode, asset }) => ({
          mode,
          asset,
          available: formatAmount(
            promotionBalance(state, mode, "promotion", asset),
            scaleOf(asset),
          ),
          reserved: formatAmount(promotionBalance(state, mode, "reserve", asset), scaleOf(asset)),
        })),
      };
    });
  }

  private one(activityId: string, ownerId: string): ActivityView {
    const now = this.now();
    const view = this.requireEngine().query((state) => {
      const activity = state.activity.activities.get(activityId);
      return activity && activityView(state, activity, ownerId, now);
    });
    if (view === undefined) throw new AppError("activity_not_found");
    return view;
  }

  async reserve(
    ownerId: string,
    mode: Mode,
    input: { activityId: string; requestId: string },
  ): Promise<{ activity: ActivityView }> {
    const engine = this.requireEngine();
    await ensureAccounts(engine, ownerId, mode);
    const reservationId = `${ownerId}.${input.requestId}`.slice(0, 64);
    const applied = await submit(engine, {
      type: "activity_reserve",
      id: `activity-reserve-${ownerId}-${input.requestId}`,
      activityId: input.activityId,
      ownerId,
      mode,
      reservationId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { activity: this.one(input.activityId, ownerId) };
  }

  private scaleOf(assetId: string): number {
    const scale = this.requireEngine()
      .query((s) => getAssets(s))
      .find((a) => a.assetId === assetId)?.scale;
    if (scale === undefined) throw new AppError("asset_not_found");
    return scale;
  }

  private parse(text: string, scale: number): bigint {
    const parsed = parseAmount(text, scale);
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    return parsed.value;
  }

  /** Operator: defines an activity (through the kernel; an id is defined once). */
  async define(
    input: {
      activityId: string;
      mode: Mode;
      asset: string;
      minDeposit: string;
      bonus: string;
      capacity: number;
      startsAt: string;
      endsAt: string;
      reason: string;
    },
    operatorId: string,
  ): Promise<{ activity: ActivityView }> {
    const engine = this.requireEngine();
    const scale = this.scaleOf(input.asset);
    const applied = await submit(engine, {
      type: "activity_define",
      // A refused definition may be corrected and sent again: an id per request.
      id: `activity-define-${input.activityId}-${randomUUID()}`,
      activityId: input.activityId,
      mode: input.mode,
      assetId: input.asset,
      minDeposit: this.parse(input.minDeposit, scale),
      bonus: this.parse(input.bonus, scale),
      capacity: input.capacity,
      startsAtMs: Date.parse(input.startsAt),
      endsAtMs: Date.parse(input.endsAt),
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { activity: this.one(input.activityId, "") };
  }

  /** Operator: funds the mode's promotion account. */
  async fund(
    input: {
      id: string;
      mode: Mode;
      asset: string;
      amount: string;
      reference?: string;
      reason: string;
    },
    operatorId: string,
  ): Promise<{ mode: Mode; asset: string; promotionAvailable: string }> {
    const engine = this.requireEngine();
    const scale = this.scaleOf(input.asset);
    const amount = this.parse(input.amount, scale);
    if (input.mode === "real" && input.reference === undefined) {
      throw new AppError("validation_failed");
    }
    const applied = await submit(engine, {
      type: "activity_fund",
      id: `activity-fund-${input.id}`,
      mode: input.mode,
      assetId: input.asset,
      amount,
      reference: input.reference ?? null,
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const available = engine.query((s) =>
      promotionBalance(s, input.mode, "promotion", input.asset),
    );
    return {
      mode: input.mode,
      asset: input.asset,
      promotionAvailable: formatAmount(available, scale),
    };
  }
}
