// Agents end to end on the real kernel, engine, journal and read models: members register with
// the agent's invite code, the operator sets agent levels (admin, with a reason; bad input
// refused), the members trade, the UTC day ends (a clock tick), the agent reaches LV1 and the
// next fee pays the agent rebate; `/api/v1/agents/me`, `/me/team` and `/me/history` show it.

import { getBalance, parseAmount } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

const levelsPath = "/api/v1/operator/agents/levels";
const DAY = 86_400_000;

describeEachDatabase("agents", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest<"agent" | "m1" | "m2" | "other">("10.9.0");
  const { users, call, query, operator } = kit;
  /** The member sells 0.01 BTC at 30,000 (300 USDT) to `other`: the member, taker, pays in USDT. */
  const sell = async (member: "m1" | "m2") => {
    expect((await kit.placeSpot("other", "buy")).statusCode).toBe(200);
    const sold = await kit.placeSpot(member, "sell");
    expect(sold.statusCode, sold.body).toBe(200);
  };
  const me = async (user: "agent" | "m1" = "agent") => {
    const response = await call("GET", "/api/v1/agents/me", { token: users[user].token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("agent", "+4915400000001");
    await kit.signUp("other", "+4915400000009");
    const code = await kit.inviteCode("agent");
    await kit.signUp("m1", "+4915400000002", code);
    await kit.signUp("m2", "+4915400000003", code);
    await kit.depositEach(
      [
        ["m1", "BTC", "1"],
        ["m2", "BTC", "1"],
        ["other", "USDT", "100000"],
      ],
      { reason: "test funding" },
    );
  }, 180_000);
  afterAll(() => kit.close());

  const level1 = {
    mode: "real",
    level: 1,
    asset: "USDT",
    upgradeMembers: 2,
    upgradeVolume: "600",
    keepMembers: 1,
    keepVolume: "300",
    rebateBps: { spot: 2_000, perp: 3_000, stocks: 4_000 },
    reason: "agent programme",
  };

  it("answers an empty agent view before anything is configured; refuses the signed out", async () => {
    expect(await me()).toMatchObject({ asset: null, level: 0, levels: [], next: null, keep: null });
    for (const path of [
      "/api/v1/agents/me",
      "/api/v1/agents/me/team",
      "/api/v1/agents/me/history",
    ]) {
      // prettier-ignore
      expect((await call("GET", path)).statusCode).toBe(401);
      expect((await call("GET", path, { token: "not-a-token" })).statusCode).toBe(401);
    }
    for (const bad of ["0", "101", "-1", "1.5", "abc", "5&extra=1"]) {
      const response = await call("GET", `/api/v1/agents/me/team?limit=${bad}`, {
        token: users.agent.token,
      });
      expect(response.statusCode, bad).toBe(400);
    }
  });

  it("refuses bad or unauthorised configuration, changing nothing", async () => {
    expect((await call("PUT", levelsPath, { payload: level1 })).statusCode).toBe(401);
    expect(
      (await call("PUT", levelsPath, { payload: level1, token: users.agent.token })).statusCode,
    ).toBe(401);
    for (const bad of [
      { ...level1, reason: undefined },
      { ...level1, reason: "" },
      { ...level1, level: 0 },
      { ...level1, level: 11 },
      { ...level1, level: 1.5 },
      { ...level1, upgradeMembers: -1 },
      { ...level1, upgradeMembers: 2.5 },
      { ...level1, rebateBps: { ...level1.rebateBps, spot: 10_001 } },
      { ...level1, rebateBps: { ...level1.rebateBps, perp: -1 } },
      { ...level1, rebateBps: { spot: 1 } },
      { ...level1, upgradeVolume: "-5" },
      { ...level1, upgradeVolume: 600 },
      { ...level1, keepVolume: "1e3" },
      { ...level1, mode: "paper" },
      { ...level1, extra: true },
    ]) {
      const response = await call("PUT", levelsPath, { payload: bad, headers: operator });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const overPrecise = await call("PUT", levelsPath, {
      payload: { ...level1, upgradeVolume: "1.0000001" },
      headers: operator,
    });
    expect(overPrecise.statusCode).toBe(400);
    const unknown = await call("PUT", levelsPath, {
      payload: { ...level1, asset: "NOPE" },
      headers: operator,
    });
    expect(unknown.statusCode).toBe(404);
    // A level without any upgrade condition is refused by the kernel.
    const noCondition = await call("PUT", levelsPath, {
      payload: { ...level1, upgradeMembers: 0, upgradeVolume: "0" },
      headers: operator,
    });
    expect(noCondition.statusCode).toBe(400);
    const oversized = await call("PUT", levelsPath, {
      payload: { ...level1, reason: "x".repeat(5_000) },
      headers: operator,
    });
    expect([400, 413]).toContain(oversized.statusCode);
    expect(query((s) => s.agent.levels.size)).toBe(0);
  });

  it("lists each mode's levels to operators only; refuses a query", async () => {
    expect((await call("GET", levelsPath)).statusCode).toBe(401);
    expect((await call("GET", levelsPath, { token: users.agent.token })).statusCode).toBe(401);
    expect(
      (await call("GET", levelsPath, { headers: { authorization: "Bearer not-a-token" } }))
        .statusCode,
    ).toBe(401);
    expect((await call("GET", `${levelsPath}?mode=real`, { headers: operator })).statusCode).toBe(
      400,
    );
    const listed = await call("GET", levelsPath, { headers: operator });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toEqual({
      modes: [
        { mode: "real", asset: null, levels: [] },
        { mode: "demo", asset: null, levels: [] },
      ],
    });
  });

  it("counts the team's day, reaches LV1 at the day boundary and pays the agent rebate", async () => {
    const set = await call("PUT", levelsPath, { headers: operator, payload: level1 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({
      mode: "real",
      asset: "USDT",
      levels: [
        {
          level: 1,
          upgradeMembers: 2,
          upgradeVolume: "600",
          keepMembers: 1,
          keepVolume: "300",
          rebateBps: { spot: 2_000, perp: 3_000, stocks: 4_000 },
        },
      ],
    });
    const listed = await call("GET", levelsPath, { headers: operator });
    expect(listed.json().data).toEqual({
      modes: [
        { mode: "real", asset: "USDT", levels: set.json().data.levels },
        { mode: "demo", asset: null, levels: [] },
      ],
    });
    await sell("m1");
    await sell("m2");
    const today = await me();
    expect(today).toMatchObject({
      asset: "USDT",
      level: 0,
      rebateBps: { spot: 0, perp: 0, stocks: 0 },
      team: { members: 2, validMembersToday: 2, volumeToday: "600", lastDay: null },
      keep: null,
      next: { level: 1, membersNeeded: 0, volumeNeeded: "0", progressBps: 10_000 },
    });
    const team = await call("GET", "/api/v1/agents/me/team", { token: users.agent.token });
    expect(team.statusCode).toBe(200);
    expect(team.json().data.members).toEqual([
      { account: "+49****03", joinedAt: expect.any(String), valid: true, volumeToday: "300" },
      { account: "+49****02", joinedAt: expect.any(String), valid: true, volumeToday: "300" },
    ]);

    // The UTC day ends: the recount runs at the first clock tick after midnight.
    nowMs += DAY;
    await kit.running.engine.submit({ type: "clock_tick", id: "clock-day-1" });
    const after = await me();
    expect(after).toMatchObject({
      level: 1,
      rebateBps: { spot: 2_000, perp: 3_000, stocks: 4_000 },
      team: {
        members: 2,
        validMembersToday: 0,
        volumeToday: "0",
        lastDay: { date: "2026-11-26", validMembers: 2, volume: "600" },
      },
      keep: { members: 1, volume: "300", met: false },
      next: null,
    });
    const history = await call("GET", "/api/v1/agents/me/history", { token: users.agent.token });
    expect(history.json().data.changes).toEqual([
      {
        date: "2026-11-26",
        fromLevel: 0,
        toLevel: 1,
        validMembers: 2,
        volume: "600",
        changedAt: new Date(nowMs).toISOString(),
      },
    ]);

    // The next fee pays 20 % to the agent, out of the fee account.
    const before = query((s) => getBalance(s, users.agent.id, "real", "fund", "USDT")).available;
    await sell("m1");
    const rebate = query((s) => getBalance(s, users.agent.id, "real", "fund", "USDT")).available - before; // prettier-ignore
    expect(rebate > 0n).toBe(true);
    await kit.running.projector.flush();
    const earned = (await me()).earnings;
    expect(earned).toHaveLength(1);
    const [row] = earned;
    expect(row).toMatchObject({ asset: "USDT", product: "spot" });
    // Three fees of the same size were paid; the rebate is a fifth of the last one.
    const units = (text: string) => {
      const parsed = parseAmount(text, 6);
      if (!parsed.ok) throw new Error(text);
      return parsed.value;
    };
    const fee = units(row.fees.total) / 3n;
    expect(rebate).toBe((fee * 2_000n) / 10_000n);
    expect(units(row.rebates.today)).toBe(rebate);
    expect(row.rebates.month).toBe(row.rebates.total);
    expect(units(row.fees.today)).toBe(fee);
    expect(units(row.fees.month)).toBe(3n * fee);
    // A member sees no agent figures of its own.
    expect((await me("m1")).earnings).toEqual([]);
  });

  it("keeps demo apart: the agent has no demo level", async () => {
    const switched = await call("PUT", "/api/v1/me/mode", {
      token: users.agent.token,
      payload: { mode: "demo" },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(await me()).toMatchObject({ mode: "demo", level: 0, asset: null, earnings: [] });
    await call("PUT", "/api/v1/me/mode", { token: users.agent.token, payload: { mode: "real" } });
  });
});
