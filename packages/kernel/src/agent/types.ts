// Agents (issue 23): an agent is an inviter; its team is the users it invited (the referral
// links). Levels LV1…LV10 per mode come from configuration entered by `agent_configure`: each
// has upgrade and keeping conditions (valid members and team daily volume in one asset per
// mode) and rebate shares per product. Levels are recomputed by a scheduled entry at every UTC
// day boundary; an agent's rebate is a share of a fee its team member just paid, taken from the
// fee account with the invitation rebate, the two together never more than the fee.

import type { FeeProduct } from "../funds/fee.ts";
import type { CommandBase, Mode, NoValue } from "../types.ts";

/**
 * Sets (or, with `remove`, deletes) agent level `level` (1–10) of `mode`. A level is reached at
 * a day boundary when the day's valid members ≥ `upgradeMembers` and team volume ≥
 * `upgradeVolume`; it is kept while valid members ≥ `keepMembers` and team volume ≥ `keepVolume`
 * (a 0 is no condition). Every level of a mode measures volume in the same asset.
 */
export interface AgentConfigureCommand extends CommandBase {
  type: "agent_configure";
  mode: Mode;
  level: number;
  assetId: string;
  upgradeMembers: number;
  upgradeVolume: bigint;
  keepMembers: number;
  keepVolume: bigint;
  /** Rebate shares of the team's fees, 0–10,000 basis points per product. */
  spotBps: number;
  perpBps: number;
  stocksBps: number;
  remove: boolean;
  operatorId: string | null;
}

export interface AgentConfiguredEvent {
  type: "agent_configured";
  mode: Mode;
  level: number;
  assetId: string;
  upgradeMembers: number;
  upgradeVolume: bigint;
  keepMembers: number;
  keepVolume: bigint;
  spotBps: number;
  perpBps: number;
  stocksBps: number;
  removed: boolean;
  operatorId: string | null;
}

/** An agent's level changed at the end of UTC day `day` (days since the epoch). */
export interface AgentLevelChangedEvent {
  type: "agent_level_changed";
  mode: Mode;
  agentId: string;
  /** 0: no level. */
  fromLevel: number;
  toLevel: number;
  day: number;
  validMembers: number;
  teamVolume: bigint;
  atMs: number;
}

/**
 * A fee paid by a member of an agent's team while agent levels exist in the mode, and the
 * agent's rebate from it (0 without a level or share). `feeId` numbers these events 1, 2, 3, ….
 */
export interface AgentFeeEvent {
  type: "agent_fee";
  feeId: number;
  mode: Mode;
  product: FeeProduct;
  agentId: string;
  memberId: string;
  assetId: string;
  fee: bigint;
  /** The invitation rebate paid out of the same fee. */
  referralRebate: bigint;
  rebate: bigint;
  level: number;
  /** The agent rebate's posting (null when no rebate was paid). */
  postingSeq: number | null;
  atMs: number;
}

declare module "../types.ts" {
  interface CommandMap {
    agent_configure: AgentConfigureCommand;
  }
  interface ResultMap {
    agent_configure: NoValue;
  }
  interface EventMap {
    agent_configured: AgentConfiguredEvent;
    agent_level_changed: AgentLevelChangedEvent;
    agent_fee: AgentFeeEvent;
  }
}
