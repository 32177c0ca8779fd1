// Deposit-bonus activities end to end on the real kernel, engine and journal: the operator
// defines an activity and funds the promotion account (roles, reasons, bad input refused); a
// reservation is refused while the promotion account is short; a reserved user's qualifying
// deposit pays the bonus; a reservation lapses after a week (clock advanced) and the reserve
// returns; the demo activity pays demo money only.

import { getBalance, promotionBalance } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { routeTest } from "../../testing/route-test.ts";

const DAY = 86_400_000;

describeEachDatabase("deposit-bonus activities", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest<"a" | "b">("10.9.0");
  const { users, call, query, operator } = kit;
  let request = 0;
  const reserve = (user: "a" | "b", activityId: string) =>
    call("POST", "/api/v1/activities/reservations", {
      token: users[user].token,
      payload: { activityId, requestId: `req-${String(++request).padStart(6, "0")}` },
    });
  const fund = (mode: "real" | "demo", amount: string) =>
    call("POST", "/api/v1/operator/activities/fund", {
      headers: operator,
      payload: {
        id: `fund-${String(++request).padStart(6, "0")}`,
        mode,
        asset: "USDT",
        amount,
        ...(mode === "real" ? { reference: `bank-${request}` } : {}),
        reason: "promotion budget",
      },
    });
  const deposit = (user: "a" | "b", amount: string) =>
    call("POST", "/api/v1/operator/deposits", {
      headers: operator,
      payload: {
        id: `deposit-${String(++request).padStart(6, "0")}`,
        ownerId: users[user].id,
        assetId: "USDT",
        amount,
        reference: `bank-${request}`,
        reason: "test funding",
      },
    });
  const welcome = {
    activityId: "welcome-1",
    mode: "real",
    asset: "USDT",
    minDeposit: "100",
    bonus: "10",
    capacity: 5,
    startsAt: "2026-11-01T00:00:00Z",
    endsAt: "2026-12-31T00:00:00Z",
    reason: "winter campaign",
  };

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915400000001");
    await kit.signUp("b", "+4915400000002");
  }, 180_000);
  afterAll(() => kit.close());

  it("refuses bad or unauthorised definitions and funding", async () => {
    const path = "/api/v1/operator/activities";
    expect((await call("PUT", path, { payload: welcome })).statusCode).toBe(401);
    expect((await call("PUT", path, { payload: welcome, token: users.a.token })).statusCode).toBe(
      401,
    );
    for (const bad of [
      { ...welcome, reason: undefined },
      { ...welcome, bonus: "-1" },
      { ...welcome, bonus: "0" },
      { ...welcome, bonus: 10 },
      { ...welcome, minDeposit: "1e2" },
      { ...welcome, capacity: 0 },
      { ...welcome, capacity: 1.5 },
      { ...welcome, activityId: "bad id" },
      { ...welcome, startsAt: "yesterday" },
      { ...welcome, extra: 1 },
    ]) {
      const response = await call("PUT", path, { payload: bad, headers: operator });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const overPrecise = await call("PUT", path, {
      payload: { ...welcome, bonus: "0.0000001" },
      headers: operator,
    });
    expect(overPrecise.statusCode).toBe(400);
    const backwards = await call("PUT", path, {
      payload: { ...welcome, endsAt: welcome.startsAt },
      headers: operator,
    });
    expect(backwards.statusCode).toBe(400);
    const noReference = await call("POST", "/api/v1/operator/activities/fund", {
      headers: operator,
      payload: { id: "fund-x", mode: "real", asset: "USDT", amount: "5", reason: "budget" },
    });
    expect(noReference.statusCode).toBe(400);
    expect(query((s) => s.activity.activities.size)).toBe(0);
  });

  it("refuses a reservation while the promotion account is short, then reserves and pays", async () => {
    const defined = await call("PUT", "/api/v1/operator/activities", {
      payload: welcome,
      headers: operator,
    });
    expect(defined.statusCode, defined.body).toBe(200);
    const listed = (await call("GET", "/api/v1/activities", { token: users.a.token })).json();
    expect(listed.data.activities).toMatchObject([
      {
        activityId: "welcome-1",
        state: "bookable",
        bonus: "10",
        minDeposit: "100",
        depositDays: 7,
      },
    ]);
    const short = await reserve("a", "welcome-1");
    expect(short.statusCode).toBe(409);
    expect(short.json().error).toBe("activity_promotion_short");
    const funded = await fund("real", "15");
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json().data.promotionAvailable).toBe("15");
    const reserved = await reserve("a", "welcome-1");
    expect(reserved.statusCode, reserved.body).toBe(200);
    expect(reserved.json().data.activity).toMatchObject({ state: "reserved", remaining: 4 });
    expect((await reserve("a", "welcome-1")).json().error).toBe("activity_already_reserved");
    expect((await reserve("b", "welcome-1")).json().error).toBe("activity_promotion_short");
    expect((await reserve("b", "nope")).json().error).toBe("activity_not_found");
    expect((await deposit("a", "100")).statusCode).toBe(200);
    const balance = query((s) => getBalance(s, users.a.id, "real", "fund", "USDT"));
    expect(balance.available).toBe(110_000_000n);
    // The bonus is a line of the user's statement, next to the deposit.
    await kit.running.projector.flush();
    const statement = await call("GET", "/api/v1/spot/statement", { token: users.a.token });
    expect(statement.statusCode, statement.body).toBe(200);
    const reasons = statement.json().data.items.map((line: { reason: string }) => line.reason);
    expect(reasons).toEqual(expect.arrayContaining(["deposit", "activity_bonus"]));
    const after = (await call("GET", "/api/v1/activities", { token: users.a.token })).json();
    expect(after.data.activities[0]).toMatchObject({
      state: "ended",
      reservation: { status: "paid" },
    });
  });

  it("lapses a reservation after a week (clock advanced) and returns the reserve", async () => {
    await fund("real", "10");
    expect((await reserve("b", "welcome-1")).statusCode).toBe(200);
    expect(query((s) => promotionBalance(s, "real", "reserve", "USDT"))).toBe(10_000_000n);
    nowMs += 7 * DAY;
    const tick = await kit.running.engine.submit({ type: "clock_tick", id: "clock-week" });
    expect(tick.result.ok).toBe(true);
    expect(query((s) => promotionBalance(s, "real", "reserve", "USDT"))).toBe(0n);
    expect(query((s) => promotionBalance(s, "real", "promotion", "USDT"))).toBe(15_000_000n);
    // (The sessions signed in a week ago have expired: the kernel is read directly.)
    const reservation = query((s) =>
      [...s.activity.reservations.values()].find((r) => r.ownerId === users.b.id),
    );
    expect(reservation?.status).toBe("lapsed");
    // A late deposit pays no bonus.
    expect((await deposit("b", "100")).statusCode).toBe(200);
    const balance = query((s) => getBalance(s, users.b.id, "real", "fund", "USDT"));
    expect(balance.available).toBe(100_000_000n);
  });

  it("keeps demo activities apart: a real session neither sees nor reserves them", async () => {
    const defined = await call("PUT", "/api/v1/operator/activities", {
      payload: { ...welcome, activityId: "demo-1", mode: "demo" },
      headers: operator,
    });
    expect(defined.statusCode, defined.body).toBe(200);
    expect((await fund("demo", "100")).statusCode).toBe(200);
    const fresh = (await registerByPhone(kit.app, "+4915400000003", kit.operatorToken)).json().data;
    users.a = { token: fresh.token, id: fresh.user.id };
    const real = (await call("GET", "/api/v1/activities", { token: users.a.token })).json();
    expect(real.data.activities.map((a: { activityId: string }) => a.activityId)).toEqual([
      "welcome-1",
    ]);
    // A real session cannot reserve the demo activity.
    expect((await reserve("a", "demo-1")).json().error).toBe("activity_not_found");
    expect(query((s) => promotionBalance(s, "real", "promotion", "USDT"))).toBe(15_000_000n);
  });

  it("lists every activity and the promotion balances to operators only", async () => {
    const path = "/api/v1/operator/activities";
    expect((await call("GET", path)).statusCode).toBe(401);
    expect((await call("GET", path, { token: users.a.token })).statusCode).toBe(401);
    const listed = await call("GET", path, { headers: operator });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toEqual({
      activities: [
        expect.objectContaining({
          activityId: "welcome-1",
          mode: "real",
          capacity: 5,
          remaining: 4,
          reservedCount: 0,
          paidCount: 1,
          status: "open",
        }),
        expect.objectContaining({ activityId: "demo-1", mode: "demo", remaining: 5, paidCount: 0 }),
      ],
      promotion: [
        { mode: "real", asset: "USDT", available: "15", reserved: "0" },
        { mode: "demo", asset: "USDT", available: "100", reserved: "0" },
      ],
    });
  });
});
