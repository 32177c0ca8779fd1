import { checkInvariants, getBalances, getDepth, systemOwners, type Command } from "@candor/kernel";
import { instruments } from "@candor/market";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Unstamped } from "../../engine/engine.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import {
  demoFundingCommands,
  MarketMaker,
  realFundingCommand,
} from "../market-maker/market-maker.service.ts";
import { spotInstruments } from "../market/spot-markets.ts";
import { errorCodeByRejectCode } from "../../engine/reject-codes.ts";

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;
const btc = (whole: number) => BigInt(Math.round(whole * 1e8));

describeEachDatabase("spot API", (database) => {
  let nowMs = Date.parse("2026-11-23T13:00:00Z");
  const kit = routeTest("10.1.0");
  const { users, submit, query, call } = kit;
  let clientOrder = 0;
  const recordTick = (price: string) =>
    kit.recordTick("BTCUSDT", price, nowMs, (n) => `BTCUSDT:${n}`);

  const order = (fields: Record<string, unknown>) => ({
    clientOrderId: `client-${String(++clientOrder).padStart(6, "0")}`,
    instrumentId: "BTCUSDT",
    ...fields,
  });
  const place = async (user: string, fields: Record<string, unknown>, password = true) => {
    const response = await call("POST", "/api/v1/spot/orders", {
      token: users[user]!.token,
      payload: order({ ...fields, ...(password ? { tradePassword: "trade1234" } : {}) }),
    });
    return response;
  };
  const settle = () => kit.running.projector.flush();

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await recordTick("30000");
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000001");
    await kit.signUp("b", "+4915100000002");
    await kit.signInDemo("demo");
    // Real money only through the operator's deposit credit, with a reference.
    await kit.depositEach([
      ["a", "BTC", "1"],
      ["a", "USDT", "10000"],
      ["b", "USDT", "50000"],
    ]);
  });
  afterAll(kit.close);

  const balance = async (user: string, asset: string) => {
    const response = await call("GET", "/api/v1/spot/balances", { token: users[user]!.token });
    expect(response.statusCode).toBe(200);
    return response.json().data.items.find((b: { asset: string }) => b.asset === asset);
  };

  it("lists spot markets with steps, fees and the last tape price (public)", async () => {
    const response = await call("GET", "/api/v1/spot/markets");
    expect(response.statusCode).toBe(200);
    const btcMarket = response
      .json()
      .data.items.find((m: { instrumentId: string }) => m.instrumentId === "BTCUSDT");
    expect(btcMarket).toMatchObject({
      baseAsset: "BTC",
      quoteAsset: "USDT",
      lastPrice: "30000",
      lastTickId: "BTCUSDT:1",
      open: true,
    });
    expect(response.json().data.tradePasswordWindowMs).toBe(15 * 60_000);
  });

  it("asks for the trade password: missing, wrong, then confirmed for the session", async () => {
    const missing = await place(
      "a",
      { side: "buy", type: "limit", price: "100", quantity: "0.01" },
      false,
    );
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ error: "trade_password_required" });
    const wrong = await call("POST", "/api/v1/spot/orders", {
      token: users.a!.token,
      lang: "de",
      payload: order({
        side: "buy",
        type: "limit",
        price: "100",
        quantity: "0.01",
        tradePassword: "nope12345",
      }),
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({
      error: "trade_password_invalid",
      message: "Das Transaktionspasswort ist falsch",
    });
    // A demo user trades demo money without a trade password (issue 18): no 409 any more.
    const demo = await call("POST", "/api/v1/spot/orders", {
      token: users.demo!.token,
      payload: order({ side: "buy", type: "limit", price: "100", quantity: "0.01" }),
    });
    expect(demo.statusCode, demo.body).toBe(200);
    expect(demo.json().data.order).toMatchObject({ mode: "demo", status: "open" });
    const cancelled = await call(
      "DELETE",
      `/api/v1/spot/orders/${demo.json().data.order.orderId}`,
      {
        token: users.demo!.token,
      },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Setting one stays possible (for a later switch to real money), and demo still is not asked.
    const set = await call("PUT", "/api/v1/me/trade-password", {
      token: users.demo!.token,
      payload: { tradePassword: "trade1234", tradePasswordConfirm: "trade1234" },
    });
    expect(set.statusCode).toBe(200);
    const again = await call("POST", "/api/v1/spot/orders", {
      token: users.demo!.token,
      payload: order({ side: "buy", type: "limit", price: "100", quantity: "0.01" }),
    });
    expect(again.statusCode, again.body).toBe(200);
    await call("DELETE", `/api/v1/spot/orders/${again.json().data.order.orderId}`, {
      token: users.demo!.token,
    });
  });

  it("A sells to B: both see the fill with its tick id; balances and the fee account add up", async () => {
    const sell = await place("a", { side: "sell", type: "limit", price: "30000", quantity: "0.5" });
    expect(sell.statusCode).toBe(200);
    const sold = sell.json().data;
    expect(sold.order).toMatchObject({ status: "open", remainingQuantity: "0.5", price: "30000" });
    expect((await balance("a", "BTC")).held).toBe("0.5");
    // B's trade password is confirmed on the first order, then not needed for 15 minutes.
    const buy = await place("b", { side: "buy", type: "limit", price: "30000.5", quantity: "0.2" });
    expect(buy.statusCode).toBe(200);
    const bought = buy.json().data;
    expect(bought.order).toMatchObject({
      status: "filled",
      filledQuantity: "0.2",
      filledQuote: "6000",
      averagePrice: "30000",
    });
    expect(bought.fills).toHaveLength(1);
    expect(bought.fills[0]).toMatchObject({
      role: "taker",
      side: "buy",
      price: "30000",
      quantity: "0.2",
      quoteAmount: "6000",
      fee: "0.0002",
      feeAsset: "BTC",
      counterparty: "user",
      makerOrderId: sold.order.orderId,
      tickId: "BTCUSDT:1",
    });
    const again = await place(
      "b",
      { side: "buy", type: "limit", price: "30000", quantity: "0.1" },
      false,
    );
    expect(again.statusCode).toBe(200);
    await settle();
    // Regression, issue 14 item 12: cancelling a filled order says so, not `order_not_found`;
    // another user's filled order stays "not found", so order ids reveal nothing.
    const cancelFilled = await call("DELETE", `/api/v1/spot/orders/${bought.order.orderId}`, {
      token: users.b!.token,
    });
    expect(cancelFilled.statusCode).toBe(409);
    expect(cancelFilled.json()).toMatchObject({
      error: "order_already_filled",
      message: "This order is already filled and can no longer be cancelled",
    });
    const cancelOthers = await call("DELETE", `/api/v1/spot/orders/${bought.order.orderId}`, {
      token: users.a!.token,
    });
    expect(cancelOthers.statusCode).toBe(404);
    expect(cancelOthers.json().error).toBe("order_not_found");
    const detail = await call("GET", `/api/v1/spot/orders/${sold.order.orderId}`, {
      token: users.a!.token,
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.order).toMatchObject({ status: "open", filledQuantity: "0.3" });
    expect(detail.json().data.fills).toHaveLength(2);
    expect(detail.json().data.fills[0]).toMatchObject({
      role: "maker",
      side: "sell",
      fee: "6",
      feeAsset: "USDT",
      tickId: "BTCUSDT:1",
      takerOrderId: bought.order.orderId,
    });
    // B cannot see A's order.
    const foreign = await call("GET", `/api/v1/spot/orders/${sold.order.orderId}`, {
      token: users.b!.token,
      lang: "ru",
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe("Этот ордер не существует или уже не активен");

    expect(await balance("b", "BTC")).toMatchObject({ available: "0.2997", held: "0" });
    expect(await balance("b", "USDT")).toMatchObject({ available: "41000", held: "0" });
    expect(await balance("a", "USDT")).toMatchObject({ available: "18991" });
    expect(await balance("a", "BTC")).toMatchObject({ available: "0.5", held: "0.2" });
    const fees = query((s) => getBalances(s, systemOwners.fees, "real"));
    expect(fees.find((b) => b.assetId === "USDT")?.available).toBe(usdt(9));
    expect(fees.find((b) => b.assetId === "BTC")?.available).toBe(30_000n);
    checkInvariants(kit.running.engine.query((s) => s));
  });

  it("retries with the same client order id return the first result and place nothing", async () => {
    const body = order({
      side: "buy",
      type: "limit",
      price: "20000",
      quantity: "0.01",
      tradePassword: "trade1234",
    });
    const first = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: body,
    });
    const second = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: body,
    });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.duplicate).toBe(true);
    expect(second.json().data.order.orderId).toBe(first.json().data.order.orderId);
    expect(second.json().data.order.clientOrderId).toBe(body.clientOrderId);
    const open = await call("GET", "/api/v1/spot/orders/open", { token: users.b!.token });
    expect(
      open
        .json()
        .data.items.filter(
          (o: { clientOrderId: string }) => o.clientOrderId === body.clientOrderId,
        ),
    ).toHaveLength(1);
    // The same id with other content is refused, and changes nothing.
    const reused = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: { ...body, price: "20001" },
      lang: "fr",
    });
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({
      error: "client_order_id_reused",
      message: "Cet identifiant d'ordre a déjà été utilisé pour un autre ordre",
    });
    // After the kernel forgot the id, the read model still answers the first result.
    await settle();
    nowMs += 11 * 60_000;
    await submit({ type: "clock_tick", id: `clock:${nowMs}`, atMs: nowMs } as Unstamped<Command>);
    const late = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: body,
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().data).toMatchObject({
      duplicate: true,
      order: { orderId: first.json().data.order.orderId },
    });
    await recordTick("30000");
  });

  it("a retry is answered from the first order's journaled events, without a journal record", async () => {
    const body = order({
      side: "buy",
      type: "limit",
      price: "21000",
      quantity: "0.01",
      tradePassword: "trade1234",
    });
    const first = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: body,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ duplicate: false, order: { status: "open" } });
    const orderId = first.json().data.order.orderId;
    const cancelled = await call("DELETE", `/api/v1/spot/orders/${orderId}`, {
      token: users.b!.token,
    });
    expect(cancelled.statusCode).toBe(200);
    // The order is cancelled now; the retry still gets the first answer, as it was then.
    const sequence = kit.running.engine.sequence;
    const retry = await call("POST", "/api/v1/spot/orders", {
      token: users.b!.token,
      payload: body,
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toEqual({ ...first.json().data, duplicate: true });
    expect(kit.running.engine.sequence).toBe(sequence);
  });

  it("cancel releases the hold; cancel-all cancels the rest; history pages them", async () => {
    const before = await balance("b", "USDT");
    const placed = await place("b", {
      side: "buy",
      type: "limit",
      price: "25000",
      quantity: "0.04",
    });
    expect(placed.statusCode).toBe(200);
    const orderId = placed.json().data.order.orderId;
    const held = await balance("b", "USDT");
    expect(BigInt(held.held.replace(".", "")) > BigInt(before.held.replace(".", ""))).toBe(true);
    const cancelled = await call("DELETE", `/api/v1/spot/orders/${orderId}`, {
      token: users.b!.token,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.order).toMatchObject({
      status: "cancelled",
      remainingQuantity: "0",
    });
    expect(await balance("b", "USDT")).toEqual(before);
    // Why a closed order cannot be cancelled comes from the order history (the read models),
    // which the projector writes off the request path: once it has caught up.
    await settle();
    const twice = await call("DELETE", `/api/v1/spot/orders/${orderId}`, { token: users.b!.token });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe("order_already_closed");

    await place("b", { side: "buy", type: "limit", price: "24000", quantity: "0.01" });
    const all = await call("POST", "/api/v1/spot/orders/cancel-all", {
      token: users.b!.token,
      payload: { instrumentId: "BTCUSDT" },
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.cancelledCount).toBe(2);
    expect((await balance("b", "USDT")).held).toBe("0");
    const none = await call("POST", "/api/v1/spot/orders/cancel-all", {
      token: users.b!.token,
      payload: {},
    });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data.cancelledCount).toBe(0);

    await settle();
    const page1 = await call("GET", "/api/v1/spot/orders/history?limit=2", {
      token: users.b!.token,
    });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().data.items).toHaveLength(2);
    expect(page1.json().data.nextCursor).not.toBeNull();
    const page2 = await call(
      "GET",
      `/api/v1/spot/orders/history?limit=50&cursor=${page1.json().data.nextCursor}`,
      { token: users.b!.token },
    );
    const ids = [...page1.json().data.items, ...page2.json().data.items].map(
      (o: { orderId: string }) => Number(o.orderId),
    );
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(page2.json().data.nextCursor).toBeNull();
    const filled = await call("GET", "/api/v1/spot/orders/history?status=filled&side=buy", {
      token: users.b!.token,
    });
    expect(filled.json().data.items.every((o: { status: string }) => o.status === "filled")).toBe(
      true,
    );
    expect(filled.json().data.items.length).toBeGreaterThanOrEqual(2);
  });

  it("trades against the market maker in real and demo; demo orders never meet real ones", async () => {
    await submit(realFundingCommand("USDT", usdt(1_000_000), "mm-seed", "operator-1"));
    await submit(realFundingCommand("BTC", btc(30), "mm-seed", "operator-1"));
    for (const command of demoFundingCommands(
      new Map([
        ["USDT", usdt(1_000_000)],
        ["BTC", btc(30)],
      ]),
    )) {
      await submit(command);
    }
    const maker = new MarketMaker({
      gateway: kit.running.engine,
      instruments: spotInstruments(instruments).filter((i) => i.id === "BTCUSDT"),
    });
    expect(await maker.refresh(new Map([["BTCUSDT", 3_000_000n]]), nowMs)).toBeGreaterThan(0);

    const real = await place("b", { side: "buy", type: "market", quoteAmount: "1000" });
    expect(real.statusCode).toBe(200);
    // A's resting real sell at 30000 is behind the market maker's asks or ahead of them; either
    // way every fill names its counterparty.
    for (const fill of real.json().data.fills) {
      expect(["user", "market_maker"]).toContain(fill.counterparty);
      expect(fill.tickId).toMatch(/^BTCUSDT:/);
    }

    // The demo user starts with demo money only, and trades the demo book.
    expect(await balance("demo", "USDT")).toMatchObject({ available: "100000" });
    const demo = await place("demo", { side: "buy", type: "market", quantity: "0.01" });
    expect(demo.statusCode, demo.body).toBe(200);
    expect(demo.json().data.order).toMatchObject({ mode: "demo", status: "filled" });
    expect(
      demo
        .json()
        .data.fills.every((f: { counterparty: string }) => f.counterparty === "market_maker"),
    ).toBe(true);
    // A demo sell at A's real price does not touch A's real order.
    const demoSell = await place("demo", {
      side: "sell",
      type: "limit",
      price: "31000",
      quantity: "0.005",
    });
    expect(demoSell.statusCode, demoSell.body).toBe(200);
    expect(demoSell.json().data.order).toMatchObject({ status: "open", mode: "demo" });
    const realDepth = query((s) => getDepth(s, "BTC-USDT", "real", 50));
    expect(realDepth!.asks.some((l) => l.priceTicks === 3_100_000)).toBe(false);
    // Real users do not see demo orders, the demo user does not see real ones.
    const aOpen = await call("GET", "/api/v1/spot/orders/open", { token: users.a!.token });
    expect(aOpen.json().data.items.every((o: { mode: string }) => o.mode === "real")).toBe(true);
    const demoOpen = await call("GET", "/api/v1/spot/orders/open?instrumentId=BTCUSDT", {
      token: users.demo!.token,
    });
    expect(demoOpen.json().data.items.map((o: { mode: string }) => o.mode)).toEqual(["demo"]);
  });

  it("demo funds: granted and reset in demo mode only, capped per request", async () => {
    const grant = await call("POST", "/api/v1/spot/demo-funds", {
      token: users.demo!.token,
      payload: { requestId: "grant-000001", asset: "USDT", amount: "5000" },
    });
    expect(grant.statusCode).toBe(200);
    const tooMuch = await call("POST", "/api/v1/spot/demo-funds", {
      token: users.demo!.token,
      payload: { requestId: "grant-000002", asset: "BTC", amount: "100" },
      lang: "jp",
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({
      error: "amount_above_maximum",
      message: "金額が大きすぎます",
    });
    const real = await call("POST", "/api/v1/spot/demo-funds", {
      token: users.a!.token,
      payload: { requestId: "grant-000003", asset: "USDT", amount: "5000" },
      lang: "sv",
    });
    expect(real.statusCode).toBe(403);
    expect(real.json()).toMatchObject({
      error: "demo_mode_required",
      message: "Det här finns bara i simulerat läge (demo)",
    });
    const reset = await call("POST", "/api/v1/spot/demo-funds/reset", { token: users.demo!.token });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.cancelledCount).toBe(1);
    expect(
      reset.json().data.items.find((b: { asset: string }) => b.asset === "USDT"),
    ).toMatchObject({
      available: "100000",
      held: "0",
    });
    expect(reset.json().data.items.find((b: { asset: string }) => b.asset === "BTC").total).toBe(
      "0",
    );
    const realReset = await call("POST", "/api/v1/spot/demo-funds/reset", {
      token: users.b!.token,
    });
    expect(realReset.statusCode).toBe(403);
  });

  it("statement: lines with references; every posting balances; lines add up to balances", async () => {
    await settle();
    const response = await call("GET", "/api/v1/spot/statement?limit=100", {
      token: users.a!.token,
    });
    expect(response.statusCode).toBe(200);
    const lines = response.json().data.items as {
      asset: string;
      amount: string;
      reason: string;
      counterparty: string;
      fillId: string | null;
      tickId: string | null;
      operatorId: string | null;
      reference: string | null;
    }[];
    expect(lines.find((l) => l.reason === "deposit")).toMatchObject({
      counterparty: "system:external",
      operatorId: "bootstrap",
      reference: "bank-a-USDT",
    });
    const trade = lines.find((l) => l.reason === "trade");
    expect(trade?.fillId).not.toBeNull();
    expect(trade?.tickId).toMatch(/^BTCUSDT:/);
    expect(lines.find((l) => l.reason === "fee_maker")).toMatchObject({
      counterparty: "system:fees",
    });
    // Per asset, the statement of A's fund wallet adds up to A's balance.
    for (const asset of ["USDT", "BTC"]) {
      const scale = asset === "USDT" ? 6 : 8;
      const sum = lines
        .filter((l) => l.asset === asset)
        .reduce((total, l) => total + toUnits(l.amount, scale), 0n);
      const b = await balance("a", asset);
      expect(sum).toBe(toUnits(b.total, scale));
    }
    // Double entry: over all accounts, every posting and every asset sums to zero.
    const sums = await sql<{ posting_seq: string; total: string }>`
      SELECT posting_seq::text, SUM(amount)::text AS total FROM rm_statement_lines
      GROUP BY posting_seq HAVING SUM(amount) <> 0`.execute(database().db);
    expect(sums.rows).toEqual([]);
    const paged = await call("GET", "/api/v1/spot/statement?limit=2&asset=USDT", {
      token: users.a!.token,
    });
    expect(paged.json().data.items).toHaveLength(2);
    const next = await call(
      "GET",
      `/api/v1/spot/statement?limit=2&asset=USDT&cursor=${paged.json().data.nextCursor}`,
      { token: users.a!.token },
    );
    expect(Number(next.json().data.items[0].postingSeq)).toBeLessThan(
      Number(paged.json().data.items[1].postingSeq),
    );
  });

  describe("bad input changes nothing and is explained in the user's language", () => {
    const endpoints: [string, string, unknown?][] = [
      ["POST", "/api/v1/spot/orders", { clientOrderId: "x-00000001" }],
      ["DELETE", "/api/v1/spot/orders/1"],
      ["POST", "/api/v1/spot/orders/cancel-all", {}],
      ["GET", "/api/v1/spot/orders/open"],
      ["GET", "/api/v1/spot/orders/history"],
      ["GET", "/api/v1/spot/orders/1"],
      ["GET", "/api/v1/spot/balances"],
      ["GET", "/api/v1/spot/statement"],
      ["POST", "/api/v1/spot/demo-funds", { requestId: "grant-x0001", asset: "USDT", amount: "1" }],
      ["POST", "/api/v1/spot/demo-funds/reset"],
    ];

    it("unauthorised on every private endpoint (en, it)", async () => {
      for (const [method, url, payload] of endpoints) {
        for (const [lang, message] of [
          ["en", "Please log in first"],
          ["it", undefined],
        ] as const) {
          const response = await call(method as "GET", url, { payload, lang });
          expect(response.statusCode, `${method} ${url}`).toBe(401);
          expect(response.json().error).toBe("unauthorized");
          if (message) expect(response.json().message).toBe(message);
          else expect(response.json().message).not.toBe("Please log in first");
        }
      }
    });

    it("malformed, unknown, negative, over-precise and oversized fields (en, de)", async () => {
      const before = query((s) => getBalances(s, users.b!.id, "real"));
      const openBefore = (
        await call("GET", "/api/v1/spot/orders/open", { token: users.b!.token })
      ).json().data.items;
      const cases: [string, string, unknown, number, string, string?][] = [
        // [method, url, payload, status, error, field]
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "-1", quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "1", quantity: "0" }),
          400,
          "validation_failed",
          "body.quantity",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: 1, quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "1e5", quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "hold", type: "limit", price: "1", quantity: "1" }),
          400,
          "validation_failed",
          "body.side",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "1", quantity: "1", admin: true }),
          400,
          "validation_failed",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "market", price: "1", quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "1".repeat(60), quantity: "1" }),
          400,
          "validation_failed",
          "body.price",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          {
            ...order({ side: "buy", type: "limit", price: "1", quantity: "1" }),
            clientOrderId: "bad id!",
          },
          400,
          "validation_failed",
          "body.clientOrderId",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "30000.001", quantity: "0.01" }),
          400,
          "price_not_on_tick",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "30000", quantity: "0.00001" }),
          400,
          "quantity_not_on_lot",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "30000", quantity: "0.000000001" }),
          400,
          "quantity_not_on_lot",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "30000", quantity: "99999999999999" }),
          400,
          "quantity_too_high",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "999999999999999999", quantity: "0.01" }),
          400,
          "price_too_high",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "limit", price: "30000", quantity: "1000" }),
          422,
          "insufficient_balance",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({ side: "buy", type: "market", quoteAmount: "0.0000001" }),
          400,
          "amount_too_many_decimals",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({
            instrumentId: "NOPEUSDT",
            side: "buy",
            type: "limit",
            price: "1",
            quantity: "1",
          }),
          404,
          "instrument_not_found",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({
            side: "sell",
            type: "limit",
            price: "20000",
            quantity: "0.01",
            timeInForce: "post_only",
          }),
          409,
          "post_only_would_trade",
        ],
        [
          "POST",
          "/api/v1/spot/orders",
          order({
            side: "buy",
            type: "limit",
            price: "30100",
            quantity: "1",
            timeInForce: "fok",
          }),
          409,
          "fok_not_filled",
        ],
        [
          "DELETE",
          "/api/v1/spot/orders/abc",
          undefined,
          400,
          "validation_failed",
          "params.orderId",
        ],
        ["DELETE", "/api/v1/spot/orders/-5", undefined, 400, "validation_failed", "params.orderId"],
        [
          "DELETE",
          "/api/v1/spot/orders/99999999999999999999",
          undefined,
          400,
          "validation_failed",
          "params.orderId",
        ],
        ["DELETE", "/api/v1/spot/orders/999999", undefined, 404, "order_not_found"],
        [
          "POST",
          "/api/v1/spot/orders/cancel-all",
          { instrumentId: "../etc" },
          400,
          "validation_failed",
          "body.instrumentId",
        ],
        [
          "POST",
          "/api/v1/spot/orders/cancel-all",
          { instrumentId: "NOPE" },
          404,
          "instrument_not_found",
        ],
        [
          "GET",
          "/api/v1/spot/orders/open?instrumentId=NOPE",
          undefined,
          404,
          "instrument_not_found",
        ],
        [
          "GET",
          "/api/v1/spot/orders/history?limit=0",
          undefined,
          400,
          "validation_failed",
          "query.limit",
        ],
        [
          "GET",
          "/api/v1/spot/orders/history?limit=1000",
          undefined,
          400,
          "validation_failed",
          "query.limit",
        ],
        [
          "GET",
          "/api/v1/spot/orders/history?cursor=-1",
          undefined,
          400,
          "validation_failed",
          "query.cursor",
        ],
        [
          "GET",
          "/api/v1/spot/orders/history?status=paid",
          undefined,
          400,
          "validation_failed",
          "query.status",
        ],
        ["GET", "/api/v1/spot/orders/0", undefined, 400, "validation_failed", "params.orderId"],
        ["GET", "/api/v1/spot/orders/123456", undefined, 404, "order_not_found"],
        ["GET", "/api/v1/spot/balances?asset=USDT", undefined, 400, "validation_failed"],
        [
          "GET",
          "/api/v1/spot/statement?limit=-3",
          undefined,
          400,
          "validation_failed",
          "query.limit",
        ],
        [
          "GET",
          "/api/v1/spot/statement?cursor=1.5",
          undefined,
          400,
          "validation_failed",
          "query.cursor",
        ],
        [
          "POST",
          "/api/v1/spot/demo-funds",
          { requestId: "grant-b00001", asset: "USDT", amount: "-5" },
          400,
          "validation_failed",
          "body.amount",
        ],
        ["POST", "/api/v1/spot/demo-funds/reset", { all: true }, 400, "validation_failed"],
      ];
      for (const [lang, validationText] of [
        ["en", "Some fields are not valid"],
        ["de", "Einige Felder sind ungültig"],
      ] as const) {
        for (const [method, url, payload, status, error, field] of cases) {
          const response = await call(method as "GET", url, {
            token: users.b!.token,
            lang,
            payload:
              payload && typeof payload === "object" && "clientOrderId" in payload
                ? {
                    ...payload,
                    clientOrderId:
                      `${lang}-${String((payload as { clientOrderId: string }).clientOrderId)}`.slice(
                        0,
                        64,
                      ),
                    tradePassword: "trade1234",
                  }
                : payload,
          });
          const label = `${lang} ${method} ${url} ${JSON.stringify(payload)}`;
          expect(response.statusCode, label).toBe(status);
          expect(response.json().error, label).toBe(error);
          if (error === "validation_failed") {
            expect(response.json().message, label).toBe(validationText);
            if (field) {
              expect(
                response.json().issues.map((i: { path: string }) => i.path),
                label,
              ).toContain(field);
            }
          }
        }
      }
      // Another locale for a kernel rejection, and an oversized body.
      const ru = await call("POST", "/api/v1/spot/orders", {
        token: users.b!.token,
        lang: "ru",
        payload: order({
          side: "buy",
          type: "limit",
          price: "30000",
          quantity: "1000",
          tradePassword: "trade1234",
        }),
      });
      expect(ru.json()).toMatchObject({
        error: "insufficient_balance",
        message: "Недостаточно доступных средств",
      });
      const big = await call("POST", "/api/v1/spot/orders", {
        token: users.b!.token,
        payload: order({
          side: "buy",
          type: "limit",
          price: "1",
          quantity: "1",
          pad: "x".repeat(5_000),
        }),
      });
      expect(big.statusCode).toBe(413);
      const broken = await call("POST", "/api/v1/spot/orders", {
        token: users.b!.token,
        payload: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().error).toBe("malformed_json");
      // Rejections change nothing in the ledger (rejected ids are only remembered).
      expect(query((s) => getBalances(s, users.b!.id, "real"))).toEqual(before);
      const openAfter = (
        await call("GET", "/api/v1/spot/orders/open", { token: users.b!.token })
      ).json().data.items;
      expect(openAfter).toEqual(openBefore);
    });
  });

  it("maps every kernel rejection to an API error code", () => {
    for (const [kernelCode, apiCode] of Object.entries(errorCodeByRejectCode)) {
      expect(apiCode, kernelCode).toMatch(/^[a-z_]+$/);
    }
  });
});

function toUnits(text: string, scale: number): bigint {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const units =
    BigInt(whole) * 10n ** BigInt(scale) +
    BigInt((fraction + "0".repeat(scale)).slice(0, scale) || "0");
  return negative ? -units : units;
}
