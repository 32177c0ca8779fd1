import { randomUUID } from "node:crypto";
import type { AgentLevelChange, AgentLevelView, AgentMe, AgentTeamMember } from "@candor/contract";
import {
  agentHistory,
  agentLevels,
  agentTeam,
  agentView,
  formatAmount,
  getAssets,
  type AgentLevel,
  type KernelState,
  type Mode,
} from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { submit } from "../../engine/submit.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { assetAmountParser } from "../../engine/asset-amount.ts";
import { maskAccount, periodStarts } from "../invitations/invitations.service.ts";
import { progressBps } from "../vip/vip.service.ts";
import type { AgentsRepository } from "./agents.repository.ts";

const DAY_MS = 86_400_000;

/** The UTC date (YYYY-MM-DD) of a day number. */
function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function scaleOf(state: KernelState, assetId: string | null): number {
  if (assetId === null) return 0;
  return getAssets(state).find((a) => a.assetId === assetId)?.scale ?? 0;
}

function levelView(level: AgentLevel, scale: number): AgentLevelView {
  return {
    level: level.level,
    upgradeMembers: level.upgradeMembers,
    upgradeVolume: formatAmount(level.upgradeVolume, scale),
    keepMembers: level.keepMembers,
    keepVolume: formatAmount(level.keepVolume, scale),
    rebateBps: { ...level.bps },
  };
}

/** My agent level, team and history, read from the kernel; fees and rebates from the read model. */
export class AgentsService {
  constructor(
    private readonly repository: AgentsRepository,
    private readonly engine: EngineSubmitQuery | undefined,
    private readonly now: () => number,
  ) {}

  async me(userId: bigint, mode: Mode): Promise<AgentMe> {
    const { dayMs, monthMs } = periodStarts(this.now());
    const rows = await this.repository.earnings(userId, mode, dayMs, monthMs);
    const scales = new Map(
      (this.engine?.query((s) => getAssets(s)) ?? []).map((a) => [a.assetId, a.scale]),
    );
    const amount = (assetId: string, units: string) =>
      formatAmount(BigInt(units), scales.get(assetId) ?? 0);
    const earnings = rows.map((row) => ({
      asset: row.asset_id,
      product: row.product,
      fees: {
        today: amount(row.asset_id, row.fees_today),
        month: amount(row.asset_id, row.fees_month),
        total: amount(row.asset_id, row.fees_total),
      },
      rebates: {
        today: amount(row.asset_id, row.rebates_today),
        month: amount(row.asset_id, row.rebates_month),
        total: amount(row.asset_id, row.rebates_total),
      },
    }));
    const empty: AgentMe = {
      mode,
      asset: null,
      level: 0,
      levels: [],
      rebateBps: { spot: 0, perp: 0, stocks: 0 },
      team: { members: 0, validMembersToday: 0, volumeToday: "0", lastDay: null },
      keep: null,
      next: null,
      earnings,
    };
    if (!this.engine) return empty;
    return this.engine.query((state): AgentMe => {
      const view = agentView(state, mode, String(userId));
      const scale = scaleOf(state, view.asset);
      const format = (units: bigint) => formatAmount(units, scale);
      const current = view.levels.find((l) => l.level === view.level) ?? null;
      const next = view.levels.find((l) => l.level > view.level) ?? null;
      const { validMembers, teamVolume } = view.today;
      const missing = (have: bigint, target: bigint) => (have >= target ? 0n : target - have);
      return {
        mode,
        asset: view.asset,
        level: view.level,
        levels: view.levels.map((l) => levelView(l, scale)),
        rebateBps: current === null ? { spot: 0, perp: 0, stocks: 0 } : { ...current.bps },
        team: {
          members: view.members,
          validMembersToday: validMembers,
          volumeToday: format(teamVolume),
          lastDay:
            view.lastDay === null
              ? null
              : {
                  date: dateOf(view.lastDay.day),
                  validMembers: view.lastDay.validMembers,
                  volume: format(view.lastDay.teamVolume),
                },
        },
        keep:
          current === null
            ? null
            : {
                members: current.keepMembers,
                volume: format(current.keepVolume),
                met: validMembers >= current.keepMembers && teamVolume >= current.keepVolume,
              },
        next:
          next === null
            ? null
            : {
                level: next.level,
                membersNeeded: Math.max(0, next.upgradeMembers - validMembers),
                volumeNeeded: format(missing(teamVolume, next.upgradeVolume)),
                progressBps: Math.min(
                  next.upgradeMembers > 0
                    ? progressBps(BigInt(validMembers), BigInt(next.upgradeMembers))
                    : 10_000,
                  next.upgradeVolume > 0n ? progressBps(teamVolume, next.upgradeVolume) : 10_000,
                ),
              },
        earnings,
      };
    });
  }

  async team(
    userId: bigint,
    mode: Mode,
    limit: number,
  ): Promise<{ mode: Mode; asset: string | null; members: AgentTeamMember[] }> {
    const rows = await this.repository.members(userId, limit);
    const figures = this.engine?.query((state) => {
      const asset = agentLevels(state, mode)[0]?.assetId ?? null;
      const byMember = new Map(agentTeam(state, mode, String(userId)).map((m) => [m.memberId, m]));
      return { asset, scale: scaleOf(state, asset), byMember };
    });
    return {
      mode,
      asset: figures?.asset ?? null,
      members: rows.map((row) => {
        const member = figures?.byMember.get(row.id);
        return {
          account: maskAccount(row),
          joinedAt: row.created_at.toISOString(),
          valid: member?.validToday ?? false,
          volumeToday: formatAmount(member?.volumeToday ?? 0n, figures?.scale ?? 0),
        };
      }),
    };
  }

  history(userId: bigint, mode: Mode): { mode: Mode; changes: AgentLevelChange[] } {
    if (!this.engine) return { mode, changes: [] };
    return this.engine.query((state) => {
      const scale = scaleOf(state, agentLevels(state, mode)[0]?.assetId ?? null);
      return {
        mode,
        changes: agentHistory(state, mode, String(userId)).map((c) => ({
          date: dateOf(c.day),
          fromLevel: c.fromLevel,
          toLevel: c.toLevel,
          validMembers: c.validMembers,
          volume: formatAmount(c.teamVolume, scale),
          changedAt: new Date(c.atMs).toISOString(),
        })),
      };
    });
  }

  /** Operator: every mode's levels (real, then demo). */
  operatorLevels(): {
    modes: { mode: Mode; asset: string | null; levels: AgentLevelView[] }[];
  } {
    const modes: Mode[] = ["real", "demo"];
    const engine = this.engine;
    if (!engine) return { modes: modes.map((mode) => ({ mode, asset: null, levels: [] })) };
    return engine.query((state) => ({
      modes: modes.map((mode) => {
        const levels = agentLevels(state, mode);
        const asset = levels[0]?.assetId ?? null;
        const scale = scaleOf(state, asset);
        return { mode, asset, levels: levels.map((l) => levelView(l, scale)) };
      }),
    }));
  }

  /** Operator: sets or removes one level (through the kernel). */
  async configure(
    input: {
      mode: Mode;
      level: number;
      asset: string;
      upgradeMembers: number;
      upgradeVolume: string;
      keepMembers: number;
      keepVolume: string;
      rebateBps: { spot: number; perp: number; stocks: number };
      remove: boolean;
      reason: string;
    },
    operatorId: string | null,
  ): Promise<{ mode: Mode; asset: string | null; levels: AgentLevelView[] }> {
    const engine = this.engine;
    if (!engine) throw new AppError("service_unavailable");
    const parse = assetAmountParser(engine, input.asset);
    const applied = await submit(engine, {
      type: "agent_configure",
      // Each change is its own command (an id per request; the journal dedupes ids).
      id: `agent-configure-${input.mode}-${input.level}-${this.now()}-${randomUUID()}`,
      mode: input.mode,
      level: input.level,
      assetId: input.asset,
      upgradeMembers: input.upgradeMembers,
      upgradeVolume: parse(input.upgradeVolume),
      keepMembers: input.keepMembers,
      keepVolume: parse(input.keepVolume),
      spotBps: input.rebateBps.spot,
      perpBps: input.rebateBps.perp,
      stocksBps: input.rebateBps.stocks,
      remove: input.remove,
      operatorId: operatorId ?? "operator",
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return engine.query((state) => {
      const levels = agentLevels(state, input.mode);
      const asset = levels[0]?.assetId ?? null;
      const assetScale = scaleOf(state, asset);
      return { mode: input.mode, asset, levels: levels.map((l) => levelView(l, assetScale)) };
    });
  }
}
