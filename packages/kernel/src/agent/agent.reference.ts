// The slow reference of agent levels and rebates, written plainly from the rules for the
// property test: levels per mode, team volume per UTC day, the day-end recount, and the rebate a
// team member's fee should pay its agent after the invitation rebate.

import type { Mode } from "../types.ts";

export interface RefLevel {
  level: number;
  assetId: string;
  upgradeMembers: number;
  upgradeVolume: bigint;
  keepMembers: number;
  keepVolume: bigint;
  bps: number; // spot
}

export interface RefChange {
  mode: Mode;
  agentId: string;
  fromLevel: number;
  toLevel: number;
  day: number;
  validMembers: number;
  teamVolume: bigint;
}

const DAY = 86_400_000;
const MODES: Mode[] = ["real", "demo"];

export class AgentReference {
  readonly levels = new Map<string, RefLevel>(); // mode|level
  readonly current = new Map<string, number>(); // mode|agent
  /** mode → day → member → volume. */
  readonly volume = new Map<string, Map<number, Map<string, bigint>>>();
  readonly lastDay = new Set<string>(); // mode|agent with a kept figure
  /** The next day to count, or null when nothing is scheduled. */
  nextDay: number | null = null;

  constructor(
    readonly inviters: Map<string, string>, // mode|invitee → inviter (the referral reference's)
  ) {}

  private modeLevels(mode: Mode): RefLevel[] {
    return [...this.levels.values()]
      .filter((l) => this.levels.get(mode + "|" + l.level) === l)
      .sort((a, b) => a.level - b.level);
  }

  asset(mode: Mode): string | null {
    return this.modeLevels(mode)[0]?.assetId ?? null;
  }

  configure(mode: Mode, level: RefLevel | null, levelNo: number, nowMs: number): boolean {
    const key = mode + "|" + levelNo;
    if (level === null) {
      if (!this.levels.has(key)) return false;
      this.levels.delete(key);
    } else {
      if (level.upgradeMembers === 0 && level.upgradeVolume === 0n) return false;
      const others = this.modeLevels(mode).filter((l) => l.level !== levelNo);
      if (others.some((l) => l.assetId !== level.assetId)) return false;
      this.levels.set(key, level);
      if (this.nextDay === null) this.nextDay = Math.floor(nowMs / DAY);
    }
    if (this.modeLevels(mode).length === 0) this.volume.delete(mode);
    return true;
  }

  /** A spot fill: each side's quote volume counts for its inviter's team. */
  traded(mode: Mode, ownerId: string, assetId: string, amount: bigint, atMs: number): void {
    if (this.levels.size === 0 || amount <= 0n || this.asset(mode) !== assetId) return;
    if (!this.inviters.has(mode + "|" + ownerId)) return;
    const day = Math.floor(atMs / DAY);
    const days = this.volume.get(mode) ?? new Map<number, Map<string, bigint>>();
    const members = days.get(day) ?? new Map<string, bigint>();
    members.set(ownerId, (members.get(ownerId) ?? 0n) + amount);
    days.set(day, members);
    this.volume.set(mode, days);
  }

  /** The agent rebate of a fee the member paid, after `referralRebate` of it. */
  rebate(
    mode: Mode,
    memberId: string,
    fee: bigint,
    referralRebate: bigint,
    agentOpen: boolean,
  ): bigint {
    if (this.levels.size === 0 || fee <= 0n || this.asset(mode) === null) return 0n;
    const agent = this.inviters.get(mode + "|" + memberId);
    if (agent === undefined || !agentOpen) return 0n;
    const level = this.current.get(mode + "|" + agent) ?? 0;
    const bps = level === 0 ? 0 : (this.levels.get(mode + "|" + level)?.bps ?? 0);
    let share = (fee * BigInt(bps)) / 10_000n;
    if (share > fee - referralRebate) share = fee - referralRebate;
    return share < 0n ? 0n : share;
  }

  /** A clock tick at `nowMs`: counts every finished day that is due, in order. */
  clock(nowMs: number): RefChange[] {
    const changes: RefChange[] = [];
    while (this.nextDay !== null && (this.nextDay + 1) * DAY <= nowMs) {
      const day = this.nextDay;
      for (const mode of MODES) changes.push(...this.count(mode, day));
      const more =
        this.levels.size > 0 ||
        this.current.size > 0 ||
        this.lastDay.size > 0 ||
        [...this.volume.values()].some((days) => days.size > 0);
      this.nextDay = more ? day + 1 : null;
    }
    return changes;
  }

  private count(mode: Mode, day: number): RefChange[] {
    const members = this.volume.get(mode)?.get(day) ?? new Map<string, bigint>();
    const figures = new Map<string, { valid: number; volume: bigint }>();
    for (const [member, volume] of members) {
      const agent = this.inviters.get(mode + "|" + member)!;
      const f = figures.get(agent) ?? { valid: 0, volume: 0n };
      f.valid++;
      f.volume += volume;
      figures.set(agent, f);
    }
    const agents = new Set(figures.keys());
    for (const key of [...this.current.keys(), ...this.lastDay]) {
      if (key.startsWith(mode + "|")) agents.add(key.slice(mode.length + 1));
    }
    const levels = this.modeLevels(mode);
    const out: RefChange[] = [];
    for (const agent of [...agents].sort()) {
      const key = mode + "|" + agent;
      const { valid, volume } = figures.get(agent) ?? { valid: 0, volume: 0n };
      const from = this.current.get(key) ?? 0;
      // Upgrade: the highest level whose upgrade conditions the day meets.
      let to = 0;
      for (const l of levels) {
        if (valid >= l.upgradeMembers && volume >= l.upgradeVolume) to = Math.max(to, l.level);
      }
      // Keep: the current level, or failing that the highest lower level whose keeping holds.
      for (const l of levels) {
        if (l.level <= from && valid >= l.keepMembers && volume >= l.keepVolume) {
          to = Math.max(to, l.level);
        }
      }
      if (to === 0) this.current.delete(key);
      else this.current.set(key, to);
      if (valid === 0 && to === 0) this.lastDay.delete(key);
      else this.lastDay.add(key);
      if (to !== from) {
        out.push({ mode, agentId: agent, fromLevel: from, toLevel: to, day, validMembers: valid, teamVolume: volume }); // prettier-ignore
      }
    }
    this.volume.get(mode)?.delete(day);
    return out;
  }
}
