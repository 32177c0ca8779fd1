// The seconds API end to end on the real kernel, engine, journal and read models: products with
// the disclosure, purchases in demo and real mode, settlement by the tape with both tick ids,
// history, retries, and bad or unauthorised input that changes nothing.

import { getSecondsOpenContracts } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { SecondsService } from "./seconds.service.ts";

/** The one product of the suite: BTCUSDT, 5 seconds, paying 85 %. */
const product = {
  instrumentId: "BTCUSDT",
  periodS: 5,
  asset: "USDT",
  payoutBps: 8_500,
  stakeMin: "1",
  stakeMax: "100",
  exposureMax: "1000",
  graceS: 3,
};

describeEachDatabase("seconds API", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest("10.2.0");
  const { users, query, call, operator } = kit;
  let request = 0;
  const recordTick = (price: string) => kit.recordTick("BTCUSDT", price, nowMs);
  const buy = (user: string, fields: Record<string, unknown> = {}, lang?: string) =>
    call("POST", "/api/v1/seconds/contracts", {
      token: users[user]!.token,
      lang,
      payload: {
        requestId: `request-${String(++request).padStart(6, "0")}`,
        instrumentId: "BTCUSDT",
        periodS: 5,
        direction: "up",
        stake: "10",
        ...fields,
      },
    });

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await recordTick("30000");
    await kit.startApp(database(), {
      now: () => nowMs,
      seconds: {
        disclosureCacheMs: 0,
        products: [product],
      },
    });
    await kit.signUp("a", "+4915100000091");
    await kit.signUp("b", "+4915100000092");
    await kit.signInDemo("demo");
    await kit.deposit({
      id: "deposit-a-usdt",
      ownerId: users.a!.id,
      assetId: "USDT",
      amount: "1000",
      reference: "bank-a",
    });
  });
  afterAll(kit.close);

  it("lists products with payout, break-even win rate and the disclosure (public)", async () => {
    const response = await call("GET", "/api/v1/seconds/products?mode=demo");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      enabled: true,
      items: [
        {
          instrumentId: "BTCUSDT",
          periodS: 5,
          payoutBps: 8_500,
          breakEvenWinRateBps: 5_406,
          stakeMin: "1",
          stakeMax: "100",
          lastPrice: "30000",
          lastTickId: "t1",
        },
      ],
      disclosure: { mode: "demo", settledCount: 0, wonShareBps: null, usersNet: [] },
    });
  });

  it("demo: buys up, settles on the first tick at expiry, cites both ticks", async () => {
    const bought = await buy("demo");
    expect(bought.statusCode, bought.body).toBe(200);
    const contract = bought.json().data.contract;
    expect(contract).toMatchObject({
      mode: "demo",
      direction: "up",
      stake: "10",
      payoutMax: "8.5",
      openPrice: "30000",
      openTickId: "t1",
      status: "open",
    });
    const open = await call("GET", "/api/v1/seconds/contracts?status=open", {
      token: users.demo!.token,
    });
    expect(open.json().data.items.map((c: { contractId: string }) => c.contractId)).toEqual([
      contract.contractId,
    ]);
    nowMs += 4_999;
    await recordTick("30010"); // before expiry: the tape moves, nothing settles
    nowMs += 1;
    const settleTick = await recordTick("30020");
    const detail = await call("GET", `/api/v1/seconds/contracts/${contract.contractId}`, {
      token: users.demo!.token,
    });
    expect(detail.json().data.contract).toMatchObject({
      status: "settled",
      outcome: "win",
      openTickId: "t1",
      settleTickId: settleTick,
      settlePrice: "30020",
      returned: "18.5",
      profit: "8.5",
    });
    await kit.running.projector.flush();
    const history = await call("GET", "/api/v1/seconds/contracts?status=settled&outcome=win", {
      token: users.demo!.token,
    });
    expect(history.json().data.items).toHaveLength(1);
    const products = await call("GET", "/api/v1/seconds/products?mode=demo");
    expect(products.json().data.disclosure).toMatchObject({
      settledCount: 1,
      wonCount: 1,
      wonShareBps: 10_000,
      usersNet: [{ asset: "USDT", amount: "8.5" }],
    });
    // Another user cannot see it: it answers like a missing one.
    const foreign = await call("GET", `/api/v1/seconds/contracts/${contract.contractId}`, {
      token: users.b!.token,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("seconds_contract_not_found");
  });

  it("real: trade password, house reservation, then a loss", async () => {
    const noPassword = await buy("a");
    expect(noPassword.json().error).toBe("trade_password_required");
    const wrong = await buy("a", { tradePassword: "wrong-password" });
    expect(wrong.json().error).toBe("trade_password_invalid");
    const unfunded = await buy("a", { tradePassword: "trade1234" }, "de");
    expect(unfunded.statusCode).toBe(409);
    expect(unfunded.json()).toMatchObject({ error: "seconds_house_insufficient" });
    expect(unfunded.json().message).toMatch(/Haus/);
    const funded = await call("POST", "/api/v1/operator/house/deposits", {
      headers: operator,
      payload: { id: "house-funding-1", assetId: "USDT", amount: "500", reference: "bank-house" },
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const bought = await buy("a", { direction: "down", stake: "20" });
    expect(bought.statusCode, bought.body).toBe(200);
    const contract = bought.json().data.contract;
    nowMs += 6_000;
    const settleTick = await recordTick("30100");
    const detail = await call("GET", `/api/v1/seconds/contracts/${contract.contractId}`, {
      token: users.a!.token,
    });
    expect(detail.json().data.contract).toMatchObject({
      mode: "real",
      outcome: "loss",
      settleTickId: settleTick,
      returned: "0",
      profit: "-20",
    });
    await kit.running.projector.flush();
    const products = await call("GET", "/api/v1/seconds/products");
    expect(products.json().data.disclosure).toMatchObject({
      mode: "real",
      settledCount: 1,
      lostCount: 1,
      wonShareBps: 0,
      usersNet: [{ asset: "USDT", amount: "-20" }],
    });
  });

  it("a retry returns the first contract; the same id with other terms is refused", async () => {
    const payload = {
      requestId: "retry-000001",
      instrumentId: "BTCUSDT",
      periodS: 5,
      direction: "up",
      stake: "2",
    };
    const first = await call("POST", "/api/v1/seconds/contracts", {
      token: users.demo!.token,
      payload,
    });
    expect(first.statusCode, first.body).toBe(200);
    const again = await call("POST", "/api/v1/seconds/contracts", {
      token: users.demo!.token,
      payload,
    });
    expect(again.json().data).toMatchObject({
      duplicate: true,
      contract: { contractId: first.json().data.contract.contractId },
    });
    const other = await call("POST", "/api/v1/seconds/contracts", {
      token: users.demo!.token,
      payload: { ...payload, stake: "3" },
    });
    expect(other.json().error).toBe("client_order_id_reused");
  });

  it("bad, oversized, negative, over-precise and unauthorised input changes nothing", async () => {
    const before = query((s) => getSecondsOpenContracts(s, users.demo!.id, "demo").length);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ direction: "sideways" }, 400, "validation_failed"],
      [{ stake: "-1" }, 400, "validation_failed"],
      [{ stake: "0" }, 400, "validation_failed"],
      [{ stake: "1e3" }, 400, "validation_failed"],
      [{ stake: "1.0000001" }, 400, "amount_too_many_decimals"],
      [{ stake: "0.5" }, 400, "seconds_stake_below_minimum"],
      [{ stake: "100.01" }, 400, "seconds_stake_above_maximum"],
      [{ periodS: 7 }, 404, "seconds_product_not_found"],
      [{ periodS: 5.5 }, 400, "validation_failed"],
      [{ instrumentId: "NOPE" }, 404, "seconds_product_not_found"],
      [{ extra: true }, 400, "validation_failed"],
      [{ stake: "1".repeat(2_000) }, 413, "payload_too_large"],
    ];
    for (const [fields, status, error] of cases) {
      const response = await buy("demo", fields, "fr");
      expect(response.statusCode, `${JSON.stringify(fields).slice(0, 60)}: ${response.body}`).toBe(
        status,
      );
      expect(response.json().error).toBe(error);
      expect(response.json().message).not.toMatch(/^[a-z_]+$/);
    }
    const anonymous = await call("POST", "/api/v1/seconds/contracts", {
      payload: {
        requestId: "anon-000001",
        instrumentId: "BTCUSDT",
        periodS: 5,
        direction: "up",
        stake: "1",
      },
    });
    expect(anonymous.statusCode).toBe(401);
    const list = await call("GET", "/api/v1/seconds/contracts");
    expect(list.statusCode).toBe(401);
    const configure = await call("PUT", "/api/v1/operator/seconds/products", {
      token: users.a!.token,
      payload: {
        instrumentId: "BTCUSDT",
        periodS: 5,
        asset: "USDT",
        payoutBps: 20_000,
        stakeMin: "1",
        stakeMax: "100",
        exposureMax: "1000",
        graceS: 3,
        open: true,
      },
    });
    expect([401, 403]).toContain(configure.statusCode);
    expect(query((s) => getSecondsOpenContracts(s, users.demo!.id, "demo").length)).toBe(before);
  });

  it("the operator configures terms for later purchases only", async () => {
    const bought = await buy("demo", { stake: "5" });
    expect(bought.statusCode, bought.body).toBe(200);
    const configured = await call("PUT", "/api/v1/operator/seconds/products", {
      headers: operator,
      payload: {
        instrumentId: "BTCUSDT",
        periodS: 5,
        asset: "USDT",
        payoutBps: 100,
        stakeMin: "1",
        stakeMax: "100",
        exposureMax: "1000",
        graceS: 3,
        open: false,
      },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    expect(configured.json().data.product).toMatchObject({ payoutBps: 100, open: false });
    const closed = await buy("demo");
    expect(closed.json().error).toBe("seconds_product_closed");
    nowMs += 6_000;
    await recordTick("40000");
    const detail = await call(
      "GET",
      `/api/v1/seconds/contracts/${bought.json().data.contract.contractId}`,
      { token: users.demo!.token },
    );
    // Bought at 85 %: it pays 85 % whatever the product says now.
    expect(detail.json().data.contract).toMatchObject({ outcome: "win", returned: "9.25" });
  });

  it("pushes the owner's contract on the private stream when bought and when settled", async () => {
    const sent: { userId: string; mode: string; status: string; settleTickId: string | null }[] =
      [];
    const service = new SecondsService({
      engine: kit.running.engine,
      repository: {
        contract: async () => undefined,
        page: async () => [],
        outcomes: async () => new Map(),
        usersNet: async () => [],
      },
      now: () => nowMs,
      enabled: true,
      streams: {
        publishPrivate: (userId, mode, _stream, build) => {
          const message = build();
          sent.push({
            userId,
            mode,
            status: message.data.status,
            settleTickId: message.data.settleTickId,
          });
        },
      },
    });
    try {
      const reopened = await call("PUT", "/api/v1/operator/seconds/products", {
        headers: operator,
        payload: { ...product, open: true },
      });
      expect(reopened.statusCode, reopened.body).toBe(200);
      await recordTick("40500");
      const bought = await buy("demo", { stake: "1" });
      expect(bought.statusCode, bought.body).toBe(200);
      nowMs += 6_000;
      const settleTick = await recordTick("41000");
      expect(sent).toEqual([
        { userId: users.demo!.id, mode: "demo", status: "open", settleTickId: null },
        { userId: users.demo!.id, mode: "demo", status: "settled", settleTickId: settleTick },
      ]);
    } finally {
      service.stop();
    }
  });

  it("switched off for the deployment: no products, purchases refused, nothing moves", async () => {
    const off = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      engine: kit.running.engine,
      accounts: accountOpener(kit.running.engine),
      seconds: { enabled: false },
    });
    try {
      const products = await off.inject({ method: "GET", url: "/api/v1/seconds/products" });
      expect(products.json().data).toMatchObject({ enabled: false, items: [] });
      const before = query((s) => getSecondsOpenContracts(s, users.demo!.id, "demo").length);
      const bought = await off.inject({
        method: "POST",
        url: "/api/v1/seconds/contracts",
        headers: { authorization: `Bearer ${users.demo!.token}`, "x-lang": "ja" },
        payload: {
          requestId: "disabled-000001",
          instrumentId: "BTCUSDT",
          periodS: 5,
          direction: "up",
          stake: "1",
        },
      });
      expect(bought.statusCode).toBe(403);
      expect(bought.json().error).toBe("seconds_disabled");
      expect(query((s) => getSecondsOpenContracts(s, users.demo!.id, "demo").length)).toBe(before);
    } finally {
      await off.close();
    }
  });
});
