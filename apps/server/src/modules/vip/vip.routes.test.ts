// VIP end to end on the real kernel, engine and journal: the operator sets levels (admin, with a
// reason; bad input refused), users trade, `GET /api/v1/vip/me` shows the 30-day volume, level
// and progress, and the next fill's fee is discounted by the kernel.

import { getBalance, systemOwners } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

const levelsPath = "/api/v1/operator/vip/levels";

describeEachDatabase("VIP levels", (database) => {
  const nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest<"buyer" | "seller">("10.8.0");
  const { users, call, query, operator } = kit;
  const trade = async () => {
    expect((await kit.placeSpot("seller", "sell")).statusCode).toBe(200);
    const bought = await kit.placeSpot("buyer", "buy");
    expect(bought.statusCode, bought.body).toBe(200);
  };
  const btcFees = () => query((s) => getBalance(s, systemOwners.fees, "real", "fund", "BTC"));

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("buyer", "+4915300000001");
    await kit.signUp("seller", "+4915300000002");
    await kit.depositEach(
      [
        ["buyer", "USDT", "10000"],
        ["seller", "BTC", "1"],
      ],
      { reason: "test funding" },
    );
  }, 180_000);
  afterAll(() => kit.close());

  const level1 = {
    mode: "real",
    level: 1,
    asset: "USDT",
    minVolume: "300",
    feeDiscountBps: 5_000,
    reason: "VIP launch",
  };

  it("answers an empty VIP view before anything is configured", async () => {
    const me = await call("GET", "/api/v1/vip/me", { token: users.buyer.token });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ asset: null, level: null, levels: [], next: null });
    expect((await call("GET", "/api/v1/vip/me")).statusCode).toBe(401);
  });

  it("refuses bad or unauthorised configuration, changing nothing", async () => {
    expect((await call("PUT", levelsPath, { payload: level1 })).statusCode).toBe(401);
    expect(
      (await call("PUT", levelsPath, { payload: level1, token: users.buyer.token })).statusCode,
    ).toBe(401);
    for (const bad of [
      { ...level1, reason: undefined },
      { ...level1, reason: "" },
      { ...level1, level: 11 },
      { ...level1, level: -1 },
      { ...level1, level: 1.5 },
      { ...level1, feeDiscountBps: 10_001 },
      { ...level1, feeDiscountBps: -1 },
      { ...level1, minVolume: "-5" },
      { ...level1, minVolume: 300 },
      { ...level1, minVolume: "1e3" },
      { ...level1, mode: "paper" },
      { ...level1, extra: true },
    ]) {
      const response = await call("PUT", levelsPath, { payload: bad, headers: operator });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const overPrecise = await call("PUT", levelsPath, {
      payload: { ...level1, minVolume: "1.0000001" },
      headers: operator,
    });
    expect(overPrecise.statusCode).toBe(400);
    const unknown = await call("PUT", levelsPath, {
      payload: { ...level1, asset: "NOPE" },
      headers: operator,
    });
    expect(unknown.statusCode).toBe(404);
    // Level 1 without any condition is refused by the kernel.
    const noCondition = await call("PUT", levelsPath, {
      payload: { ...level1, minVolume: "0" },
      headers: operator,
    });
    expect(noCondition.statusCode).toBe(400);
    const oversized = await call("PUT", levelsPath, {
      payload: { ...level1, reason: "x".repeat(5_000) },
      headers: operator,
    });
    expect([400, 413]).toContain(oversized.statusCode);
    expect(query((s) => s.vip.levels.size)).toBe(0);
  });

  it("counts volume, shows progress and discounts the fee once the level is reached", async () => {
    const base = await call("PUT", levelsPath, {
      headers: operator,
      payload: {
        mode: "real",
        level: 0,
        asset: "USDT",
        feeDiscountBps: 0,
        withdrawDailyLimit: "5000",
        reason: "VIP launch",
      },
    });
    expect(base.statusCode, base.body).toBe(200);
    const set = await call("PUT", levelsPath, { headers: operator, payload: level1 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.levels).toEqual([
      { level: 0, minVolume: "0", minBalance: "0", feeDiscountBps: 0, withdrawDailyLimit: "5000" },
      {
        level: 1,
        minVolume: "300",
        minBalance: "0",
        feeDiscountBps: 5_000,
        withdrawDailyLimit: null,
      },
    ]);
    const before = btcFees().available;
    await trade();
    const fullFee = btcFees().available - before;
    expect(fullFee > 0n).toBe(true);
    const me = (await call("GET", "/api/v1/vip/me", { token: users.buyer.token })).json().data;
    expect(me).toMatchObject({ asset: "USDT", volume30d: "300", level: 1, next: null });
    const seller = (await call("GET", "/api/v1/vip/me", { token: users.seller.token })).json();
    expect(seller.data.level).toBe(1);
    // The buyer (taker, paying in BTC) now pays half the fee, rounded in the venue's favour.
    const middle = btcFees().available;
    await trade();
    expect(btcFees().available - middle).toBe(fullFee - fullFee / 2n);
  });

  it("shows progress to a higher level in integer basis points", async () => {
    const set = await call("PUT", levelsPath, {
      headers: operator,
      payload: { ...level1, level: 2, minVolume: "2400", feeDiscountBps: 8_000 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const me = (await call("GET", "/api/v1/vip/me", { token: users.buyer.token })).json().data;
    expect(me.volume30d).toBe("600");
    expect(me.next).toEqual({
      level: 2,
      volumeNeeded: "1800",
      balanceNeeded: null,
      progressBps: 2_500,
    });
  });

  it("lists each mode's levels to operators only", async () => {
    expect((await call("GET", levelsPath)).statusCode).toBe(401);
    expect((await call("GET", levelsPath, { token: users.buyer.token })).statusCode).toBe(401);
    const listed = await call("GET", levelsPath, { headers: operator });
    expect(listed.statusCode, listed.body).toBe(200);
    const { modes } = listed.json().data;
    expect(modes.map((m: { mode: string }) => m.mode)).toEqual(["real", "demo"]);
    expect(modes[0].asset).toBe("USDT");
    expect(modes[0].levels.map((l: { level: number }) => l.level)).toEqual([0, 1, 2]);
    expect(modes[1]).toEqual({ mode: "demo", asset: null, levels: [] });
  });
});
