// What the server reads about agents: the levels of a mode, an agent's level, today's and the
// last counted day's team figures, its team members, history and totals.

import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import {
  agentLevels,
  dayOf,
  type AgentChange,
  type AgentLevel,
  type AgentTotals,
  type TeamDay,
} from "./state.ts";

export interface AgentTeamMember {
  memberId: string;
  /** Volume in the agent asset today (UTC), counted while the mode has levels. */
  volumeToday: bigint;
  /** Traded today (a valid member of today). */
  validToday: boolean;
}

export interface AgentView {
  mode: Mode;
  asset: string | null;
  level: number;
  levels: AgentLevel[];
  members: number;
  /** Today so far (the figures the next recount will use). */
  today: TeamDay;
  /** The last counted day, or null. */
  lastDay: TeamDay | null;
  /** Per asset: the team's fees and the rebates paid out of them, all time. */
  totals: { assetId: string; totals: AgentTotals }[];
}

/** The invited members of `agentId` in `mode`, in id order, with today's volume. */
export function agentTeam(state: KernelState, mode: Mode, agentId: string): AgentTeamMember[] {
  const today = dayOf(state.nowMs);
  const out: AgentTeamMember[] = [];
  for (const [key, inviter] of state.referral.inviters) {
    if (inviter !== agentId || !key.startsWith(mode + "|")) continue;
    const memberId = key.slice(mode.length + 1);
    const volume = state.agent.volumes.get(mode + "|" + today + "|" + memberId) ?? 0n;
    out.push({ memberId, volumeToday: volume, validToday: volume > 0n });
  }
  return out.sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
}

export function agentView(state: KernelState, mode: Mode, agentId: string): AgentView {
  const levels = agentLevels(state, mode);
  const team = agentTeam(state, mode, agentId);
  const today: TeamDay = { day: dayOf(state.nowMs), validMembers: 0, teamVolume: 0n };
  for (const member of team) {
    if (member.validToday) today.validMembers++;
    today.teamVolume += member.volumeToday;
  }
  const prefix = mode + "|" + agentId + "|";
  const totals: AgentView["totals"] = [];
  for (const [key, value] of state.agent.totals) {
    if (key.startsWith(prefix)) totals.push({ assetId: key.slice(prefix.length), totals: { ...value } }); // prettier-ignore
  }
  totals.sort((a, b) => (a.assetId < b.assetId ? -1 : a.assetId > b.assetId ? 1 : 0));
  return {
    mode,
    asset: levels[0]?.assetId ?? null,
    level: state.agent.current.get(mode + "|" + agentId) ?? 0,
    levels,
    members: team.length,
    today,
    lastDay: state.agent.lastDay.get(mode + "|" + agentId) ?? null,
    totals,
  };
}

/** The agent's level changes, newest first. */
export function agentHistory(state: KernelState, mode: Mode, agentId: string): AgentChange[] {
  return [...(state.agent.history.get(mode + "|" + agentId) ?? [])].reverse();
}
