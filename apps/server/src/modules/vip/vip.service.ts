import { randomUUID } from "node:crypto";
import type { VipLevelView, VipMe } from "@candor/contract";
import {
  formatAmount,
  getAssets,
  vipAsset,
  vipBalance,
  vipLevelOf,
  vipLevels,
  vipVolume,
  vipWithdrawnToday,
  type KernelState,
  type Mode,
  type VipLevel,
} from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { submit } from "../../engine/submit.ts";
import { assetAmountParser } from "../../engine/asset-amount.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";

/**
 * Progress towards `target` in basis points (0–10,000), in integers: floor(have × 10,000 /
 * target), capped. A threshold of 0 is not a condition (no progress from it).
 */
export function progressBps(have: bigint, target: bigint): number {
  if (target <= 0n) return 0;
  if (have >= target) return 10_000;
  return Number((have * 10_000n) / target);
}

function levelView(level: VipLevel, scale: number): VipLevelView {
  return {
    level: level.level,
    minVolume: formatAmount(level.minVolume, scale),
    minBalance: formatAmount(level.minBalance, scale),
    feeDiscountBps: level.feeDiscountBps,
    withdrawDailyLimit:
      level.withdrawDailyLimit === 0n ? null : formatAmount(level.withdrawDailyLimit, scale),
  };
}

/** The user's VIP level and progress, read from the kernel; the operator's configuration. */
export class VipService {
  constructor(
    private readonly engine: EngineSubmitQuery | undefined,
    private readonly now: () => number,
  ) {}

  private scaleOf(state: KernelState, assetId: string | null): number {
    if (assetId === null) return 0;
    return getAssets(state).find((a) => a.assetId === assetId)?.scale ?? 0;
  }

  me(ownerId: string, mode: Mode): VipMe {
    const empty: VipMe = {
      mode,
      asset: null,
      volume30d: "0",
      balance: "0",
      level: null,
      withdrawnToday: "0",
      levels: [],
      next: null,
    };
    if (!this.engine) return empty;
    return this.engine.query((state) => {
      const asset = vipAsset(state, mode);
      if (asset === null) return empty;
      const scale = this.scaleOf(state, asset);
      const levels = vipLevels(state, mode);
      const volume = vipVolume(state, mode, ownerId);
      const balance = vipBalance(state, mode, ownerId, asset);
      const current = vipLevelOf(state, mode, ownerId);
      const next = levels.find((l) => l.level > (current?.level ?? -1)) ?? null;
      const missing = (have: bigint, target: bigint) =>
        target > 0n ? formatAmount(have >= target ? 0n : target - have, scale) : null;
      return {
        mode,
        asset,
        volume30d: formatAmount(volume, scale),
        balance: formatAmount(balance, scale),
        level: current?.level ?? null,
        withdrawnToday: formatAmount(vipWithdrawnToday(state, mode, ownerId), scale),
        levels: levels.map((l) => levelView(l, scale)),
        next:
          next === null
            ? null
            : {
                level: next.level,
                volumeNeeded: missing(volume, next.minVolume),
                balanceNeeded: missing(balance, next.minBalance),
                progressBps: Math.max(
                  progressBps(volume, next.minVolume),
                  progressBps(balance, next.minBalance),
                ),
              },
      };
    });
  }

  /** Operator: every mode's levels (real, then demo). */
  operatorLevels(): {
    modes: { mode: Mode; asset: string | null; levels: VipLevelView[] }[];
  } {
    const modes: Mode[] = ["real", "demo"];
    const engine = this.engine;
    if (!engine) return { modes: modes.map((mode) => ({ mode, asset: null, levels: [] })) };
    return engine.query((state) => ({
      modes: modes.map((mode) => {
        const asset = vipAsset(state, mode);
        const scale = this.scaleOf(state, asset);
        return { mode, asset, levels: vipLevels(state, mode).map((l) => levelView(l, scale)) };
      }),
    }));
  }

  /** Operator: sets or removes one level (through the kernel). */
  async configure(
    input: {
      mode: Mode;
      level: number;
      asset: string;
      minVolume: string;
      minBalance: string;
      feeDiscountBps: number;
      withdrawDailyLimit: string;
      remove: boolean;
      reason: string;
    },
    operatorId: string | null,
  ): Promise<{ mode: Mode; asset: string | null; levels: VipLevelView[] }> {
    const engine = this.engine;
    if (!engine) throw new AppError("service_unavailable");
    const parse = assetAmountParser(engine, input.asset);
    const applied = await submit(engine, {
      type: "vip_configure",
      // Each change is its own command (an id per request; the journal dedupes ids).
      id: `vip-configure-${input.mode}-${input.level}-${this.now()}-${randomUUID()}`,
      mode: input.mode,
      level: input.level,
      assetId: input.asset,
      minVolume: parse(input.minVolume),
      minBalance: parse(input.minBalance),
      feeDiscountBps: input.feeDiscountBps,
      withdrawDailyLimit: parse(input.withdrawDailyLimit),
      remove: input.remove,
      operatorId: operatorId ?? "operator",
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return engine.query((state) => {
      const asset = vipAsset(state, input.mode);
      const assetScale = this.scaleOf(state, asset);
      return {
        mode: input.mode,
        asset,
        levels: vipLevels(state, input.mode).map((l) => levelView(l, assetScale)),
      };
    });
  }
}
