// The agent slice of kernel state and the pure rules over it: which level a day's team figures
// lead to, and the rebate of one fee.

import type { FeeProduct } from "../funds/fee.ts";
import type { Mode } from "../types.ts";

export interface AgentLevel {
  level: number;
  assetId: string;
  upgradeMembers: number;
  upgradeVolume: bigint;
  keepMembers: number;
  keepVolume: bigint;
  bps: Record<FeeProduct, number>;
}

/** One level change, as the agent's history keeps it. */
export interface AgentChange {
  day: number;
  fromLevel: number;
  toLevel: number;
  validMembers: number;
  teamVolume: bigint;
  atMs: number;
}

/** A finished day's team figures. */
export interface TeamDay {
  day: number;
  validMembers: number;
  teamVolume: bigint;
}

/** Fees a team paid and what came back out of them, per agent and asset. */
export interface AgentTotals {
  fees: bigint;
  referralRebates: bigint;
  rebates: bigint;
}

export interface AgentState {
  /** `mode|level` → level (1–10). */
  levels: Map<string, AgentLevel>;
  /** `mode|agentId` → the agent's level (absent: none). */
  current: Map<string, number>;
  /** `mode|day|memberId` → the team member's traded volume that day, for days not yet counted. */
  volumes: Map<string, bigint>;
  /** `mode|agentId` → the last counted day's figures (kept while non-zero or at a level). */
  lastDay: Map<string, TeamDay>;
  /** `mode|agentId` → the newest level changes, oldest first (at most `HISTORY_MAX`). */
  history: Map<string, AgentChange[]>;
  /** `mode|agentId|assetId` → the team's fees and the rebates paid out of them. */
  totals: Map<string, AgentTotals>;
  /** Due time of the scheduled day-end recount (0: none scheduled). */
  dueMs: number;
  /** The next `agent_fee` event's id. */
  feeSeq: number;
}

export function createAgentState(): AgentState {
  return {
    levels: new Map(),
    current: new Map(),
    volumes: new Map(),
    lastDay: new Map(),
    history: new Map(),
    totals: new Map(),
    dueMs: 0,
    feeSeq: 1,
  };
}

export const AGENT_LEVEL_MAX = 10;
export const HISTORY_MAX = 100;
export const BPS_MAX = 10_000;
export const DAY_MS = 86_400_000;

export function dayOf(atMs: number): number {
  return Math.floor(atMs / DAY_MS);
}

/** The levels configured in `mode`, lowest first. */
export function agentLevels(state: { agent: AgentState }, mode: Mode): AgentLevel[] {
  const out: AgentLevel[] = [];
  for (let level = 1; level <= AGENT_LEVEL_MAX; level++) {
    const found = state.agent.levels.get(mode + "|" + level);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** The asset agent volume is measured in, in `mode`; null without levels. */
export function agentAsset(state: { agent: AgentState }, mode: Mode): string | null {
  return agentLevels(state, mode)[0]?.assetId ?? null;
}

/** The agent's level now (0: none). */
export function agentLevelOf(state: { agent: AgentState }, mode: Mode, agentId: string): number {
  return state.agent.current.get(mode + "|" + agentId) ?? 0;
}

export function meetsUpgrade(level: AgentLevel, validMembers: number, volume: bigint): boolean {
  return validMembers >= level.upgradeMembers && volume >= level.upgradeVolume;
}

export function meetsKeep(level: AgentLevel, validMembers: number, volume: bigint): boolean {
  return validMembers >= level.keepMembers && volume >= level.keepVolume;
}

/**
 * The level after a day with `validMembers` and `volume`: the higher of (a) the highest level
 * whose upgrade conditions the day meets and (b) the current level if the day meets its keeping
 * conditions, else the highest lower level whose keeping conditions it meets (0 if none). A
 * level that is no longer configured is treated as lost.
 */
export function nextLevel(
  levels: readonly AgentLevel[],
  current: number,
  validMembers: number,
  volume: bigint,
): number {
  let upgraded = 0;
  let kept = 0;
  for (const level of levels) {
    if (meetsUpgrade(level, validMembers, volume)) upgraded = level.level;
    if (level.level <= current && meetsKeep(level, validMembers, volume)) kept = level.level;
  }
  return Math.max(upgraded, kept);
}

/**
 * The agent's rebate of one fee: floor(fee × bps / 10,000), cut so that it and the invitation
 * rebate already paid from the same fee together stay within the fee.
 */
export function agentRebateOf(fee: bigint, bps: number, referralRebate: bigint): bigint {
  if (fee <= 0n || bps <= 0) return 0n;
  const share = (fee * BigInt(bps)) / BigInt(BPS_MAX);
  const room = fee - referralRebate;
  return share < room ? share : room > 0n ? room : 0n;
}
