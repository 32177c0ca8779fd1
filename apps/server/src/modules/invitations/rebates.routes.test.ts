// Rebates end to end on the real kernel, engine, journal and read models: the invitee registers
// with the inviter's code (the server links them in the kernel), the operator sets the spot
// share (with a reason, admin only), the invitee trades, and the inviter's invitations answer
// shows the rebate out of the fee the invitee paid: total, today, this month and the record.

import { getBalance, systemOwners } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

const rebatesPath = "/api/v1/operator/referral/rebates";

describeEachDatabase("referral rebates", (database) => {
  const nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest<"inviter" | "invitee" | "other">("10.7.0");
  const { users, submit, query, call, operator } = kit;

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await submit({
      type: "record_tick",
      id: "tick:1",
      tickId: "BTCUSDT:1",
      instrumentId: "BTCUSDT",
      price: "30000",
      tickAtMs: nowMs,
    });
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("inviter", "+4915200000001");
    await kit.signUp("other", "+4915200000003");
    // The invitee registers with the code, as the invite link's form sends it.
    await kit.signUp("invitee", "+4915200000002", await kit.inviteCode("inviter"));
    await kit.depositEach(
      [
        ["invitee", "USDT", "10000"],
        ["other", "BTC", "1"],
      ],
      { reason: "test funding" },
    );
  }, 180_000);
  afterAll(kit.close);

  it("links the invitee to the inviter in the kernel at registration (real mode)", () => {
    const inviters = query((s) => s.referral.inviters);
    expect(inviters.get(`real|${users.invitee.id}`)).toBe(users.inviter.id);
    expect(inviters.has(`real|${users.other.id}`)).toBe(false);
  });

  it("refuses bad or unauthorised rebate configuration, changing nothing", async () => {
    const good = { mode: "real", product: "spot", rebateBps: 2_500, reason: "launch programme" };
    expect((await call("PUT", rebatesPath, { payload: good })).statusCode).toBe(401);
    expect(
      (await call("PUT", rebatesPath, { payload: good, token: users.inviter.token })).statusCode,
    ).toBe(401);
    for (const bad of [
      { ...good, reason: undefined },
      { ...good, reason: "" },
      { ...good, rebateBps: 10_001 },
      { ...good, rebateBps: -1 },
      { ...good, rebateBps: 12.5 },
      { ...good, rebateBps: "2500" },
      { ...good, product: "bonds" },
      { ...good, mode: "paper" },
      { ...good, extra: true },
      { ...good, reason: "x".repeat(501) },
    ]) {
      const response = await call("PUT", rebatesPath, {
        payload: bad,
        headers: operator,
        lang: "de",
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const oversized = await call("PUT", rebatesPath, {
      payload: { ...good, reason: "x".repeat(5_000) },
      headers: operator,
    });
    expect([400, 413]).toContain(oversized.statusCode);
    expect(query((s) => s.referral.rebateBps.size)).toBe(0);
  });

  it("pays the inviter a share of the fee the invitee paid, and shows it", async () => {
    const set = await call("PUT", rebatesPath, {
      headers: operator,
      payload: { mode: "real", product: "spot", rebateBps: 2_500, reason: "launch programme" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({
      mode: "real",
      rebateShares: { spot: 2_500, perp: 0, stocks: 0 },
    });
    const feesBefore = query((s) => getBalance(s, systemOwners.fees, "real", "fund", "BTC"));
    expect((await kit.placeSpot("other", "sell")).statusCode).toBe(200);
    const bought = await kit.placeSpot("invitee", "buy");
    expect(bought.statusCode, bought.body).toBe(200);
    await kit.running.projector.flush();
    const rebate = query((s) => getBalance(s, users.inviter.id, "real", "fund", "BTC"));
    const fees = query((s) => getBalance(s, systemOwners.fees, "real", "fund", "BTC"));
    // The taker (invitee, buying) paid its fee in BTC; a quarter of it went to the inviter.
    const fee = fees.available - feesBefore.available + rebate.available;
    expect(rebate.available > 0n).toBe(true);
    expect(rebate.available).toBe(fee / 4n);
    const me = await call("GET", "/api/v1/invitations/me", { token: users.inviter.token });
    expect(me.statusCode).toBe(200);
    const data = me.json().data;
    expect(data.invitedCount).toBe(1);
    expect(data.rebateShares).toEqual({ spot: 2_500, perp: 0, stocks: 0 });
    const amount = (units: bigint) => (Number(units) / 1e8).toFixed(8).replace(/\.?0+$/, "");
    expect(data.rebateTotals).toHaveLength(1);
    expect(data.rebateTotals[0].asset).toBe("BTC");
    expect(Number(data.rebateTotals[0].total)).toBe(Number(amount(rebate.available)));
    expect(data.rebateTotals[0].today).toBe(data.rebateTotals[0].total);
    expect(data.rebateTotals[0].month).toBe(data.rebateTotals[0].total);
    expect(data.rebateRecords).toEqual([
      {
        account: "+49****02",
        product: "spot",
        asset: "BTC",
        fee: data.rebateRecords[0].fee,
        rebate: data.rebateTotals[0].total,
        paidAt: new Date(nowMs).toISOString(),
      },
    ]);
    // The invitee earns nothing from its own fees, and sees no rebates.
    const own = (
      await call("GET", "/api/v1/invitations/me", { token: users.invitee.token })
    ).json();
    expect(own.data.rebateTotals).toEqual([]);
  });

  it("links in demo mode when the invitee first switches to demo; demo rebates stay demo", async () => {
    const switched = await call("PUT", "/api/v1/me/mode", {
      token: users.invitee.token,
      payload: { mode: "demo" },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const inviters = query((s) => s.referral.inviters);
    expect(inviters.get(`demo|${users.invitee.id}`)).toBe(users.inviter.id);
    // The real share does not apply to demo fees, and no demo rebate was paid.
    const demo = (
      await call("GET", "/api/v1/invitations/me", { token: users.inviter.token })
    ).json().data;
    expect(demo.rebateTotals).toHaveLength(1);
    expect(query((s) => s.referral.rebateBps.has("demo|spot"))).toBe(false);
  });

  it("applies two changes of one product made in the same millisecond, each once", async () => {
    // The test clock stands still, so every change here has the same time: each must still be
    // its own command (the id once was mode, product and time: client_order_id_reused).
    const change = (rebateBps: number) =>
      call("PUT", rebatesPath, {
        headers: operator,
        payload: { mode: "real", product: "stocks", rebateBps, reason: "stocks programme" },
      });
    const first = await change(1_000);
    expect(first.statusCode, first.body).toBe(200);
    const second = await change(1_500);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.rebateShares).toEqual({ spot: 2_500, perp: 0, stocks: 1_500 });
    const both = await Promise.all([change(1_200), change(1_200)]);
    expect(both.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(query((s) => s.referral.rebateBps.get("real|stocks"))).toBe(1_200);
  });
});
