// Agents as a kernel module (type code 96 of the community programmes' 90–99). The day-end
// recount is a scheduled entry, not a command.

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { Json, KernelModule } from "../module.ts";
import { agentConfigure, runAgentEntry } from "./handlers.ts";
import {
  AGENT_LEVEL_MAX,
  BPS_MAX,
  createAgentState,
  HISTORY_MAX,
  type AgentChange,
  type AgentState,
} from "./state.ts";

declare module "../state.ts" {
  interface KernelSlices {
    agent: AgentState;
  }
}

function sortedEntries<V>(map: Map<string, V>): [string, V][] {
  return [...map.entries()].sort((a, b) => compareStrings(a[0], b[0]));
}

const big = (value: bigint): Json => value.toString();

export const agentModule = {
  name: "agent",
  createState: createAgentState,
  commands: {
    agent_configure: {
      typeCode: 96,
      fields: [
        ["mode", "mode"],
        ["level", "int"],
        ["assetId", "string"],
        ["upgradeMembers", "int"],
        ["upgradeVolume", "bigint"],
        ["keepMembers", "int"],
        ["keepVolume", "bigint"],
        ["spotBps", "int"],
        ["perpBps", "int"],
        ["stocksBps", "int"],
        ["remove", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
  },
  handlers: { agent_configure: agentConfigure },
  runScheduled(state, entry) {
    runAgentEntry(state, entry.kind, entry.payload as number);
  },
  onDemoReset(state, owner) {
    // A demo reset forgets the demo owner's counted volume today (its team status restarts).
    if (owner.mode === "demo") {
      for (const key of [...state.agent.volumes.keys()]) {
        if (key.startsWith("demo|") && key.endsWith("|" + owner.ownerId)) {
          state.agent.volumes.delete(key);
        }
      }
    }
    return 0;
  },
  snapshot: {
    write(state) {
      const a = state.agent;
      // Never configured: no field, so states without agents hash as before.
      if (a.levels.size === 0 && a.dueMs === 0 && a.feeSeq === 1 && a.current.size === 0) {
        return { agent: undefined };
      }
      return {
        agent: [
          sortedEntries(a.levels).map(([key, l]): Json => [
            key,
            l.level,
            l.assetId,
            l.upgradeMembers,
            big(l.upgradeVolume),
            l.keepMembers,
            big(l.keepVolume),
            l.bps.spot,
            l.bps.perp,
            l.bps.stocks,
          ]),
          sortedEntries(a.current).map(([key, level]): Json => [key, level]),
          sortedEntries(a.volumes).map(([key, v]): Json => [key, big(v)]),
          sortedEntries(a.lastDay).map(([key, d]): Json => [
            key,
            d.day,
            d.validMembers,
            big(d.teamVolume),
          ]),
          sortedEntries(a.history).map(([key, changes]): Json => [
            key,
            changes.map((c): Json => [
              c.day,
              c.fromLevel,
              c.toLevel,
              c.validMembers,
              big(c.teamVolume),
              c.atMs,
            ]),
          ]),
          sortedEntries(a.totals).map(([key, t]): Json => [
            key,
            big(t.fees),
            big(t.referralRebates),
            big(t.rebates),
          ]),
          a.dueMs,
          a.feeSeq,
        ],
      };
    },
    read(state, json) {
      const section = json.agent as Json[] | undefined;
      if (section === undefined) return;
      const [levels, current, volumes, lastDay, history, totals, dueMs, feeSeq] = section as [
        Json[][],
        Json[][],
        Json[][],
        Json[][],
        Json[][],
        Json[][],
        number,
        number,
      ];
      const a = state.agent;
      for (const [key, level, assetId, um, uv, km, kv, spot, perp, stocks] of levels) {
        a.levels.set(key as string, {
          level: level as number,
          assetId: assetId as string,
          upgradeMembers: um as number,
          upgradeVolume: BigInt(uv as string),
          keepMembers: km as number,
          keepVolume: BigInt(kv as string),
          bps: { spot: spot as number, perp: perp as number, stocks: stocks as number },
        });
      }
      for (const [key, level] of current) a.current.set(key as string, level as number);
      for (const [key, v] of volumes) a.volumes.set(key as string, BigInt(v as string));
      for (const [key, day, valid, volume] of lastDay) {
        a.lastDay.set(key as string, {
          day: day as number,
          validMembers: valid as number,
          teamVolume: BigInt(volume as string),
        });
      }
      for (const [key, changes] of history) {
        a.history.set(
          key as string,
          (changes as Json[][]).map(([day, from, to, valid, volume, atMs]): AgentChange => ({
            day: day as number,
            fromLevel: from as number,
            toLevel: to as number,
            validMembers: valid as number,
            teamVolume: BigInt(volume as string),
            atMs: atMs as number,
          })),
        );
      }
      for (const [key, fees, referralRebates, rebates] of totals) {
        a.totals.set(key as string, {
          fees: BigInt(fees as string),
          referralRebates: BigInt(referralRebates as string),
          rebates: BigInt(rebates as string),
        });
      }
      a.dueMs = dueMs;
      a.feeSeq = feeSeq;
    },
  },
  checkInvariants(state) {
    const a = state.agent;
    const assets = new Map<string, string>();
    for (const [key, l] of a.levels) {
      const mode = key.slice(0, key.indexOf("|"));
      assert(key === mode + "|" + l.level, "an agent level under another key");
      assert(l.level >= 1 && l.level <= AGENT_LEVEL_MAX, "an agent level out of range");
      for (const bps of [l.bps.spot, l.bps.perp, l.bps.stocks]) {
        assert(Number.isSafeInteger(bps) && bps >= 0 && bps <= BPS_MAX, "an agent share out of range"); // prettier-ignore
      }
      assert(l.upgradeVolume >= 0n && l.keepVolume >= 0n, "a negative agent threshold");
      const asset = assets.get(mode);
      assert(asset === undefined || asset === l.assetId, "agent levels of one mode in two assets");
      assets.set(mode, l.assetId);
    }
    for (const [, level] of a.current) {
      assert(level >= 1 && level <= AGENT_LEVEL_MAX, "an agent at a level out of range");
    }
    for (const [, volume] of a.volumes) assert(volume > 0n, "an empty agent volume");
    for (const [, changes] of a.history) {
      assert(changes.length > 0 && changes.length <= HISTORY_MAX, "agent history out of range");
      for (const c of changes) assert(c.fromLevel !== c.toLevel, "a level change that changed nothing"); // prettier-ignore
    }
    // The chain's rebates come out of the fee just collected: invitation rebate + agent rebate
    // never more than the team's fees, per agent and asset, and so per mode and asset.
    for (const [, t] of a.totals) {
      assert(t.fees >= 0n && t.rebates >= 0n && t.referralRebates >= 0n, "negative agent totals");
      assert(t.rebates + t.referralRebates <= t.fees, "rebates exceed the team's fees");
    }
    if (a.levels.size > 0 || a.current.size > 0 || a.lastDay.size > 0 || a.volumes.size > 0) {
      assert(a.dueMs > 0, "agent figures without a scheduled recount");
    }
  },
} satisfies KernelModule;
