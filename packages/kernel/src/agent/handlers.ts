// agent_configure, the day-end recount (a scheduled entry), and the two hooks products reach
// through: team volume at a fill and the agent rebate when a team member's fee is collected.

import { accountOf, compareStrings, ownerOf } from "../ledger/accounts.ts";
import { post, type PostingRefs } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { emit } from "../events.ts";
import type { FeeProduct } from "../funds/fee.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import {
  AGENT_LEVEL_MAX,
  agentAsset,
  agentLevels,
  agentRebateOf,
  BPS_MAX,
  DAY_MS,
  dayOf,
  HISTORY_MAX,
  nextLevel,
} from "./state.ts";

const modes: readonly Mode[] = ["real", "demo"];
const validBps = (bps: number) => Number.isSafeInteger(bps) && bps >= 0 && bps <= BPS_MAX;
const validCount = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000;

/** Forgets the mode's counted volumes (levels removed, or measured in another asset). */
function clearVolumes(state: KernelState, mode: Mode): void {
  for (const key of [...state.agent.volumes.keys()]) {
    if (key.startsWith(mode + "|")) state.agent.volumes.delete(key);
  }
}

/** Schedules the next day-end recount if none is pending. */
function scheduleRecount(state: KernelState): void {
  if (state.agent.dueMs !== 0) return;
  const day = dayOf(state.nowMs);
  state.agent.dueMs = (day + 1) * DAY_MS;
  scheduleEntry(state, { dueMs: state.agent.dueMs, module: "agent", kind: "recount", payload: day }); // prettier-ignore
}

export const agentConfigure: Handler<"agent_configure"> = (state, command) => {
  const { mode, level } = command;
  if (!Number.isSafeInteger(level) || level < 1 || level > AGENT_LEVEL_MAX) {
    return fail("agent_level_invalid");
  }
  const key = mode + "|" + level;
  if (command.remove) {
    if (!state.agent.levels.has(key)) return fail("agent_level_invalid");
    state.agent.levels.delete(key);
  } else {
    if (!state.reference.assets.has(command.assetId)) return fail("asset_not_found");
    if (
      !validBps(command.spotBps) ||
      !validBps(command.perpBps) ||
      !validBps(command.stocksBps) ||
      !validCount(command.upgradeMembers) ||
      !validCount(command.keepMembers) ||
      command.upgradeVolume < 0n ||
      command.keepVolume < 0n
    ) {
      return fail("agent_terms_invalid");
    }
    // A level must be earned: at least one upgrade condition.
    if (command.upgradeMembers === 0 && command.upgradeVolume === 0n) {
      return fail("agent_terms_invalid");
    }
    const others = agentLevels(state, mode).filter((l) => l.level !== level);
    if (others.some((l) => l.assetId !== command.assetId)) return fail("agent_asset_mismatch");
    const before = state.agent.levels.get(key);
    if (before !== undefined && before.assetId !== command.assetId) clearVolumes(state, mode);
    state.agent.levels.set(key, {
      level,
      assetId: command.assetId,
      upgradeMembers: command.upgradeMembers,
      upgradeVolume: command.upgradeVolume,
      keepMembers: command.keepMembers,
      keepVolume: command.keepVolume,
      bps: { spot: command.spotBps, perp: command.perpBps, stocks: command.stocksBps },
    });
    scheduleRecount(state);
  }
  if (agentLevels(state, mode).length === 0) clearVolumes(state, mode);
  emit(state, {
    type: "agent_configured",
    mode,
    level,
    assetId: command.assetId,
    upgradeMembers: command.upgradeMembers,
    upgradeVolume: command.upgradeVolume,
    keepMembers: command.keepMembers,
    keepVolume: command.keepVolume,
    spotBps: command.spotBps,
    perpBps: command.perpBps,
    stocksBps: command.stocksBps,
    removed: command.remove,
    operatorId: command.operatorId,
  });
  return DONE;
};

/**
 * A team member traded `amount` of `assetId` (spot: the quote amount; perp: the notional;
 * stocks: the notional). Counted for the UTC day of the fill, only in the mode's agent asset and
 * only for invited users while the mode has levels.
 */
export function recordAgentVolume(
  state: KernelState,
  mode: Mode,
  ownerId: string,
  assetId: string,
  amount: bigint,
): void {
  if (state.agent.levels.size === 0 || amount <= 0n) return;
  if (agentAsset(state, mode) !== assetId) return;
  if (!state.referral.inviters.has(mode + "|" + ownerId)) return;
  const key = mode + "|" + dayOf(state.nowMs) + "|" + ownerId;
  state.agent.volumes.set(key, (state.agent.volumes.get(key) ?? 0n) + amount);
}

/** Team figures of one finished day in one mode, per agent: valid members and volume. */
export function teamDay(
  state: KernelState,
  mode: Mode,
  day: number,
): Map<string, { validMembers: number; teamVolume: bigint }> {
  const prefix = mode + "|" + day + "|";
  const out = new Map<string, { validMembers: number; teamVolume: bigint }>();
  for (const [key, volume] of state.agent.volumes) {
    if (!key.startsWith(prefix) || volume <= 0n) continue;
    const memberId = key.slice(prefix.length);
    const agentId = state.referral.inviters.get(mode + "|" + memberId);
    if (agentId === undefined) continue;
    const figures = out.get(agentId) ?? { validMembers: 0, teamVolume: 0n };
    figures.validMembers += 1;
    figures.teamVolume += volume;
    out.set(agentId, figures);
  }
  return out;
}

/** Counts day `day` of `mode`: every agent with a team figure or a level gets its new level. */
function recountMode(state: KernelState, mode: Mode, day: number): void {
  const a = state.agent;
  const figures = teamDay(state, mode, day);
  const levels = agentLevels(state, mode);
  const agents = new Set<string>(figures.keys());
  for (const key of [...a.current.keys(), ...a.lastDay.keys()]) {
    if (key.startsWith(mode + "|")) agents.add(key.slice(mode.length + 1));
  }
  for (const agentId of [...agents].sort(compareStrings)) {
    const key = mode + "|" + agentId;
    const { validMembers, teamVolume } = figures.get(agentId) ?? { validMembers: 0, teamVolume: 0n }; // prettier-ignore
    const from = a.current.get(key) ?? 0;
    const to = nextLevel(levels, from, validMembers, teamVolume);
    if (to === 0) a.current.delete(key);
    else a.current.set(key, to);
    if (validMembers === 0 && to === 0) a.lastDay.delete(key);
    else a.lastDay.set(key, { day, validMembers, teamVolume });
    if (to !== from) {
      const change = { day, fromLevel: from, toLevel: to, validMembers, teamVolume, atMs: state.nowMs }; // prettier-ignore
      const history = [...(a.history.get(key) ?? []), change].slice(-HISTORY_MAX);
      a.history.set(key, history);
      emit(state, { type: "agent_level_changed", mode, agentId, ...change });
    }
  }
  const prefix = mode + "|" + day + "|";
  for (const key of [...a.volumes.keys()]) if (key.startsWith(prefix)) a.volumes.delete(key);
}

/**
 * The scheduled day-end recount of day `payload`: both modes, then the next day's entry. A clock
 * that jumps several days runs one entry per day (runDue runs entries added meanwhile too).
 */
export function runAgentEntry(state: KernelState, kind: string, day: number): void {
  if (kind !== "recount") return;
  const a = state.agent;
  a.dueMs = 0;
  for (const mode of modes) recountMode(state, mode, day);
  const more = a.levels.size > 0 || a.current.size > 0 || a.lastDay.size > 0 || a.volumes.size > 0;
  if (more) {
    a.dueMs = (day + 2) * DAY_MS;
    scheduleEntry(state, { dueMs: a.dueMs, module: "agent", kind: "recount", payload: day + 1 });
  }
}

/**
 * `fee` was just collected from `payerId` into `feeAccount` and `referralRebate` of it went to
 * the inviter: if the mode has agent levels and the payer was invited, the inviter (the agent)
 * gets its level's share, at most what is left of the fee.
 */
export function payAgentRebate(
  state: KernelState,
  product: FeeProduct,
  mode: Mode,
  payerId: string,
  feeAccount: Account,
  fee: bigint,
  referralRebate: bigint,
  refs: PostingRefs | undefined,
): void {
  const a = state.agent;
  if (a.levels.size === 0 || fee <= 0n) return;
  if (agentAsset(state, mode) === null) return;
  const agentId = state.referral.inviters.get(mode + "|" + payerId);
  if (agentId === undefined) return;
  const level = a.current.get(mode + "|" + agentId) ?? 0;
  const bps = level === 0 ? 0 : (a.levels.get(mode + "|" + level)?.bps[product] ?? 0);
  const agent = ownerOf(state, mode, agentId);
  const rebate = agent === undefined ? 0n : agentRebateOf(fee, bps, referralRebate);
  let postingSeq: number | null = null;
  if (rebate > 0n && agent !== undefined) {
    postingSeq = post(state, {
      debit: feeAccount,
      credit: accountOf(state, agent, "fund", feeAccount.assetId),
      amount: rebate,
      reason: "agent_rebate",
      refs: {
        orderId: refs?.orderId,
        fillId: refs?.fillId,
        tickId: refs?.tickId,
        reference: payerId,
      },
    });
  }
  const totalsKey = mode + "|" + agentId + "|" + feeAccount.assetId;
  const totals = a.totals.get(totalsKey) ?? { fees: 0n, referralRebates: 0n, rebates: 0n };
  totals.fees += fee;
  totals.referralRebates += referralRebate;
  totals.rebates += rebate;
  a.totals.set(totalsKey, totals);
  emit(state, {
    type: "agent_fee",
    feeId: a.feeSeq++,
    mode,
    product,
    agentId,
    memberId: payerId,
    assetId: feeAccount.assetId,
    fee,
    referralRebate,
    rebate,
    level,
    postingSeq,
    atMs: state.nowMs,
  });
}
