// Hand-checked agent levels: configuration and its rejections; a level reached exactly at its
// upgrade thresholds and not just below; kept exactly at its keeping thresholds and lost just
// below; a jump over a level; several days counted by one late clock tick; the agent rebate
// after the invitation rebate, capped by what is left of the fee; demo apart; a snapshot
// that restores the same state.

import { describe, expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { apply, createKernelState, type Command, type Event } from "../index.ts";
import { checkInvariants } from "../invariants.ts";
import { accountOf, ownerOf } from "../ledger/accounts.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { CommandMaker } from "../testing/commands.ts";
import { agentHistory, agentTeam, agentView } from "./queries.ts";

const DAY = 86_400_000;
const D0 = 20_000; // a UTC day number

describe("agent levels", () => {
  it("reaches, keeps and loses levels at the day boundary, and pays capped rebates", () => {
    const state = createKernelState({}, createOrderBook);
    const c = new CommandMaker(D0 * DAY);
    const run = (command: Command) => {
      const out = apply(state, command);
      checkInvariants(state);
      return out;
    };
    const code = (command: Command) => {
      const out = run(command);
      return out.result.ok ? "ok" : out.result.code;
    };
    const ok = (command: Command) => {
      const out = run(command);
      if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
      return out.events;
    };
    const usdt = (owner: string) =>
      accountOf(state, ownerOf(state, "real", owner)!, "fund", "USDT").available;
    /** `member` sells `lots` × 0.001 BTC at `ticks` × 0.01 USDT to x (the taker pays 20 bps). */
    const sell = (
      member: string,
      lots: number,
      ticks = 3_000_000,
      mode: "real" | "demo" = "real",
    ) => {
      ok(c.limit("x", "BTC-USDT", "buy", ticks, lots, "gtc", mode));
      return ok(c.limit(member, "BTC-USDT", "sell", ticks, lots, "gtc", mode));
    };
    const clockAt = (day: number, offsetMs = 0) => {
      c.nowMs = day * DAY + offsetMs;
      return ok(c.clock());
    };
    const changes = (events: Event[]) =>
      events.flatMap((e) =>
        e.type === "agent_level_changed" ? [[e.agentId, e.fromLevel, e.toLevel, e.day]] : [],
      );
    const agentFees = (events: Event[]) =>
      events.flatMap((e) =>
        e.type === "agent_fee" ? [[e.memberId, e.fee, e.referralRebate, e.rebate, e.level]] : [],
      );

    ok(c.asset("USDT", 6));
    ok(c.asset("BTC", 8));
    ok(c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 10, feeBpsTaker: 20 }));
    ok(c.session("BTC-USDT", true));
    for (const user of ["A", "m1", "m2", "x"]) {
      ok(c.open(user));
      ok(c.open(user, "demo"));
      ok(c.deposit(user, "USDT", 1_000_000_000_000n));
      ok(c.deposit(user, "BTC", 10_000_000_000n));
      ok(c.grant(user, "USDT", 1_000_000_000_000n));
      ok(c.grant(user, "BTC", 10_000_000_000n));
    }
    for (const mode of ["real", "demo"] as const) {
      ok(c.referralLink("A", "m1", mode));
      ok(c.referralLink("A", "m2", mode));
    }
    ok(c.referralConfigure("spot", 1_000, "real"));

    // Rejections.
    expect(code(c.agentConfigure(0, { upgradeMembers: 1 }))).toBe("agent_level_invalid");
    expect(code(c.agentConfigure(11, { upgradeMembers: 1 }))).toBe("agent_level_invalid");
    expect(code(c.agentConfigure(1, {}))).toBe("agent_terms_invalid");
    expect(code(c.agentConfigure(1, { upgradeMembers: 1, spotBps: 10_001 }))).toBe("agent_terms_invalid"); // prettier-ignore
    expect(code(c.agentConfigure(1, { upgradeMembers: 1, perpBps: -1 }))).toBe("agent_terms_invalid"); // prettier-ignore
    expect(code(c.agentConfigure(1, { upgradeVolume: -1n, upgradeMembers: 1 }))).toBe("agent_terms_invalid"); // prettier-ignore
    expect(code(c.agentConfigure(1, { upgradeMembers: 1.5 }))).toBe("command_malformed");
    expect(code(c.agentConfigure(1, { assetId: "EUR", upgradeMembers: 1 }))).toBe("asset_not_found"); // prettier-ignore
    expect(code(c.agentConfigure(1, { remove: true }))).toBe("agent_level_invalid");

    // LV1: 2 valid members and 60 USDT a day to reach; 1 member and 30 USDT to keep; 20 % of spot.
    // LV2: 2 members and 90 USDT to reach; 2 members and 60 USDT to keep; 50 % of spot.
    expect(code(c.agentConfigure(1, { upgradeMembers: 2, upgradeVolume: 60_000_000n, keepMembers: 1, keepVolume: 30_000_000n, spotBps: 2_000 }))).toBe("ok"); // prettier-ignore
    expect(code(c.agentConfigure(2, { assetId: "BTC", upgradeMembers: 1 }))).toBe("agent_asset_mismatch"); // prettier-ignore
    expect(code(c.agentConfigure(2, { upgradeMembers: 2, upgradeVolume: 90_000_000n, keepMembers: 2, keepVolume: 60_000_000n, spotBps: 5_000 }))).toBe("ok"); // prettier-ignore

    // Day 0: only m1 trades, 2 lots = 60 USDT: volume enough, one member short.
    // m1's fee: 60 USDT × 20 bps = 0.12 USDT = 120,000; the invitation rebate 10 % = 12,000; no
    // agent level yet, so no agent rebate.
    expect(agentFees(sell("m1", 2))).toEqual([["m1", 120_000n, 12_000n, 0n, 0]]);
    expect(agentView(state, "real", "A").today).toEqual({ day: D0, validMembers: 1, teamVolume: 60_000_000n }); // prettier-ignore
    expect(changes(clockAt(D0 + 1))).toEqual([]);
    expect(agentView(state, "real", "A").lastDay).toEqual({ day: D0, validMembers: 1, teamVolume: 60_000_000n }); // prettier-ignore

    // Day 1: m1 and m2 each 1 lot: 2 members and 60 USDT, exactly LV1's upgrade conditions.
    sell("m1", 1);
    sell("m2", 1);
    expect(
      agentTeam(state, "real", "A").map((m) => [m.memberId, m.volumeToday, m.validToday]),
    ).toEqual([
      // prettier-ignore
      ["m1", 30_000_000n, true],
      ["m2", 30_000_000n, true],
    ]);
    // One millisecond before the boundary nothing is counted yet.
    expect(changes(clockAt(D0 + 2, -1))).toEqual([]);
    expect(agentView(state, "real", "A").level).toBe(0);
    expect(changes(clockAt(D0 + 2))).toEqual([["A", 0, 1, D0 + 1]]);
    expect(agentView(state, "real", "A").level).toBe(1);

    // Day 2: m1 sells 1 lot: fee 60,000; invitation 6,000; agent (LV1, 20 %) 12,000.
    const before = usdt("A");
    expect(agentFees(sell("m1", 1))).toEqual([["m1", 60_000n, 6_000n, 12_000n, 1]]);
    expect(usdt("A") - before).toBe(18_000n);
    // 1 member and 30 USDT: exactly LV1's keeping conditions: kept.
    expect(changes(clockAt(D0 + 3))).toEqual([]);
    expect(agentView(state, "real", "A").level).toBe(1);

    // Day 3: 1 lot at 29,999.99: 29.99999 USDT, just below the keeping volume: LV1 lost.
    sell("m1", 1, 2_999_999);
    expect(agentView(state, "real", "A").today.teamVolume).toBe(29_999_990n);
    expect(changes(clockAt(D0 + 4))).toEqual([["A", 1, 0, D0 + 3]]);

    // Day 4: 2 members, 90 USDT: straight to LV2 (the highest level whose upgrade holds).
    sell("m1", 2);
    sell("m2", 1);
    expect(changes(clockAt(D0 + 5))).toEqual([["A", 0, 2, D0 + 4]]);

    // Day 5: the invitation share rises to 90 %: the agent gets only the 10 % left of the fee
    // (50 % of 60,000 = 30,000, capped at 60,000 − 54,000 = 6,000).
    ok(c.referralConfigure("spot", 9_000, "real"));
    expect(agentFees(sell("m1", 1))).toEqual([["m1", 60_000n, 54_000n, 6_000n, 2]]);

    // Demo is apart: no levels there, no demo agent fees, real figures untouched.
    expect(agentFees(sell("m2", 5, 3_000_000, "demo"))).toEqual([]);
    expect(agentView(state, "demo", "A").level).toBe(0);
    expect(agentView(state, "real", "A").today.validMembers).toBe(1);

    // A late tick on day 8 counts days 5, 6 and 7 in order: day 5 (1 member, 30 USDT) keeps no
    // LV2 but LV1; day 6 (nobody) loses LV1; day 7 changes nothing.
    expect(changes(clockAt(D0 + 8, 5))).toEqual([
      ["A", 2, 1, D0 + 5],
      ["A", 1, 0, D0 + 6],
    ]);
    expect(agentHistory(state, "real", "A").map((h) => [h.fromLevel, h.toLevel, h.day])).toEqual([
      [1, 0, D0 + 6],
      [2, 1, D0 + 5],
      [0, 2, D0 + 4],
      [1, 0, D0 + 3],
      [0, 1, D0 + 1],
    ]);
    const totals = agentView(state, "real", "A").totals;
    expect(totals).toEqual([
      {
        assetId: "USDT",
        totals: {
          // Days 0–5: 120,000 + 2 × 60,000 + 60,000 + 60,000 (29.99999 × 20 bps = 59,999.98,
          // rounded up in the venue's favour) + 180,000 + 60,000.
          fees: 600_000n,
          referralRebates: 12_000n + 12_000n + 6_000n + 6_000n + 18_000n + 54_000n,
          // Day 2 and day 3 at LV1 (the level is lost only at the end of day 3), day 5 capped.
          rebates: 12_000n + 12_000n + 6_000n,
        },
      },
    ]);

    // The snapshot restores the same state, and the recount goes on after it.
    const copy = restore(snapshot(state), createOrderBook);
    expect(stateHash(copy)).toBe(stateHash(state));
    const next = c.clock(DAY);
    apply(state, next);
    apply(copy, next);
    expect(stateHash(copy)).toBe(stateHash(state));
  });
});
