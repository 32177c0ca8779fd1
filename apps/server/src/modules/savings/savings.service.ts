import {
  MiningHardware,
  type DefineSavingsPlanBody,
  type SavingsPlanView,
  type SavingsSubscriptionView,
} from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getNowMs,
  getSavingsActiveSubscriptions,
  getSavingsPlanStatus,
  getSavingsPlans,
  getSavingsSubscription,
  getSavingsYieldAvailable,
  parseAmount,
  SAVINGS_DAY_MS,
  type Command,
  type Event,
  type KernelState,
  type Mode,
  type SavingsPlanView as KernelPlan,
  type SavingsSubscriptionView as KernelSubscription,
} from "@candor/kernel";
import type { CandorApplied, CandorCommand, CandorFirst } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { SavingsRepository } from "./savings.repository.ts";

/** What the savings module needs from the engine. */
export interface SavingsEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  recall(id: string): CandorFirst | undefined;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

export interface SavingsSession {
  ownerId: string;
  mode: Mode;
}

export interface SavingsServiceOptions {
  engine: SavingsEngine;
  repository: Pick<SavingsRepository, "ended" | "subscription">;
  now: () => number;
  /**
   * Demo only: the demo yield account is topped up from the demo faucet to this many whole
   * units of an asset when a demo subscription finds it short. Demo money, never real.
   */
  yieldDemoFunding?: Readonly<Record<string, string>>;
}

type SubscribeCommand = Extract<Command, { type: "savings_subscribe" }>;

const recentMax = 10_000;

/** The kernel's daily rate (10⁻⁸ a day) ↔ percent a day with 6 decimals: the same integer. */
const RATE_PERCENT_SCALE = 6;

/**
 * Savings plans and mining products: plans with their reserve, subscriptions through the
 * journal (the kernel reserves the whole promise or refuses), the user's subscriptions (active
 * ones from the kernel, ended ones from the read model, the latest endings from memory while the
 * read model catches up), early redemption, and the operator's plan and funding commands.
 */
export class SavingsService {
  private readonly recent = new Map<string, KernelSubscription>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SavingsServiceOptions) {
    this.unsubscribe = options.engine.subscribe((applied) => {
      for (const event of applied.events) {
        if (event.type !== "savings_subscription_ended") continue;
        this.recent.set(event.subscription.subscriptionId, event.subscription);
        if (this.recent.size > recentMax) this.recent.delete(this.recent.keys().next().value!);
      }
    });
  }

  stop(): void {
    this.unsubscribe();
  }

  private scaleOf(assetId: string): number {
    const asset = this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId);
    return asset?.scale ?? 0;
  }

  plans(mode: Mode, kind?: "savings" | "mining"): SavingsPlanView[] {
    return this.options.engine.query((state) =>
      getSavingsPlans(state)
        .filter((p) => kind === undefined || p.kind === kind)
        .map((p) => this.planView(state, p, mode)),
    );
  }

  private planView(state: KernelState, p: KernelPlan, mode: Mode): SavingsPlanView {
    const scale = getAssets(state).find((a) => a.assetId === p.assetId)?.scale ?? 0;
    const money = (v: bigint) => formatAmount(v, scale);
    const status = getSavingsPlanStatus(state, p.planId, mode)!;
    return {
      planId: p.planId,
      kind: p.kind,
      name: p.name,
      hardware: p.kind === "mining" ? hardwareOf(p.details) : null,
      asset: p.assetId,
      assetDecimals: scale,
      cycleDays: p.cycleDays,
      dailyRatePercent: formatAmount(BigInt(p.dailyRateE8), RATE_PERCENT_SCALE),
      dailyRateE8: p.dailyRateE8,
      startDelayS: Math.floor(p.startDelayMs / 1_000),
      amountMin: money(p.amountMin),
      amountMax: money(p.amountMax),
      amountStep: money(p.amountStep),
      capacity: money(p.capacity),
      earlyRedemption: p.earlyRedemption,
      earlyPenaltyBps: p.earlyPenaltyBps,
      open: p.open,
      mode,
      subscribed: money(status.subscribed),
      capacityLeft: money(status.capacityLeft),
      reserved: money(status.reserved),
      reserveTotal: money(status.reserveTotal),
      yieldAvailable: money(status.yieldAvailable),
      soldOut: status.soldOut,
    };
  }

  async subscribe(
    session: SavingsSession,
    input: { requestId: string; planId: string; amount: string },
  ): Promise<{ subscription: SavingsSubscriptionView; duplicate: boolean }> {
    const engine = this.options.engine;
    const plan = engine.query((s) => getSavingsPlans(s)).find((p) => p.planId === input.planId);
    if (!plan) throw new AppError("savings_plan_not_found");
    const amount = parseAmount(input.amount, this.scaleOf(plan.assetId));
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    const command: Omit<SubscribeCommand, "atMs"> = {
      type: "savings_subscribe",
      // No colons: the id travels in paths (`/subscriptions/:subscriptionId/redeem`).
      id: `savings-${session.ownerId}-${input.requestId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      planId: plan.planId,
      amount: amount.value,
    };
    const first = engine.recall(command.id);
    if (first) {
      const c = first.command;
      if (
        c.type !== "savings_subscribe" ||
        c.mode !== command.mode ||
        c.planId !== command.planId ||
        c.amount !== command.amount
      ) {
        throw new AppError("client_order_id_reused");
      }
      const made = subscribedOf(first.events);
      if (!first.result.ok || !made) {
        throw new AppError(errorCodeOf(first.result.ok ? "command_malformed" : first.result.code));
      }
      return { subscription: this.view(this.latest(made)), duplicate: true };
    }
    const known =
      engine.query((s) => getSavingsSubscription(s, command.id)) ??
      (await this.options.repository.subscription(command.id));
    if (known) {
      if (
        known.mode !== command.mode ||
        known.planId !== command.planId ||
        known.amount !== command.amount
      ) {
        throw new AppError("client_order_id_reused");
      }
      return { subscription: this.view(this.latest(known)), duplicate: true };
    }
    await ensureAccounts(engine, session.ownerId, session.mode);
    if (session.mode === "demo") await this.topUpDemoYield(plan);
    const applied = await submit(engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const made =
      subscribedOf(applied.events) ?? (applied.first && subscribedOf(applied.first.events));
    if (!made) throw new AppError("service_unavailable");
    return { subscription: this.view(this.latest(made)), duplicate: applied.duplicate };
  }

  /** The newest state of a subscription (it may have been paid or ended since). */
  private latest(s: KernelSubscription): KernelSubscription {
    return (
      this.options.engine.query((state) => getSavingsSubscription(state, s.subscriptionId)) ??
      this.recent.get(s.subscriptionId) ??
      s
    );
  }

  async list(session: SavingsSession, limit: number): Promise<SavingsSubscriptionView[]> {
    const active = this.options.engine.query((s) =>
      getSavingsActiveSubscriptions(s, session.ownerId, session.mode),
    );
    const ended = await this.options.repository.ended(session.ownerId, session.mode, limit);
    const seen = new Set(active.map((s) => s.subscriptionId));
    // Endings the read model has not written yet come from memory.
    const recent = [...this.recent.values()]
      .filter((s) => s.ownerId === session.ownerId && s.mode === session.mode)
      .reverse();
    const out: KernelSubscription[] = [...active];
    for (const s of [...recent, ...ended]) {
      if (seen.has(s.subscriptionId)) continue;
      seen.add(s.subscriptionId);
      out.push(s);
    }
    return out.slice(0, limit).map((s) => this.view(s));
  }

  async redeemEarly(
    session: SavingsSession,
    subscriptionId: string,
  ): Promise<SavingsSubscriptionView> {
    const active = this.options.engine.query((s) => getSavingsSubscription(s, subscriptionId));
    // Another user's subscription answers like a missing one: ids reveal nothing.
    if (!active || active.ownerId !== session.ownerId || active.mode !== session.mode) {
      throw new AppError("savings_subscription_not_found");
    }
    const nowMs = this.options.engine.query((s) => getNowMs(s));
    const applied = await submit(this.options.engine, {
      type: "savings_redeem_early",
      id: `savings-redeem-${subscriptionId}-${nowMs}`,
      ownerId: session.ownerId,
      mode: session.mode,
      subscriptionId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const ended = applied.events.find((e) => e.type === "savings_subscription_ended");
    if (!ended) throw new AppError("service_unavailable");
    return this.view(ended.subscription);
  }

  /** Operator: a plan's terms (later subscriptions only). */
  async definePlan(
    body: DefineSavingsPlanBody,
    suffix: string,
    operatorId: string,
  ): Promise<SavingsPlanView> {
    const scale = this.options.engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === body.asset)?.scale;
    if (scale === undefined) throw new AppError("asset_not_found");
    const applied = await submit(this.options.engine, planCommand(body, scale, suffix, operatorId));
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const plan = this.plans("real").find((p) => p.planId === body.planId);
    if (!plan) throw new AppError("internal_error");
    return plan;
  }

  /** Operator: money into the yield account (real: from outside, with a reference). */
  async fundYield(
    input: {
      id: string;
      mode: Mode;
      asset: string;
      amount: string;
      reference?: string;
    },
    operatorId: string,
  ): Promise<{ mode: Mode; asset: string; yieldAvailable: string }> {
    const scale = this.options.engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === input.asset)?.scale;
    if (scale === undefined) throw new AppError("asset_not_found");
    const amount = parseAmount(input.amount, scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    if (input.mode === "real" && input.reference === undefined) {
      throw new AppError("validation_failed");
    }
    const applied = await submit(this.options.engine, {
      type: "savings_fund_yield",
      id: `savings-fund-${input.id}`,
      mode: input.mode,
      assetId: input.asset,
      amount: amount.value,
      reference: input.reference ?? null,
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const available = this.options.engine.query((s) =>
      getSavingsYieldAvailable(s, input.mode, input.asset),
    );
    return { mode: input.mode, asset: input.asset, yieldAvailable: formatAmount(available, scale) };
  }

  /** Start-up: defines the deployment's plans that the kernel does not have yet. */
  async setup(plans: readonly DefineSavingsPlanBody[]): Promise<void> {
    const engine = this.options.engine;
    const have = new Set(engine.query((s) => getSavingsPlans(s)).map((p) => p.planId));
    const assets = engine.query((s) => getAssets(s));
    for (const body of plans) {
      if (have.has(body.planId)) continue;
      const scale = assets.find((a) => a.assetId === body.asset)?.scale;
      if (scale === undefined) continue;
      await submit(engine, planCommand(body, scale, "setup", "config"));
      // Demo plans are demo money from the start: the demo yield account is topped up with the
      // definition (real yield waits for the operator's funding; until then real shows sold out).
      const plan = engine.query((s) => getSavingsPlans(s)).find((p) => p.planId === body.planId);
      if (plan) await this.topUpDemoYield(plan);
    }
  }

  private async topUpDemoYield(plan: KernelPlan): Promise<void> {
    const text = (this.options.yieldDemoFunding ?? { USDT: "1000000" })[plan.assetId];
    if (text === undefined) return;
    const target = parseAmount(text, this.scaleOf(plan.assetId));
    if (!target.ok) return;
    const { available, nowMs } = this.options.engine.query((s) => ({
      available: getSavingsYieldAvailable(s, "demo", plan.assetId),
      nowMs: getNowMs(s),
    }));
    if (available * 2n >= target.value) return;
    const applied = await submit(this.options.engine, {
      type: "savings_fund_yield",
      id: `savings-fund-demo-${plan.assetId}-${nowMs}`,
      mode: "demo",
      assetId: plan.assetId,
      amount: target.value - available,
      reference: "demo-top-up",
      operatorId: "config",
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
  }

  view(s: KernelSubscription): SavingsSubscriptionView {
    const scale = this.scaleOf(s.assetId);
    const money = (v: bigint) => formatAmount(v, scale);
    const plan = this.options.engine
      .query((state) => getSavingsPlans(state))
      .find((p) => p.planId === s.planId);
    const nowMs = this.options.now();
    const active = s.status === "active";
    return {
      subscriptionId: s.subscriptionId,
      mode: s.mode,
      planId: s.planId,
      planName: plan?.name ?? s.planId,
      kind: s.kind,
      asset: s.assetId,
      amount: money(s.amount),
      quantity: s.kind === "mining" && plan ? String(s.amount / plan.amountStep) : null,
      cycleDays: s.cycleDays,
      dailyRatePercent: formatAmount(BigInt(s.dailyRateE8), RATE_PERCENT_SCALE),
      subscribedAtMs: s.subscribedAtMs,
      startMs: s.startMs,
      maturityMs: s.maturityMs,
      nextPayoutAtMs: active ? s.startMs + (s.paidDays + 1) * SAVINGS_DAY_MS : null,
      remainingDays: active ? s.cycleDays - s.paidDays : 0,
      expectedProfit: money(s.interestTotal),
      cumulativeProfit: money(s.interestPaid),
      dailyProfit: money(s.interestTotal / BigInt(s.cycleDays)),
      paidDays: s.paidDays,
      state: active
        ? nowMs < s.startMs
          ? "pending"
          : "in_progress"
        : s.status === "ended"
          ? "ended"
          : "early_redeemed",
      earlyRedemption: s.earlyRedemption,
      earlyPenaltyBps: s.earlyPenaltyBps,
      endedAtMs: s.endedAtMs,
      principalReturned: s.principalReturned === null ? null : money(s.principalReturned),
      interestForfeited: s.interestForfeited === null ? null : money(s.interestForfeited),
      penalty: s.penalty === null ? null : money(s.penalty),
    };
  }
}

function hardwareOf(details: string): SavingsPlanView["hardware"] {
  try {
    const parsed = MiningHardware.safeParse(JSON.parse(details));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function planCommand(
  body: DefineSavingsPlanBody,
  scale: number,
  suffix: string,
  operatorId: string,
): CandorCommand {
  const amount = (text: string) => {
    const parsed = parseAmount(text, scale);
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    return parsed.value;
  };
  const rate = parseAmount(body.dailyRatePercent, RATE_PERCENT_SCALE);
  if (!rate.ok) throw new AppError(errorCodeOf(rate.code));
  if (rate.value > 5_000_000n) throw new AppError("command_rejected");
  return {
    type: "savings_define_plan",
    id: `savings-plan-${body.planId}-${suffix}`,
    planId: body.planId,
    kind: body.kind,
    name: body.name,
    details: body.kind === "mining" && body.hardware ? JSON.stringify(body.hardware) : "",
    assetId: body.asset,
    cycleDays: body.cycleDays,
    dailyRateE8: Number(rate.value),
    startDelayMs: (body.startDelayS ?? 0) * 1_000,
    amountMin: amount(body.amountMin),
    amountMax: amount(body.amountMax),
    amountStep: amount(body.amountStep),
    capacity: amount(body.capacity),
    earlyRedemption: body.earlyRedemption,
    earlyPenaltyBps: body.earlyPenaltyBps ?? 0,
    open: body.open,
    operatorId,
  };
}

function subscribedOf(events: readonly Event[]): KernelSubscription | undefined {
  for (const e of events) if (e.type === "savings_subscribed") return e.subscription;
  return undefined;
}
