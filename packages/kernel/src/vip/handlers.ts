// vip_configure: sets or removes one level of one mode.

import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { emit } from "../events.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { BPS_MAX, vipLevels, VIP_LEVEL_MAX } from "./state.ts";

/** Forgets the mode's volumes and withdrawals (VIP removed, or measured in another asset). */
function clearProgress(state: KernelState, mode: Mode): void {
  for (const map of [state.vip.volumes, state.vip.withdrawn] as const) {
    for (const owner of [...map.keys()]) if (owner.startsWith(mode + "|")) map.delete(owner);
  }
}

export const vipConfigure: Handler<"vip_configure"> = (state, command) => {
  const { mode, level } = command;
  if (!Number.isSafeInteger(level) || level < 0 || level > VIP_LEVEL_MAX) {
    return fail("vip_level_invalid");
  }
  const key = mode + "|" + level;
  if (command.remove) {
    if (!state.vip.levels.has(key)) return fail("vip_level_invalid");
    state.vip.levels.delete(key);
  } else {
    const asset = state.reference.assets.get(command.assetId);
    if (asset === undefined) return fail("asset_not_found");
    const bps = command.feeDiscountBps;
    if (!Number.isSafeInteger(bps) || bps < 0 || bps > BPS_MAX) return fail("vip_terms_invalid");
    if (command.minVolume < 0n || command.minBalance < 0n || command.withdrawDailyLimit < 0n) {
      return fail("vip_terms_invalid");
    }
    // Level 0 is everyone's; a higher level needs a condition to reach it.
    const thresholds = command.minVolume > 0n || command.minBalance > 0n;
    if (level === 0 ? thresholds : !thresholds) return fail("vip_terms_invalid");
    // One asset per mode: volume and balance are compared in the same units at every level.
    const others = vipLevels(state, mode).filter((l) => l.level !== level);
    if (others.some((l) => l.assetId !== command.assetId)) return fail("vip_asset_mismatch");
    const before = state.vip.levels.get(key);
    if (before !== undefined && before.assetId !== command.assetId) clearProgress(state, mode);
    state.vip.levels.set(key, {
      level,
      assetId: command.assetId,
      minVolume: command.minVolume,
      minBalance: command.minBalance,
      feeDiscountBps: bps,
      withdrawDailyLimit: command.withdrawDailyLimit,
    });
  }
  // Without levels the mode keeps no volume: it counts from when VIP is configured again.
  if (vipLevels(state, mode).length === 0) clearProgress(state, mode);
  emit(state, {
    type: "vip_configured",
    mode,
    level,
    assetId: command.assetId,
    minVolume: command.minVolume,
    minBalance: command.minBalance,
    feeDiscountBps: command.feeDiscountBps,
    withdrawDailyLimit: command.withdrawDailyLimit,
    removed: command.remove,
    operatorId: command.operatorId,
  });
  return DONE;
};
