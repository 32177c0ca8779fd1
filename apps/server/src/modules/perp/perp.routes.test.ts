// The perpetuals API end to end on the real kernel, engine, journal and read models: markets
// with the mark and its tick, the contract-wallet transfer, leveraged orders in demo and real
// mode, TP/SL fired by a tick, liquidation with its tick, close / reverse / close all, history,
// and input that is refused and changes nothing.

import { getBalance, type Command, type KernelState } from "@candor/kernel";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import type { Unstamped } from "../../engine/engine.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { startTestEngine } from "../spot/spot.testing.ts";
import { defaultPerpMarkets, PerpMarketMaker } from "./perp.markets.ts";
import { operatorPayload } from "../../testing/operator-reason.ts";
import { realFundingCommand } from "../market-maker/market-maker.service.ts";

const operator = { authorization: "Bearer operator-token" };

describeEachDatabase("perpetuals API", (database) => {
  const nowMs = Date.parse("2026-11-26T13:00:00Z");
  let app: FastifyInstance;
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  let ip = 1;
  let request = 0;
  let tick = 0;
  const users: Record<string, { token: string; id: string }> = {};

  const submit = async (command: Unstamped<Command>) => {
    const applied = await running.engine.submit(command);
    expect(applied.result.ok, `${command.id}: ${JSON.stringify(applied.result)}`).toBe(true);
    return applied;
  };
  const query = <T>(fn: (s: KernelState) => T) => running.engine.query(fn);
  const recordTick = async (price: string) => {
    await submit({
      type: "record_tick",
      id: `tick:${++tick}`,
      tickId: `t${tick}`,
      instrumentId: "BTCUSDT",
      price,
      tickAtMs: nowMs + tick,
    });
    return `t${tick}`;
  };
  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    options: { user?: string; payload?: unknown; lang?: string } = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.3.0.${ip++ % 250}`,
      headers: {
        ...(options.user ? { authorization: `Bearer ${users[options.user]!.token}` } : {}),
        ...(options.lang ? { "x-lang": options.lang } : {}),
      },
      ...operatorPayload(method, url, options.payload),
    });
  const nextId = () => `request-${String(++request).padStart(6, "0")}`;
  const order = (user: string, fields: Record<string, unknown>, lang?: string) =>
    call("POST", "/api/v1/perp/orders", {
      user,
      lang,
      payload: {
        clientOrderId: nextId(),
        marketId: "BTC-PERP",
        side: "buy",
        orderType: "market",
        contracts: 10,
        ...fields,
      },
    });
  const transfer = (user: string, amount: string) =>
    call("POST", "/api/v1/wallet/transfers/internal", {
      user,
      payload: {
        requestId: nextId(),
        asset: "USDT",
        amount,
        sourceWallet: "fund",
        targetWallet: "contract",
      },
    });
  const position = async (user: string) => {
    const response = await call("GET", "/api/v1/perp/positions", { user });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.items.find((p: { marketId: string }) => p.marketId === "BTC-PERP");
  };
  const settled = () => running.projector.flush();

  beforeAll(async () => {
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) await submit(command);
    await recordTick("30000");
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken: "operator-token",
      engine: running.engine,
      accounts: accountOpener(running.engine),
      perp: { marketMaker: false, markets: [defaultPerpMarkets[0]!], disclosureCacheMs: 0 },
    });
    // The market exists now: its first mark comes from the next tick.
    await recordTick("30000");
    for (const [name, phone] of [
      ["a", "+4915100000081"],
      ["b", "+4915100000082"],
    ] as const) {
      const registered = await registerByPhone(app, phone, "operator-token");
      expect(registered.statusCode, registered.body).toBe(200);
      users[name] = { token: registered.json().data.token, id: registered.json().data.user.id };
      const credited = await app.inject({
        method: "POST",
        url: "/api/v1/operator/deposits",
        headers: operator,
        payload: {
          id: `deposit-${name}`,
          ownerId: users[name].id,
          assetId: "USDT",
          amount: "5000",
          reference: `bank-${name}`,
          reason: "test funding",
        },
      });
      expect(credited.statusCode, credited.body).toBe(200);
    }
    for (const name of ["demo", "maker"]) {
      const demo = await call("POST", "/api/v1/auth/demo", { payload: {} });
      users[name] = { token: demo.json().data.token, id: demo.json().data.user.id };
    }
  });
  afterAll(async () => {
    await app?.close();
    await running?.close();
  });

  it("lists markets with terms, the mark and its tick, and the 90-day disclosure (public)", async () => {
    const response = await call("GET", "/api/v1/perp/markets?mode=demo");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      enabled: true,
      items: [
        {
          marketId: "BTC-PERP",
          instrumentId: "BTCUSDT",
          asset: "USDT",
          priceStep: "0.1",
          contractSize: "0.001",
          leverageMax: 50,
          markPrice: "30000",
          markTickIds: ["t2"],
          openInterest: "0",
        },
      ],
      disclosure: { accountsCount: 0, lostShareBps: null },
    });
  });

  it("demo: transfer to the contract wallet, leveraged long, TP/SL, take-profit by a tick", async () => {
    // Without margin in the contract wallet the order is refused and nothing moves.
    const empty = await order("demo", {}, "de");
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json().error).toBe("insufficient_margin");
    expect(empty.json().message).toMatch(/Kontrakt-Wallet/);
    for (const user of ["demo", "maker"]) {
      const moved = await transfer(user, "1000");
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const ask = await order("maker", {
      side: "sell",
      orderType: "limit",
      price: "30000",
      timeInForce: "post_only",
    });
    expect(ask.statusCode, ask.body).toBe(200);
    expect(ask.json().data).toMatchObject({ status: "open", restingContracts: 10 });
    const leverage = await call("PUT", "/api/v1/perp/markets/BTC-PERP/leverage", {
      user: "demo",
      payload: { leverage: 20 },
    });
    expect(leverage.statusCode, leverage.body).toBe(200);
    const bought = await order("demo", {});
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().data).toMatchObject({ status: "filled", filledContracts: 10 });
    const long = await position("demo");
    // 10 contracts × 0.001 BTC × 30,000 = 300 USDT at 20×: 15 USDT initial margin.
    expect(long).toMatchObject({
      side: "long",
      contracts: "10",
      entryPrice: "30000",
      markPrice: "30000",
      notional: "300",
      margin: "15",
      leverage: 20,
      marginMode: "cross",
    });
    // Cross: the whole contract wallet (1,000 USDT) backs 300 USDT of notional, so no price
    // liquidates it.
    expect(long.liquidationPrice).toBeNull();
    const tpSl = await call("PUT", "/api/v1/perp/positions/BTC-PERP/tp-sl", {
      user: "demo",
      payload: { takeProfitPrice: "31000", stopLossPrice: "29000" },
    });
    expect(tpSl.statusCode, tpSl.body).toBe(200);
    expect(tpSl.json().data.position).toMatchObject({
      takeProfitPrice: "31000",
      stopLossPrice: "29000",
    });
    const offTick = await call("PUT", "/api/v1/perp/positions/BTC-PERP/tp-sl", {
      user: "demo",
      payload: { takeProfitPrice: "31000.05" },
    });
    expect(offTick.json().error).toBe("price_not_on_tick");
    // A bid for the take-profit's market order, then the tick that fires it.
    const bid = await order("maker", { side: "buy", orderType: "limit", price: "31000" });
    expect(bid.statusCode, bid.body).toBe(200);
    const firing = await recordTick("31000");
    expect((await position("demo")).side).toBe("flat");
    await settled();
    const forced = await call("GET", "/api/v1/perp/liquidations", { user: "demo" });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().data.items[0]).toMatchObject({
      kind: "take_profit",
      marketId: "BTC-PERP",
      instrumentId: "BTCUSDT",
      price: "31000",
      markPrice: "31000",
      tickIds: [firing],
    });
    const fills = await call("GET", "/api/v1/perp/fills", { user: "demo" });
    expect(fills.json().data.items).toMatchObject([
      { side: "sell", role: "taker", price: "31000", contracts: 10, tickIds: [firing] },
      { side: "buy", role: "taker", price: "30000", contracts: 10, realisedPnl: "0" },
    ]);
    // 10 × 0.001 × 1,000 = 10 USDT gained.
    expect(fills.json().data.items[0].realisedPnl).toBe("10");
    // The trade's postings are lines of the contract wallet's statement and of the export, each
    // with its perpetual reason (these once failed the response check: a 500).
    const statement = await call("GET", "/api/v1/wallet/accounts/contract/statement?limit=50", {
      user: "demo",
    });
    expect(statement.statusCode, statement.body).toBe(200);
    const reasons = statement.json().data.items.map((line: { reason: string }) => line.reason);
    expect(reasons).toEqual(expect.arrayContaining(["perp_realised", "perp_fee"]));
    const exported = await call("GET", "/api/v1/wallet/statement/export", { user: "demo" });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain('"reason":"perp_realised"');
    const history = await call("GET", "/api/v1/perp/orders/history", { user: "demo" });
    expect(history.json().data.items).toMatchObject([
      {
        side: "sell",
        orderType: "market",
        reduceOnly: true,
        status: "filled",
        filledContracts: 10,
      },
      { side: "buy", orderType: "market", status: "filled", contracts: 10, filledContracts: 10 },
    ]);
  });

  it("demo: isolated long liquidated by a crash tick; the liquidation shows the tick", async () => {
    const mode = await call("PUT", "/api/v1/perp/markets/BTC-PERP/margin-mode", {
      user: "demo",
      payload: { marginMode: "isolated" },
    });
    expect(mode.statusCode, mode.body).toBe(200);
    await call("PUT", "/api/v1/perp/markets/BTC-PERP/leverage", {
      user: "demo",
      payload: { leverage: 50 },
    });
    const ask = await order("maker", { side: "sell", orderType: "limit", price: "31000" });
    expect(ask.statusCode, ask.body).toBe(200);
    const bought = await order("demo", {});
    expect(bought.json().data).toMatchObject({ status: "filled" });
    const long = await position("demo");
    expect(long).toMatchObject({ side: "long", marginMode: "isolated", leverage: 50 });
    // Locked while the position is open.
    const locked = await call("PUT", "/api/v1/perp/markets/BTC-PERP/margin-mode", {
      user: "demo",
      payload: { marginMode: "cross" },
    });
    expect(locked.json().error).toBe("margin_mode_locked");
    const added = await call("POST", "/api/v1/perp/positions/BTC-PERP/margin", {
      user: "demo",
      payload: { direction: "add", amount: "1" },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.position.margin).toBe("7.2");
    const crash = await recordTick("29000");
    expect((await position("demo")).side).toBe("flat");
    await settled();
    const forced = await call("GET", "/api/v1/perp/liquidations", { user: "demo" });
    const liquidation = forced
      .json()
      .data.items.find((e: { kind: string }) => e.kind === "liquidation");
    expect(liquidation).toMatchObject({ markPrice: "29000", tickIds: [crash], contracts: "10" });
  });

  it("real: trade password, close, reverse, close all; another user's order is not found", async () => {
    for (const user of ["a", "b"]) expect((await transfer(user, "2000")).statusCode).toBe(200);
    const noPassword = await order("a", {});
    expect(noPassword.json().error).toBe("trade_password_required");
    const wrong = await order("a", { tradePassword: "wrong-password" });
    expect(wrong.json().error).toBe("trade_password_invalid");
    const resting = await order("b", {
      side: "sell",
      orderType: "limit",
      price: "29100",
      contracts: 40,
      tradePassword: "trade1234",
    });
    expect(resting.statusCode, resting.body).toBe(200);
    const orderId = resting.json().data.orderId;
    const foreign = await call("DELETE", `/api/v1/perp/orders/${orderId}`, { user: "a" });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("order_not_found");
    const open = await call("GET", "/api/v1/perp/orders/open", { user: "b" });
    expect(open.json().data.items).toMatchObject([{ orderId, price: "29100", contracts: 40 }]);
    const bought = await order("a", { tradePassword: "trade1234" });
    expect(bought.json().data).toMatchObject({ status: "filled", filledContracts: 10 });
    const reversed = await call("POST", "/api/v1/perp/positions/BTC-PERP/reverse", {
      user: "a",
      payload: { requestId: nextId() },
    });
    // A sell of 20 needs a bid: none rests, so the market order expires unfilled.
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().data).toMatchObject({ status: "expired", filledContracts: 0 });
    const bid = await order("b", {
      side: "buy",
      orderType: "limit",
      price: "29000",
      contracts: 40,
      tradePassword: "trade1234",
    });
    expect(bid.statusCode, bid.body).toBe(200);
    const again = await call("POST", "/api/v1/perp/positions/BTC-PERP/reverse", {
      user: "a",
      payload: { requestId: nextId() },
    });
    expect(again.json().data).toMatchObject({ status: "filled", filledContracts: 20 });
    expect(await position("a")).toMatchObject({ side: "short", contracts: "10" });
    const closed = await call("POST", "/api/v1/perp/positions/close-all", {
      user: "a",
      payload: { requestId: nextId() },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ closed: true });
    expect((await position("a")).side).toBe("flat");
    const cancelled = await call("DELETE", `/api/v1/perp/orders/${orderId}`, { user: "b" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Demo money and real money stay apart.
    const demoId = users.demo!.id;
    expect(query((s) => getBalance(s, demoId, "real", "contract", "USDT")).available).toBe(0n);
    const nothing = await call("POST", "/api/v1/perp/positions/BTC-PERP/close", {
      user: "a",
      payload: { requestId: nextId() },
    });
    expect(nothing.json().error).toBe("position_not_found");
  });

  it("refuses bad input and other markets without moving anything", async () => {
    const before = query((s) => getBalance(s, users.demo!.id, "demo", "contract", "USDT"));
    for (const [fields, error] of [
      [{ marketId: "NOPE-PERP" }, "perp_market_not_found"],
      [{ orderType: "limit", price: "30000.05" }, "price_not_on_tick"],
      [{ orderType: "limit" }, "validation_failed"],
      [{ price: "30000" }, "order_type_invalid"],
      [{ contracts: 0 }, "validation_failed"],
      [{ contracts: 1.5 }, "validation_failed"],
      [{ orderType: "limit", price: "-1" }, "validation_failed"],
      [{ reduceOnly: true }, "reduce_only_would_increase"],
      [{ selfTradeMode: "cancel_newest" }, "validation_failed"],
    ] as const) {
      const response = await order("demo", fields);
      expect(response.json().error, JSON.stringify(fields)).toBe(error);
    }
    const margin = await call("POST", "/api/v1/perp/positions/BTC-PERP/margin", {
      user: "demo",
      payload: { direction: "add", amount: "1.0000001" },
    });
    expect(margin.json().error).toBe("amount_too_many_decimals");
    const anonymous = await call("GET", "/api/v1/perp/positions");
    expect(anonymous.statusCode).toBe(401);
    expect(query((s) => getBalance(s, users.demo!.id, "demo", "contract", "USDT"))).toEqual(before);
  });

  it("self-trade prevention and the size-only amend of an open order", async () => {
    const rest = await order("demo", { orderType: "limit", price: "20000", contracts: 5 });
    expect(rest.statusCode, rest.body).toBe(200);
    const orderId = rest.json().data.orderId;
    for (const [payload, status, error] of [
      [{ contracts: 0 }, 400, "validation_failed"],
      [{ contracts: -1 }, 400, "validation_failed"],
      [{ contracts: 1.5 }, 400, "validation_failed"],
      [{ contracts: 9 }, 400, "quantity_too_high"],
    ] as const) {
      const response = await call("POST", `/api/v1/perp/orders/${orderId}/amend`, {
        user: "demo",
        payload,
      });
      expect([response.statusCode, response.json().error], JSON.stringify(payload)).toEqual([
        status === 400 && error === "quantity_too_high" ? response.statusCode : status,
        error,
      ]);
    }
    const anonymous = await call("POST", `/api/v1/perp/orders/${orderId}/amend`, {
      payload: { contracts: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
    const amended = await call("POST", `/api/v1/perp/orders/${orderId}/amend`, {
      user: "demo",
      payload: { contracts: 2 },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect(amended.json().data).toMatchObject({ orderId, status: "open", restingContracts: 2 });
    // The same user selling into their own bid with cancel_incoming trades nothing.
    const incoming = await order("demo", {
      side: "sell",
      orderType: "limit",
      price: "20000",
      contracts: 1,
      selfTradeMode: "cancel_incoming",
    });
    expect(incoming.statusCode, incoming.body).toBe(200);
    expect(incoming.json().data).toMatchObject({ status: "cancelled", filledContracts: 0 });
    await call("DELETE", `/api/v1/perp/orders/${orderId}`, { user: "demo" });
  });

  it("stop and take-profit orders: placed, listed, fired by the mark with its tick, cancelled; bad input refused", async () => {
    const demo = await call("POST", "/api/v1/auth/demo", { payload: {} });
    users.stopper = { token: demo.json().data.token, id: demo.json().data.user.id };
    expect((await transfer("stopper", "1000")).statusCode).toBe(200);
    expect((await transfer("maker", "500")).statusCode).toBe(200);
    await recordTick("30000");
    const markets = await call("GET", "/api/v1/perp/markets?mode=demo");
    const m = Math.round(Number(markets.json().data.items[0].markPrice));
    const ask = await order("maker", {
      side: "sell",
      orderType: "limit",
      price: String(m + 50),
      timeInForce: "post_only",
      contracts: 2,
    });
    expect(ask.statusCode, ask.body).toBe(200);
    const place = (fields: Record<string, unknown>, user = "stopper") =>
      call("POST", "/api/v1/perp/conditional-orders", {
        user,
        payload: {
          clientOrderId: nextId(),
          marketId: "BTC-PERP",
          side: "buy",
          kind: "stop",
          orderType: "market",
          triggerPrice: String(m + 20),
          contracts: 2,
          ...fields,
        },
      });
    const before = query((s) => getBalance(s, users.stopper!.id, "demo", "contract", "USDT"));
    const stop = await place({});
    expect(stop.statusCode, stop.body).toBe(200);
    const takeProfit = await place({
      side: "sell",
      kind: "take_profit",
      orderType: "limit",
      price: String(m + 4_900),
      triggerPrice: String(m + 5_000),
      reduceOnly: true,
    });
    expect(takeProfit.statusCode, takeProfit.body).toBe(200);
    // Nothing is held while they wait.
    expect(query((s) => getBalance(s, users.stopper!.id, "demo", "contract", "USDT"))).toEqual(
      before,
    );
    const listed = async () => {
      const response = await call("GET", "/api/v1/perp/conditional-orders", { user: "stopper" });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.items as {
        orderId: string;
        kind: string;
        triggerPrice: string;
      }[];
    };
    expect((await listed()).map((o) => [o.kind, o.triggerPrice])).toEqual([
      ["stop", String(m + 20)],
      ["take_profit", String(m + 5_000)],
    ]);
    // Refused, and nothing is placed.
    for (const [fields, error] of [
      [{ triggerPrice: String(m - 100) }, "trigger_would_fire_now"],
      [{ triggerPrice: "-1" }, "validation_failed"],
      [{ triggerPrice: `${m + 20}.05` }, "price_not_on_tick"],
      [{ triggerPrice: "1e9" }, "validation_failed"],
      [{ kind: "oco" }, "validation_failed"],
      [{ orderType: "limit" }, "validation_failed"],
      [{ price: String(m) }, "order_type_invalid"],
      [{ contracts: 0 }, "validation_failed"],
      [{ contracts: -2 }, "validation_failed"],
      [{ marketId: "NOPE-PERP" }, "perp_market_not_found"],
      [{ extra: true }, "validation_failed"],
    ] as const) {
      const response = await place(fields);
      expect(response.json().error, JSON.stringify(fields)).toBe(error);
    }
    // An oversized body is refused before it is read.
    expect((await place({ triggerPrice: "1".repeat(2_000) })).statusCode).toBe(413);
    const anonymous = await call("POST", "/api/v1/perp/conditional-orders", { payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect(await listed()).toHaveLength(2);

    // The index rises past the trigger: the mark fires the stop, which buys the 2 contracts.
    const tickId = await recordTick(String(m + 500));
    await settled();
    expect(await position("stopper")).toMatchObject({ side: "long", contracts: "2" });
    expect((await listed()).map((o) => o.kind)).toEqual(["take_profit"]);
    const forced = await call("GET", "/api/v1/perp/liquidations", { user: "stopper" });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().data.items[0]).toMatchObject({
      kind: "stop_order",
      price: String(m + 20),
      contracts: "2",
      tickIds: [tickId],
    });

    // Cancel: only its owner.
    const id = (await listed())[0]!.orderId;
    const url = `/api/v1/perp/conditional-orders/${id}`;
    expect((await call("DELETE", url, { user: "demo" })).json().error).toBe("order_not_found");
    const cancelled = await call("DELETE", url, { user: "stopper" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toEqual({ orderId: id, cancelled: true });
    // A repeated cancel is the same request: answered as the first was.
    expect((await call("DELETE", url, { user: "stopper" })).json().data).toEqual({
      orderId: id,
      cancelled: true,
    });
    expect(await listed()).toHaveLength(0);
    // The history keeps it, with who cancelled it (newest first; once, though asked twice).
    await settled();
    const history = (await call("GET", "/api/v1/perp/liquidations", { user: "stopper" })).json()
      .data.items as { kind: string }[];
    expect(history.filter((e) => e.kind === "conditional_cancelled")).toHaveLength(1);
    expect(history[0]).toMatchObject({
      kind: "conditional_cancelled",
      reason: "user",
      price: String(m + 5_000),
      contracts: "2",
      tickIds: [],
    });
    const unknown = "/api/v1/perp/conditional-orders/999999";
    expect((await call("DELETE", unknown, { user: "stopper" })).json().error).toBe(
      "order_not_found",
    );
    expect(
      (await call("DELETE", "/api/v1/perp/conditional-orders/abc", { user: "stopper" })).statusCode,
    ).toBe(400);
  });

  it("OCO pairs: placed whole, listed with each other, one leg ends the other; bad input refused", async () => {
    // The stopper is long 2 contracts from the stop that fired above.
    expect(await position("stopper")).toMatchObject({ side: "long", contracts: "2" });
    const markets = await call("GET", "/api/v1/perp/markets?mode=demo");
    const m = Math.round(Number(markets.json().data.items[0].markPrice));
    const good = {
      marketId: "BTC-PERP",
      side: "sell",
      contracts: 2,
      takeProfitTriggerPrice: String(m + 3_000),
      stopTriggerPrice: String(m - 3_000),
      stopPrice: String(m - 3_100),
    };
    const place = (fields: Record<string, unknown>, clientOrderId = nextId(), lang?: string) =>
      call("POST", "/api/v1/perp/conditional-orders/oco", {
        user: "stopper",
        payload: { clientOrderId, ...good, ...fields },
        ...(lang ? { lang } : {}),
      });
    const listed = async () => {
      const response = await call("GET", "/api/v1/perp/conditional-orders", { user: "stopper" });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.items as {
        orderId: string;
        kind: string;
        orderType: string;
        triggerPrice: string;
        price: string | null;
        ocoOrderId: string | null;
      }[];
    };
    // Refused, and neither leg is placed.
    for (const [fields, error] of [
      [{ takeProfitTriggerPrice: String(m - 10) }, "trigger_would_fire_now"],
      [{ stopTriggerPrice: String(m + 10) }, "trigger_would_fire_now"],
      [{ side: "buy" }, "trigger_would_fire_now"],
      [{ stopTriggerPrice: "-1" }, "validation_failed"],
      [{ stopTriggerPrice: `${m - 3_000}.05` }, "price_not_on_tick"],
      [{ takeProfitPrice: "0" }, "validation_failed"],
      [{ stopTriggerPrice: undefined }, "validation_failed"],
      [{ contracts: 0 }, "validation_failed"],
      [{ contracts: -2 }, "validation_failed"],
      [{ contracts: 1.5 }, "validation_failed"],
      [{ marketId: "NOPE-PERP" }, "perp_market_not_found"],
      [{ extra: true }, "validation_failed"],
    ] as const) {
      const response = await place(fields);
      expect(response.json().error, JSON.stringify(fields)).toBe(error);
    }
    expect((await place({ stopPrice: "1".repeat(2_000) })).statusCode).toBe(413);
    expect(
      (await call("POST", "/api/v1/perp/conditional-orders/oco", { payload: good })).statusCode,
    ).toBe(401);
    const german = await place({ takeProfitTriggerPrice: String(m - 10) }, nextId(), "de");
    const english = await place({ takeProfitTriggerPrice: String(m - 10) });
    expect(german.json().message).not.toBe(english.json().message);
    expect(await listed()).toEqual([]);

    const clientOrderId = nextId();
    const placed = await place({}, clientOrderId);
    expect(placed.statusCode, placed.body).toBe(200);
    const takeProfitId = placed.json().data.orderId as string;
    expect(placed.json().data.duplicate).toBe(false);
    // A retry is the same pair; the same id with other terms is refused.
    expect((await place({}, clientOrderId)).json().data).toEqual({
      orderId: takeProfitId,
      duplicate: true,
    });
    expect((await place({ contracts: 1 }, clientOrderId)).json().error).toBe(
      "client_order_id_reused",
    );
    const pair = await listed();
    expect(pair.map((o) => [o.kind, o.orderType, o.triggerPrice, o.price])).toEqual([
      ["take_profit", "market", String(m + 3_000), null],
      ["stop", "limit", String(m - 3_000), String(m - 3_100)],
    ]);
    expect(pair[0]!.orderId).toBe(takeProfitId);
    expect(pair[0]!.ocoOrderId).toBe(pair[1]!.orderId);
    expect(pair[1]!.ocoOrderId).toBe(takeProfitId);

    // Cancelling the stop leg ends the take-profit too; the history says why for each.
    const cancelled = await call("DELETE", `/api/v1/perp/conditional-orders/${pair[1]!.orderId}`, {
      user: "stopper",
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await listed()).toEqual([]);
    await settled();
    const history = (await call("GET", "/api/v1/perp/liquidations", { user: "stopper" })).json()
      .data.items as { kind: string; reason?: string | null; price: string }[];
    expect(history.slice(0, 2).map((e) => [e.kind, e.reason, e.price])).toEqual([
      ["conditional_cancelled", "oco", String(m + 3_000)],
      ["conditional_cancelled", "user", String(m - 3_000)],
    ]);

    // A new pair; the mark falls through the stop: it fires and the take-profit ends.
    const again = await place({ stopPrice: undefined });
    expect(again.statusCode, again.body).toBe(200);
    await recordTick(String(m - 3_500));
    await settled();
    expect(await listed()).toEqual([]);
    const after = (await call("GET", "/api/v1/perp/liquidations", { user: "stopper" })).json().data
      .items as { kind: string; reason?: string | null; price: string }[];
    const ended = after.filter((e) => e.kind === "conditional_cancelled" && e.reason === "oco");
    expect(ended.map((e) => e.price)).toEqual([String(m + 3_000), String(m + 3_000)]);
    expect(after.some((e) => e.kind === "stop_order" && e.price === String(m - 3_000))).toBe(true);
  });

  it("operator: funds the market maker's real contract wallet, which then quotes the real book", async () => {
    const mm = "system:market_maker";
    const maker = new PerpMarketMaker(running.engine, { modes: ["real"], levels: 2 });
    const realQuotes = () =>
      query((s) => s.perp.orders.size) > 0
        ? [...query((s) => s.perp.orders.values())].filter(
            (o) => o.account.owner.ownerId === mm && o.account.side.mode === "real",
          ).length
        : 0;
    await maker.refresh(nowMs + 1);
    expect(realQuotes()).toBe(0);
    const fund = (payload: Record<string, unknown>, headers: object = operator) =>
      app.inject({
        method: "POST",
        url: "/api/v1/operator/market-maker/perp-funding",
        headers: headers as Record<string, string>,
        payload,
      });
    const good = {
      id: "perp-fund-1",
      assetId: "USDT",
      amount: "100000",
      reference: "bank-mm-1",
      reason: "margin for real perpetual quotes",
    };
    // Nothing to move yet: the operator has not funded the market maker's real inventory.
    const empty = await fund({ ...good, id: "perp-fund-0" });
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json().error).toBe("insufficient_balance");
    await submit(realFundingCommand("USDT", 200_000_000_000n, "bank-mm-1", "operator", "pf1"));
    const before = query((s) => getBalance(s, mm, "real", "contract", "USDT"));
    const bad: [Record<string, unknown>, object, number][] = [
      [{ ...good, id: "perp-bad-anon" }, {}, 401],
      [good, { authorization: `Bearer ${users.a!.token}` }, 401],
      [{ ...good, amount: "-5" }, operator, 400],
      [{ ...good, amount: "0" }, operator, 400],
      [{ ...good, amount: "1.0000001" }, operator, 400],
      [{ ...good, amount: "9".repeat(40) }, operator, 400],
      [{ ...good, assetId: "BTC" }, operator, 400],
      [{ ...good, reason: "" }, operator, 400],
      [{ ...good, reason: "x".repeat(501) }, operator, 400],
      [{ ...good, reference: "" }, operator, 400],
      [{ ...good, extra: 1 }, operator, 400],
    ];
    for (const [index, [payload, headers, status]] of bad.entries()) {
      const response = await fund({ ...payload, id: `perp-bad-${index}` }, headers);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
    }
    const sized = await app.inject({
      method: "POST",
      url: "/api/v1/operator/market-maker/perp-funding",
      headers: { ...operator, "content-type": "application/json" },
      payload: JSON.stringify({ ...good, reason: "x".repeat(3_000) }),
    });
    expect(sized.statusCode).toBe(413);
    expect(query((s) => getBalance(s, mm, "real", "contract", "USDT"))).toEqual(before);
    const french = await app.inject({
      method: "POST",
      url: "/api/v1/operator/market-maker/perp-funding",
      headers: { ...operator, "x-lang": "fr" },
      payload: { ...good, amount: "-1" },
    });
    expect(french.json().message).not.toBe((await fund({ ...good, amount: "-1" })).json().message);
    const funded = await fund(good);
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json().data).toEqual({ funded: true, duplicate: false });
    expect((await fund(good)).json().data.duplicate).toBe(true);
    expect(query((s) => getBalance(s, mm, "real", "contract", "USDT")).available).toBe(
      before.available + 100_000_000_000n,
    );
    expect(query((s) => getBalance(s, mm, "real", "fund", "USDT")).available).toBe(
      100_000_000_000n,
    );
    await recordTick("30010");
    await maker.refresh(nowMs + 100_000);
    expect(realQuotes()).toBe(4);

    // The public book: depth best first and the latest trades with their tick ids.
    await settled();
    const book = await call("GET", "/api/v1/perp/markets/BTC-PERP/book?mode=real&levels=5");
    expect(book.statusCode, book.body).toBe(200);
    const data = book.json().data;
    expect(data.bids.length).toBeGreaterThanOrEqual(2);
    expect(data.asks.length).toBeGreaterThanOrEqual(2);
    expect(Number(data.bids[0].price)).toBeGreaterThan(Number(data.bids[1].price));
    expect(Number(data.asks[0].price)).toBeLessThan(Number(data.asks[1].price));
    expect(data.trades.length).toBeGreaterThan(0);
    expect(data.trades[0].tickIds.length).toBeGreaterThan(0);
    for (const [url, status] of [
      ["/api/v1/perp/markets/NOPE-PERP/book", 404],
      ["/api/v1/perp/markets/btc perp/book", 400],
      ["/api/v1/perp/markets/BTC-PERP/book?levels=0", 400],
      ["/api/v1/perp/markets/BTC-PERP/book?levels=51", 400],
      ["/api/v1/perp/markets/BTC-PERP/book?mode=fake", 400],
    ] as const) {
      expect((await call("GET", url)).statusCode, url).toBe(status);
    }
  });
});
