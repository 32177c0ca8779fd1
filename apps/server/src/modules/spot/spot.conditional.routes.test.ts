// Stop, take-profit and OCO orders, self-trade prevention and the size-only amend through the
// HTTP API, on the real engine and read models.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

describeEachDatabase("spot conditional orders API", (database) => {
  const nowMs = Date.parse("2026-11-23T13:00:00Z");
  const kit = routeTest("10.2.0");
  const { users, call } = kit;
  let serial = 0;
  const recordTick = (price: string) =>
    kit.recordTick("BTCUSDT", price, nowMs, (n) => `BTCUSDT:${n}`);
  const conditional = (user: string, fields: Record<string, unknown>, lang?: string) =>
    call("POST", "/api/v1/spot/conditional-orders", {
      token: users[user]!.token,
      ...(lang ? { lang } : {}),
      payload: {
        clientOrderId: `cond-${String(++serial).padStart(6, "0")}`,
        instrumentId: "BTCUSDT",
        tradePassword: "trade1234",
        ...fields,
      },
    });
  const place = (user: string, fields: Record<string, unknown>) =>
    call("POST", "/api/v1/spot/orders", {
      token: users[user]!.token,
      payload: {
        clientOrderId: `plain-${String(++serial).padStart(6, "0")}`,
        instrumentId: "BTCUSDT",
        tradePassword: "trade1234",
        ...fields,
      },
    });

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await recordTick("30000");
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000011");
    await kit.signUp("b", "+4915100000012");
    await kit.depositEach(
      [
        ["a", "BTC", "1"],
        ["a", "USDT", "10000"],
        ["b", "USDT", "50000"],
      ],
      { reason: "test funding" },
    );
  });
  afterAll(kit.close);

  it("refuses malformed, oversized, negative, over-precise and unauthorised input", async () => {
    const unauthorised = await call("POST", "/api/v1/spot/conditional-orders", {
      payload: { clientOrderId: "cond-anon-0001" },
    });
    expect(unauthorised.statusCode).toBe(401);
    expect((await call("GET", "/api/v1/spot/conditional-orders")).statusCode).toBe(401);
    expect((await call("DELETE", "/api/v1/spot/conditional-orders/1")).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/v1/spot/orders/1/amend", { payload: { quantity: "1" } }))
        .statusCode,
    ).toBe(401);
    for (const fields of [
      { side: "sell", kind: "stop", type: "limit", triggerPrice: "29000", price: "28990" },
      {
        side: "sell",
        kind: "stop",
        type: "limit",
        triggerPrice: "-1",
        price: "1",
        quantity: "0.1",
      },
      { side: "sell", kind: "stop", type: "limit", triggerPrice: "abc", price: "1", quantity: "1" },
      {
        side: "sell",
        kind: "sideways",
        type: "limit",
        triggerPrice: "1",
        price: "1",
        quantity: "1",
      },
      { side: "sell", kind: "oco", type: "market", triggerPrice: "29000", quantity: "0.1" },
      { side: "buy", kind: "stop", type: "market", triggerPrice: "31000", quantity: "0.1" },
      {
        side: "sell",
        kind: "stop",
        type: "market",
        triggerPrice: "29000",
        quantity: "0.1",
        selfTradeMode: "nope",
      },
      {
        side: "sell",
        kind: "stop",
        type: "limit",
        triggerPrice: "1".repeat(2_000),
        price: "1",
        quantity: "1",
      },
    ]) {
      const response = await conditional("a", fields);
      expect(response.statusCode, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(fields)).toBeLessThan(500);
    }
    const precise = await conditional("a", {
      side: "sell",
      kind: "stop",
      type: "limit",
      triggerPrice: "29000.0000001",
      price: "28990",
      quantity: "0.1",
    });
    expect(precise.statusCode).toBe(400);
    expect(precise.json().error).toBe("price_not_on_tick");
    const amend = await call("POST", "/api/v1/spot/orders/1/amend", {
      token: users.a!.token,
      payload: { quantity: "-1" },
    });
    expect(amend.statusCode).toBe(400);
  });

  it("a sell stop holds its funds, fires on the tape tick that reaches it and records it", async () => {
    const placed = await conditional("a", {
      side: "sell",
      kind: "stop",
      type: "limit",
      triggerPrice: "29000",
      price: "28990",
      quantity: "0.1",
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().data.order;
    expect(order).toMatchObject({ status: "pending", triggerPrice: "29000", price: "28990" });
    const pending = await call("GET", "/api/v1/spot/conditional-orders", { token: users.a!.token });
    expect(pending.json().data.items.map((o: { orderId: string }) => o.orderId)).toContain(
      order.orderId,
    );
    await recordTick("29500");
    const crossing = await recordTick("28999");
    await kit.running.projector.flush();
    const history = await call("GET", "/api/v1/spot/conditional-orders?status=finished", {
      token: users.a!.token,
    });
    const fired = history
      .json()
      .data.items.find((o: { orderId: string }) => o.orderId === order.orderId);
    expect(fired).toMatchObject({
      status: "triggered",
      tickId: crossing,
      tickPrice: "28999",
    });
    const result = await call("GET", `/api/v1/spot/orders/${fired.resultOrderId}`, {
      token: users.a!.token,
    });
    expect(result.json().data.order).toMatchObject({ price: "28990", status: "open" });
  });

  it("refuses a trigger already reached, in the user's language", async () => {
    const response = await conditional(
      "a",
      {
        side: "sell",
        kind: "stop",
        type: "limit",
        triggerPrice: "31000",
        price: "30000",
        quantity: "0.1",
      },
      "de",
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: "trigger_would_fire_now" });
    expect(response.json().message).toMatch(/Auslösepreis/);
  });

  it("an OCO pair: cancelling the stop leg cancels the limit leg; others cannot cancel it", async () => {
    const placed = await conditional("a", {
      side: "sell",
      kind: "oco",
      type: "market",
      triggerPrice: "27000",
      limitPrice: "33000",
      quantity: "0.1",
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const stop = placed.json().data.order;
    expect(stop.ocoOrderId).not.toBeNull();
    const other = await call("DELETE", `/api/v1/spot/conditional-orders/${stop.orderId}`, {
      token: users.b!.token,
    });
    expect(other.statusCode).toBe(404);
    const cancelled = await call("DELETE", `/api/v1/spot/conditional-orders/${stop.orderId}`, {
      token: users.a!.token,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.order.status).toBe("cancelled");
    const open = await call("GET", "/api/v1/spot/orders/open", { token: users.a!.token });
    expect(open.json().data.items.map((o: { orderId: string }) => o.orderId)).not.toContain(
      stop.ocoOrderId,
    );
  });

  it("amends size: smaller keeps the order open; another user's order is not found", async () => {
    const placed = await place("a", {
      side: "sell",
      type: "limit",
      price: "35000",
      quantity: "0.2",
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().data.order.orderId;
    const amended = await call("POST", `/api/v1/spot/orders/${orderId}/amend`, {
      token: users.a!.token,
      payload: { quantity: "0.05" },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect(amended.json().data.order).toMatchObject({ remainingQuantity: "0.05", status: "open" });
    const foreign = await call("POST", `/api/v1/spot/orders/${orderId}/amend`, {
      token: users.b!.token,
      payload: { quantity: "0.01" },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("a self-trade prevention mode on place-order: cancel_incoming never trades with oneself", async () => {
    const resting = await place("a", {
      side: "sell",
      type: "limit",
      price: "31000",
      quantity: "0.01",
    });
    expect(resting.statusCode, resting.body).toBe(200);
    const incoming = await place("a", {
      side: "buy",
      type: "limit",
      price: "31000",
      quantity: "0.01",
      selfTradeMode: "cancel_incoming",
    });
    expect(incoming.statusCode, incoming.body).toBe(200);
    expect(incoming.json().data.order.status).toBe("cancelled");
    expect(incoming.json().data.fills).toEqual([]);
  });
});
