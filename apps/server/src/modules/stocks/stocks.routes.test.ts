// The stocks API end to end on the real kernel, engine, journal and read models: the list and
// detail with session state, the closed-market refusal, demo and real orders at the recorded
// quote ± spread with commission and HK stamp duty, limit orders filling on a later tick,
// cancel, holdings with TP/SL triggered by a tick, history from the read models, and bad or
// unauthorised input that changes nothing.

import { getStockInventory } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

describeEachDatabase("stocks API", (database) => {
  // Wednesday 25 November 2026, 10:00 in Hong Kong (HKEX open), 21:00 in New York (closed).
  let nowMs = Date.parse("2026-11-25T02:00:00Z");
  const kit = routeTest("10.3.0");
  const { users, query, call, operator } = kit;
  let request = 0;
  const recordTick = (instrumentId: string, price: string) =>
    kit.recordTick(instrumentId, price, nowMs);
  const order = (user: string, fields: Record<string, unknown>, lang?: string) =>
    call("POST", "/api/v1/stocks/orders", {
      token: users[user]!.token,
      lang,
      payload: {
        requestId: `request-${String(++request).padStart(6, "0")}`,
        instrumentId: "AAPL",
        side: "buy",
        kind: "market",
        quantity: "1",
        ...fields,
      },
    });

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs, stocks: { sessionSyncMs: 0 } });
    await recordTick("AAPL", "200.00");
    await recordTick("0700.HK", "420.200");
    await kit.signUp("a", "+4915100000191");
    await kit.signUp("b", "+4915100000192");
    await kit.signInDemo("demo");
    for (const [asset, amount] of [
      ["USD", "10000"],
      ["HKD", "100000"],
    ]) {
      await kit.deposit({
        id: `deposit-a-${asset}`,
        ownerId: users.a!.id,
        assetId: asset!,
        amount: amount!,
        reference: "bank-a",
      });
    }
  });
  afterAll(kit.close);

  it("lists stocks with terms, session and quote (pagedata, public)", async () => {
    const response = await call("GET", "/api/v1/stocks?mode=demo");
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().data.items as { instrumentId: string }[];
    expect(items).toHaveLength(13);
    expect(items.find((i) => i.instrumentId === "0700.HK")).toMatchObject({
      asset: "HKD",
      lotSize: "100",
      stampDutyBps: 10,
      stampDutyRoundTo: "1",
      session: { open: true, sessionId: "hkex:2026-11-25" },
      lastPrice: "420.200",
      ask: "420.621",
      bid: "419.779",
    });
    expect(items.find((i) => i.instrumentId === "AAPL")).toMatchObject({
      session: { open: false },
      stampDutyBps: 0,
    });
    const detail = await call("GET", "/api/v1/stocks/AAPL");
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.stock.name).toBe("Apple");
    expect((await call("GET", "/api/v1/stocks/NOPE")).statusCode).toBe(404);
  });

  it("refuses a US order while New York is closed, in the user's language", async () => {
    const funds = await call("POST", "/api/v1/stocks/demo-funds", { token: users.demo!.token });
    expect(funds.statusCode, funds.body).toBe(200);
    const closed = await order("demo", {}, "de");
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json().error).toBe("stock_market_closed");
    expect(closed.json().message).toContain("geschlossen");
  });

  it("demo: buys HK shares in board lots with stamp duty, then sells them", async () => {
    const odd = await order("demo", { instrumentId: "0700.HK", quantity: "150" });
    expect(odd.json().error, odd.body).toBe("stock_quantity_invalid");
    const estimate = await call("POST", "/api/v1/stocks/estimate", {
      token: users.demo!.token,
      payload: { instrumentId: "0700.HK", side: "buy", kind: "market", quantity: "200" },
    });
    expect(estimate.json().data.estimate).toEqual({
      price: "420.621",
      notional: "84124.2",
      commission: "25.24",
      stampDuty: "85",
      net: "84234.44",
    });
    const bought = await order("demo", { instrumentId: "0700.HK", quantity: "200" });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().data).toMatchObject({
      order: { status: "filled", mode: "demo", quantity: "200" },
      fill: {
        price: "420.621",
        stampDuty: "85",
        commission: "25.24",
        net: "84234.44",
        tickId: "t2",
      },
    });
    const holdings = await call("GET", "/api/v1/stocks/holdings", { token: users.demo!.token });
    expect(holdings.json().data.items).toMatchObject([
      { instrumentId: "0700.HK", quantity: "200", costBasis: "84234.44", averageCost: "421.172" },
    ]);
    const sold = await order("demo", { instrumentId: "0700.HK", side: "sell", quantity: "200" });
    expect(sold.json().data.fill).toMatchObject({ price: "419.779", stampDuty: "84" });
    await kit.running.projector.flush();
    const fills = await call("GET", "/api/v1/stocks/fills", { token: users.demo!.token });
    expect(fills.json().data.items.map((f: { side: string }) => f.side)).toEqual(["sell", "buy"]);
    const history = await call("GET", "/api/v1/stocks/orders?status=history", {
      token: users.demo!.token,
    });
    expect(history.json().data.items).toHaveLength(2);
    // The trades are lines of the fund statement with the stock reasons (these once failed the
    // response check: a 500).
    const statement = await call("GET", "/api/v1/spot/statement?limit=50", {
      token: users.demo!.token,
    });
    expect(statement.statusCode, statement.body).toBe(200);
    const reasons = statement.json().data.items.map((line: { reason: string }) => line.reason);
    expect(reasons).toEqual(
      expect.arrayContaining(["stock_trade", "stock_commission", "stock_stamp_duty"]),
    );
  });

  it("real: the house sells only what the operator funded; limit order fills on a later tick", async () => {
    nowMs = Date.parse("2026-11-25T15:00:00Z"); // 10:00 in New York
    await recordTick("AAPL", "200.00");
    const noPassword = await order("a", { quantity: "5" });
    expect(noPassword.json().error).toBe("trade_password_required");
    const wrong = await order("a", { quantity: "5", tradePassword: "wrong-password" });
    expect(wrong.json().error).toBe("trade_password_invalid");
    // Confirmed once, the session is not asked again for a while.
    const none = await order("a", { quantity: "5", tradePassword: "trade1234" });
    expect(none.json().error, none.body).toBe("stock_inventory_insufficient");
    const funded = await call("POST", "/api/v1/operator/stocks/inventory", {
      headers: operator,
      payload: {
        requestId: "inventory-aapl-1",
        mode: "real",
        instrumentId: "AAPL",
        direction: "add",
        quantity: "100",
        reference: "bought at broker X",
      },
    });
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json().data).toMatchObject({ funded: "100", available: "100" });
    const userFunded = await call("POST", "/api/v1/operator/stocks/inventory", {
      token: users.a!.token,
      payload: {
        requestId: "inventory-aapl-2",
        mode: "real",
        instrumentId: "AAPL",
        direction: "add",
        quantity: "100",
        reference: "x",
      },
    });
    expect(userFunded.statusCode).toBe(401);
    const market = await order("a", { quantity: "10" });
    expect(market.json().data.fill).toMatchObject({
      price: "200.20",
      notional: "2002",
      commission: "1",
    });
    const limit = await order("a", { kind: "limit", limitPrice: "195", quantity: "5", tif: "gtc" });
    expect(limit.json().data).toMatchObject({
      order: { status: "pending", prepaid: "976" },
      fill: null,
    });
    const orderId = limit.json().data.order.orderId as string;
    // Another user can neither see nor cancel it.
    expect(
      (await call("GET", `/api/v1/stocks/orders/${orderId}`, { token: users.b!.token })).statusCode,
    ).toBe(404);
    expect(
      (await call("POST", `/api/v1/stocks/orders/${orderId}/cancel`, { token: users.b!.token }))
        .statusCode,
    ).toBe(404);
    nowMs += 1_000;
    const crossing = await recordTick("AAPL", "194.00");
    const detail = await call("GET", `/api/v1/stocks/orders/${orderId}`, { token: users.a!.token });
    expect(detail.json().data).toMatchObject({
      order: { status: "filled" },
      fill: { price: "194.20", tickId: crossing, released: "4.00".replace(".00", "") },
    });
    expect(query((s) => getStockInventory(s, "real", "AAPL"))).toMatchObject({ available: 85n });
  });

  it("take-profit sells at market on the tick that reaches it, citing the tick", async () => {
    const set = await call("PUT", "/api/v1/stocks/holdings/AAPL/tpsl", {
      token: users.a!.token,
      payload: { takeProfit: "210", stopLoss: "150" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.holding).toMatchObject({
      quantity: "15",
      takeProfit: "210.00",
      stopLoss: "150.00",
    });
    const bad = await call("PUT", "/api/v1/stocks/holdings/AAPL/tpsl", {
      token: users.a!.token,
      payload: { takeProfit: "100", stopLoss: "150" },
    });
    expect(bad.json().error).toBe("stock_price_invalid");
    // The house pays for the sale from its own cash: the operator puts some in.
    const house = await call("POST", "/api/v1/operator/house/deposits", {
      headers: operator,
      payload: {
        id: "house-usd-000001",
        assetId: "USD",
        amount: "100000",
        reference: "operator capital",
      },
    });
    expect(house.statusCode, house.body).toBe(200);
    nowMs += 1_000;
    const trigger = await recordTick("AAPL", "210.50");
    await kit.running.projector.flush();
    const fills = await call("GET", "/api/v1/stocks/fills?instrumentId=AAPL", {
      token: users.a!.token,
    });
    expect(fills.json().data.items[0]).toMatchObject({
      origin: "take_profit",
      quantity: "15",
      tickId: trigger,
    });
    const holdings = await call("GET", "/api/v1/stocks/holdings", { token: users.a!.token });
    expect(holdings.json().data.items[0]).toMatchObject({ quantity: "0", takeProfit: null });
  });

  it("cancels a pending order and releases its prepaid amount; retries are idempotent", async () => {
    const payload = {
      requestId: "retry-000001",
      instrumentId: "AAPL",
      side: "buy",
      kind: "limit",
      quantity: "1",
      limitPrice: "100",
      tif: "day",
    };
    const first = await call("POST", "/api/v1/stocks/orders", { token: users.a!.token, payload });
    expect(first.statusCode, first.body).toBe(200);
    const again = await call("POST", "/api/v1/stocks/orders", { token: users.a!.token, payload });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({
      duplicate: true,
      order: { orderId: first.json().data.order.orderId },
    });
    const changed = await call("POST", "/api/v1/stocks/orders", {
      token: users.a!.token,
      payload: { ...payload, quantity: "2" },
    });
    expect(changed.json().error).toBe("client_order_id_reused");
    const cancelled = await call(
      "POST",
      `/api/v1/stocks/orders/${first.json().data.order.orderId}/cancel`,
      {
        token: users.a!.token,
      },
    );
    expect(cancelled.json().data.order.status).toBe("cancelled");
    const pending = await call("GET", "/api/v1/stocks/orders", { token: users.a!.token });
    expect(pending.json().data.items).toEqual([]);
  });

  it("refuses malformed, oversized, negative, over-precise and unauthorised input", async () => {
    for (const fields of [
      { quantity: "-1" },
      { quantity: "1.5" },
      { quantity: "1".repeat(20) },
      { kind: "limit", limitPrice: "1.123456789" },
      { kind: "limit", limitPrice: "-5" },
      { side: "short" },
      { extra: true },
    ]) {
      const response = await order("a", fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
    }
    const precise = await order("a", { kind: "limit", limitPrice: "100.001" });
    expect(precise.json().error).toBe("stock_price_invalid");
    const anonymous = await call("POST", "/api/v1/stocks/orders", {
      payload: {
        requestId: "anon-000001",
        instrumentId: "AAPL",
        side: "buy",
        kind: "market",
        quantity: "1",
      },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await call("GET", "/api/v1/stocks/holdings")).statusCode).toBe(401);
    const realDemoFunds = await call("POST", "/api/v1/stocks/demo-funds", {
      token: users.a!.token,
    });
    expect(realDemoFunds.json().error).toBe("demo_mode_required");
  });
});
