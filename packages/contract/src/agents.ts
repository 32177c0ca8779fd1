import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { AccountMode, DecimalString } from "./market.ts";
import { OperatorReason } from "./operators.ts";
import { RebateProduct } from "./invitations.ts";

/**
 * Agents (spec: agent statistics and my team): an agent is a user who invited others; its team
 * is the users it invited. Levels (LV1…LV10 per mode) are reached and kept by the team's valid
 * members (members who traded in the agent asset that UTC day) and team volume of a day, with
 * rebate shares per product out of the fees team members actually paid, from configuration the
 * kernel keeps. Levels are recounted at every UTC day boundary; each change is in the history.
 */

export const agentsMePath = "/api/v1/agents/me";
export const agentsTeamPath = "/api/v1/agents/me/team";
export const agentsHistoryPath = "/api/v1/agents/me/history";
export const agentLevelsPath = "/api/v1/operator/agents/levels";

/** Highest level number. */
export const agentLevelMax = 10;
/** Most team members or history entries one answer holds. */
export const agentListMax = 100;

const Bps = z.number().int().min(0).max(10_000);
const RebateRatios = z.object({ spot: Bps, perp: Bps, stocks: Bps });

export const AgentLevelView = z.object({
  level: z.number().int().min(1).max(agentLevelMax),
  /** Valid members and team volume of one day that reach the level ("0"/0: not a condition). */
  upgradeMembers: z.number().int().min(0),
  upgradeVolume: DecimalString,
  /** What a day must have for the level to be kept. */
  keepMembers: z.number().int().min(0),
  keepVolume: DecimalString,
  /** Rebate shares of the team's fees, in basis points of the fee. */
  rebateBps: RebateRatios,
});
export type AgentLevelView = z.infer<typeof AgentLevelView>;

/** Today, this month (UTC) and all time, as decimal strings. */
export const PeriodAmounts = z.object({
  today: DecimalString,
  month: DecimalString,
  total: DecimalString,
});

/** Fees the team paid and rebates the agent received, in one asset and one product. */
export const AgentEarnings = z.object({
  asset: z.string(),
  product: RebateProduct,
  fees: PeriodAmounts,
  rebates: PeriodAmounts,
});
export type AgentEarnings = z.infer<typeof AgentEarnings>;

export const AgentMe = z.object({
  mode: AccountMode,
  /** The asset team volume is measured in; null when no agent level is configured. */
  asset: z.string().nullable(),
  /** The level now; 0 when none. */
  level: z.number().int().min(0).max(agentLevelMax),
  /** Every level, lowest first. */
  levels: z.array(AgentLevelView),
  /** The rebate shares in force for me now (all 0 without a level). */
  rebateBps: RebateRatios,
  team: z.object({
    members: z.number().int().min(0),
    /** Today so far (UTC): the figures the next recount uses. */
    validMembersToday: z.number().int().min(0),
    volumeToday: DecimalString,
    /** The last counted day (YYYY-MM-DD) and its figures; null before the first. */
    lastDay: z
      .object({ date: z.string(), validMembers: z.number().int(), volume: DecimalString })
      .nullable(),
  }),
  /** Today's progress towards keeping the current level (null without one). */
  keep: z
    .object({
      members: z.number().int(),
      volume: DecimalString,
      met: z.boolean(),
    })
    .nullable(),
  /** The next level and what today still misses to reach it; null at the top or unconfigured. */
  next: z
    .object({
      level: z.number().int(),
      membersNeeded: z.number().int().min(0),
      volumeNeeded: DecimalString,
      /** Progress towards the further of the two conditions, integer basis points. */
      progressBps: z.number().int().min(0).max(10_000),
    })
    .nullable(),
  /** Fees and rebates per asset and product (stocks = stock; perp = contract; spot). */
  earnings: z.array(AgentEarnings),
});
export type AgentMe = z.infer<typeof AgentMe>;

export const myAgentInfo = defineEndpoint({
  method: "GET",
  path: agentsMePath,
  summary: "My agent level, progress, conditions, rebate ratios and team statistics",
  description:
    "In the session's mode. Levels change only at the UTC day boundary, from the day's valid members and team volume.",
  tag: "agents",
  auth: "user",
  response: AgentMe,
});

export const AgentTeamMember = z.object({
  /** The member's account, masked. */
  account: z.string(),
  joinedAt: z.string(),
  /** Traded today in the agent asset (a valid member of today). */
  valid: z.boolean(),
  volumeToday: DecimalString,
});
export type AgentTeamMember = z.infer<typeof AgentTeamMember>;

export const AgentTeamQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(agentListMax).default(50),
});

export const myAgentTeam = defineEndpoint({
  method: "GET",
  path: agentsTeamPath,
  summary: "My team: the users I invited, masked, with join date, valid flag and today's volume",
  tag: "agents",
  auth: "user",
  query: AgentTeamQuery,
  response: z.object({
    mode: AccountMode,
    asset: z.string().nullable(),
    members: z.array(AgentTeamMember),
  }),
});

export const AgentLevelChange = z.object({
  /** The UTC day counted (YYYY-MM-DD). */
  date: z.string(),
  fromLevel: z.number().int(),
  toLevel: z.number().int(),
  validMembers: z.number().int(),
  volume: DecimalString,
  /** When the recount ran (ISO 8601). */
  changedAt: z.string(),
});
export type AgentLevelChange = z.infer<typeof AgentLevelChange>;

export const myAgentHistory = defineEndpoint({
  method: "GET",
  path: agentsHistoryPath,
  summary: "My agent level changes, newest first",
  tag: "agents",
  auth: "user",
  response: z.object({ mode: AccountMode, changes: z.array(AgentLevelChange) }),
});

const amount = decimalString(18);

export const ConfigureAgentLevelBody = z.strictObject({
  mode: AccountMode,
  level: z.number().int().min(1).max(agentLevelMax),
  asset: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_.-]+$/),
  upgradeMembers: z.number().int().min(0).max(1_000_000).default(0),
  upgradeVolume: amount.default("0"),
  keepMembers: z.number().int().min(0).max(1_000_000).default(0),
  keepVolume: amount.default("0"),
  rebateBps: RebateRatios,
  /** Deletes the level instead. */
  remove: z.boolean().default(false),
  reason: OperatorReason,
});

export const configureAgentLevel = defineEndpoint({
  method: "PUT",
  path: agentLevelsPath,
  summary: "Operator: set or remove one agent level of one mode",
  description:
    "Every level of a mode measures team volume in the same asset. A level needs at least one upgrade condition. The agent rebate and the invitation rebate together never exceed the fee.",
  tag: "operator",
  auth: "operator",
  body: ConfigureAgentLevelBody,
  response: z.object({
    mode: AccountMode,
    asset: z.string().nullable(),
    levels: z.array(AgentLevelView),
  }),
  errors: [
    "asset_not_found",
    "amount_too_many_decimals",
    "command_rejected",
    "validation_failed",
    "service_unavailable",
  ],
});

export const operatorAgentLevels = defineEndpoint({
  method: "GET",
  path: agentLevelsPath,
  summary:
    "Operator: the agent levels of each mode (asset, upgrade and keeping conditions, rebate ratios)",
  tag: "operator",
  auth: "operator",
  response: z.object({
    /** Real then demo; a mode without levels has `asset: null` and no levels. */
    modes: z.array(
      z.object({
        mode: AccountMode,
        asset: z.string().nullable(),
        levels: z.array(AgentLevelView),
      }),
    ),
  }),
});
