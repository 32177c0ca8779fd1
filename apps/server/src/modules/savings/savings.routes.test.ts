// The savings API end to end on the real kernel, engine, journal and read models: plans with
// their reserve and sold-out state, subscriptions in demo and real mode that reserve the whole
// promise or are refused, daily payouts as the clock advances, early redemption, the operator's
// plan and funding endpoints, and bad or unauthorised input that changes nothing.

import { getBalance, savingsOwners } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

const DAY = 86_400_000;

describeEachDatabase("savings API", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest<"a" | "b" | "demo">("10.3.0");
  const { users, submit, query, call, operator } = kit;
  let request = 0;
  let clock = 0;
  const advance = async (ms: number) => {
    nowMs += ms;
    await submit({ type: "clock_tick", id: `test-clock-${++clock}` });
  };
  const subscribe = (
    user: "a" | "b" | "demo",
    fields: Record<string, unknown> = {},
    lang?: string,
  ) =>
    call("POST", "/api/v1/savings/subscriptions", {
      token: users[user].token,
      lang,
      payload: {
        requestId: `request-${String(++request).padStart(6, "0")}`,
        planId: "p7",
        amount: "100",
        ...fields,
      },
    });
  const plan = async (mode: "real" | "demo", planId = "p7") =>
    (await call("GET", `/api/v1/savings/plans?mode=${mode}`))
      .json()
      .data.items.find((p: { planId: string }) => p.planId === planId);
  const fund = (id: string) =>
    getBalance(
      kit.running.engine.query((s) => s),
      id,
      "real",
      "fund",
      "USDT",
    );

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      savings: {
        plans: [
          {
            planId: "p7",
            kind: "savings",
            name: "Seven days",
            asset: "USDT",
            cycleDays: 7,
            // 1 % a day: 100 USDT → 1 USDT a day, 7 USDT promised.
            dailyRatePercent: "1",
            amountMin: "10",
            amountMax: "1000",
            amountStep: "1",
            capacity: "500",
            earlyRedemption: "forfeit_unpaid",
            earlyPenaltyBps: 100,
            open: true,
          },
        ],
      },
    });
    await kit.signUp("a", "+4915100000191");
    await kit.signUp("b", "+4915100000192");
    await kit.signInDemo("demo");
    await kit.deposit({
      id: "deposit-a-usdt",
      ownerId: users.a.id,
      assetId: "USDT",
      amount: "1000",
      reference: "bank-a",
    });
  });
  afterAll(kit.close);

  it("lists plans publicly: real is sold out until the operator funds yield; demo is funded", async () => {
    const response = await call("GET", "/api/v1/savings/plans?mode=real");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.enabled).toBe(true);
    expect(await plan("real")).toMatchObject({
      planId: "p7",
      kind: "savings",
      dailyRatePercent: "1",
      dailyRateE8: 1_000_000,
      cycleDays: 7,
      capacityLeft: "500",
      reserved: "0",
      yieldAvailable: "0",
      soldOut: true,
    });
    expect(await plan("demo")).toMatchObject({ soldOut: false, yieldAvailable: "1000000" });
    const refused = await subscribe("a");
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toBe("savings_sold_out");
    expect(fund(users.a.id).available).toBe(1_000_000_000n);
  });

  it("operator funds real yield; a promise short by one unit is refused, then accepted", async () => {
    const short = await call("POST", "/api/v1/operator/savings/yield", {
      headers: operator,
      payload: {
        id: "fund-00000001",
        mode: "real",
        asset: "USDT",
        amount: "6.999999",
        reference: "wire-1",
      },
    });
    expect(short.statusCode, short.body).toBe(200);
    expect(short.json().data.yieldAvailable).toBe("6.999999");
    expect((await subscribe("a")).json().error).toBe("savings_sold_out");
    const more = await call("POST", "/api/v1/operator/savings/yield", {
      headers: operator,
      payload: {
        id: "fund-00000002",
        mode: "real",
        asset: "USDT",
        amount: "0.000001",
        reference: "wire-2",
      },
    });
    expect(more.statusCode, more.body).toBe(200);
    const made = await subscribe("a");
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data.subscription).toMatchObject({
      amount: "100",
      expectedProfit: "7",
      dailyProfit: "1",
      cumulativeProfit: "0",
      remainingDays: 7,
      state: "in_progress",
    });
    expect(await plan("real")).toMatchObject({ reserved: "7", reserveTotal: "7", soldOut: true });
    expect(
      query((s) => getBalance(s, savingsOwners.reserve, "real", "fund", "USDT").available),
    ).toBe(7_000_000n);
  });

  it("pays a day when the clock passes it, and lists it with its profit", async () => {
    await advance(DAY);
    const list = await call("GET", "/api/v1/savings/subscriptions", { token: users.a.token });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items[0]).toMatchObject({
      cumulativeProfit: "1",
      paidDays: 1,
      remainingDays: 6,
      state: "in_progress",
    });
    expect(fund(users.a.id).available).toBe(901_000_000n);
  });

  it("redeems early: principal back less the penalty, unpaid interest back to the yield", async () => {
    const list = await call("GET", "/api/v1/savings/subscriptions", { token: users.a.token });
    const id = list.json().data.items[0].subscriptionId as string;
    const stolen = await call("POST", `/api/v1/savings/subscriptions/${id}/redeem`, {
      token: users.b.token,
    });
    expect(stolen.statusCode).toBe(404);
    const redeemed = await call("POST", `/api/v1/savings/subscriptions/${id}/redeem`, {
      token: users.a.token,
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(redeemed.json().data.subscription).toMatchObject({
      state: "early_redeemed",
      principalReturned: "99",
      penalty: "1",
      interestForfeited: "6",
    });
    expect(fund(users.a.id).available).toBe(1_000_000_000n);
    expect(await plan("real")).toMatchObject({ reserved: "0", yieldAvailable: "7" });
    const again = await call("GET", "/api/v1/savings/subscriptions", { token: users.a.token });
    expect(again.json().data.items[0]).toMatchObject({
      subscriptionId: id,
      state: "early_redeemed",
    });
  });

  it("shows every savings posting in the user's statement, citing the subscription", async () => {
    await kit.running.projector.flush();
    const response = await call("GET", "/api/v1/spot/statement?asset=USDT&limit=50", {
      token: users.a.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const reasons = response
      .json()
      .data.items.map(
        (line: { reason: string; amount: string }) => `${line.reason} ${line.amount}`,
      );
    expect(reasons).toEqual(
      expect.arrayContaining([
        "savings_principal -100",
        "savings_interest 1",
        "savings_principal_return 99",
      ]),
    );
  });

  it("demo: subscribes with demo money, in the user's language when refused", async () => {
    const made = await subscribe("demo", { amount: "50" });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data.subscription).toMatchObject({ mode: "demo", state: "in_progress" });
    const low = await subscribe("demo", { amount: "5" }, "de");
    expect(low.statusCode).toBe(400);
    expect(low.json().error).toBe("savings_amount_below_minimum");
    expect(low.json().message).toContain("Minimum");
  });

  it("a retry with the same requestId returns the first subscription", async () => {
    const first = await subscribe("demo", { requestId: "same-request-1", amount: "20" });
    expect(first.statusCode, first.body).toBe(200);
    const again = await subscribe("demo", { requestId: "same-request-1", amount: "20" });
    expect(again.json().data).toMatchObject({ duplicate: true });
    const other = await subscribe("demo", { requestId: "same-request-1", amount: "21" });
    expect(other.json().error).toBe("client_order_id_reused");
  });

  it("refuses malformed, oversized, negative, over-precise and unauthorised input", async () => {
    const before = fund(users.a.id).available;
    for (const [amount, status] of [
      ["abc", 400],
      ["-5", 400],
      ["1".repeat(41), 400],
      ["10.0000001", 400],
      ["0", 400],
      ["100000000", 400],
    ] as const) {
      const response = await subscribe("a", { amount });
      expect(response.statusCode, `${amount}: ${response.body}`).toBe(status);
    }
    expect((await subscribe("a", { planId: "../etc" })).statusCode).toBe(400);
    expect((await subscribe("a", { planId: "nope" })).statusCode).toBe(404);
    expect((await subscribe("a", { extra: 1 })).statusCode).toBe(400);
    const anonymous = await call("POST", "/api/v1/savings/subscriptions", {
      payload: { requestId: "anonymous-1", planId: "p7", amount: "10" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await call("GET", "/api/v1/savings/subscriptions")).statusCode).toBe(401);
    for (const url of ["/api/v1/operator/savings/yield", "/api/v1/operator/savings/plans"]) {
      const method = url.endsWith("plans") ? "PUT" : "POST";
      const user = await call(method, url, { token: users.a.token, payload: {} });
      expect([401, 403]).toContain(user.statusCode);
    }
    const noReference = await call("POST", "/api/v1/operator/savings/yield", {
      headers: operator,
      payload: { id: "fund-00000003", mode: "real", asset: "USDT", amount: "1" },
    });
    expect(noReference.statusCode).toBe(400);
    const negative = await call("POST", "/api/v1/operator/savings/yield", {
      headers: operator,
      payload: { id: "fund-00000004", mode: "real", asset: "USDT", amount: "-1", reference: "x" },
    });
    expect(negative.statusCode).toBe(400);
    expect(fund(users.a.id).available).toBe(before);
  });

  it("switched off (SAVINGS_ENABLED=false): no plans and no new subscriptions", async () => {
    const off = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken: "operator-token",
      engine: kit.running.engine,
      accounts: accountOpener(kit.running.engine),
      savings: { enabled: false },
    });
    try {
      const plans = await off.inject({ method: "GET", url: "/api/v1/savings/plans" });
      expect(plans.json().data).toEqual({ enabled: false, items: [] });
      const refused = await off.inject({
        method: "POST",
        url: "/api/v1/savings/subscriptions",
        headers: { authorization: `Bearer ${users.a.token}` },
        payload: { requestId: "switched-off-1", planId: "p7", amount: "10" },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("savings_disabled");
    } finally {
      await off.close();
    }
  });

  it("operator defines a mining product with hardware; users see it with its terms", async () => {
    const defined = await call("PUT", "/api/v1/operator/savings/plans", {
      headers: operator,
      payload: {
        planId: "m1",
        kind: "mining",
        name: "Miner",
        hardware: {
          manufacturer: "Example",
          hashrate: "100 TH/s",
          wallPower: "3000 W",
          boxSize: "small",
          pool: "pool",
        },
        asset: "USDT",
        cycleDays: 2,
        dailyRatePercent: "0.5",
        amountMin: "10",
        amountMax: "100",
        amountStep: "10",
        capacity: "1000",
        earlyRedemption: "none",
        open: true,
      },
    });
    expect(defined.statusCode, defined.body).toBe(200);
    expect(defined.json().data.plan).toMatchObject({ kind: "mining", hardware: { pool: "pool" } });
    const mined = await subscribe("demo", { planId: "m1", amount: "30" });
    expect(mined.statusCode, mined.body).toBe(200);
    expect(mined.json().data.subscription).toMatchObject({ quantity: "3", expectedProfit: "0.3" });
    const id = mined.json().data.subscription.subscriptionId as string;
    const early = await call("POST", `/api/v1/savings/subscriptions/${id}/redeem`, {
      token: users.demo.token,
    });
    expect(early.json().error).toBe("savings_early_redemption_not_allowed");
    await advance(2 * DAY);
    const list = await call("GET", "/api/v1/savings/subscriptions", { token: users.demo.token });
    const ended = list
      .json()
      .data.items.find((s: { subscriptionId: string }) => s.subscriptionId === id);
    expect(ended).toMatchObject({
      state: "ended",
      cumulativeProfit: "0.3",
      principalReturned: "30",
    });
  });
});
