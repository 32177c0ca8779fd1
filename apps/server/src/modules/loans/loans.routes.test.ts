// The loans API end to end on the real kernel and engine: products and quotes, borrowing from
// the operator-funded pool in real and demo mode, repayment with the early fee, review by an
// operator, liquidation at a recorded tick, and bad or unauthorised input that changes nothing.

import { getBalance } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";

describeEachDatabase("loans API", (database) => {
  const nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest("10.3.0");
  const { users, submit, call, operator } = kit;
  let request = 0;
  const recordTick = (price: string) => kit.recordTick("BTCUSDT", price, nowMs);
  const borrow = (user: string, fields: Record<string, unknown> = {}) =>
    call("POST", "/api/v1/loans", {
      token: users[user]!.token,
      payload: {
        requestId: `request-${String(++request).padStart(6, "0")}`,
        productId: "BTC-USDT-7D",
        amount: "10000",
        collateral: "1",
        agreement: true,
        ...fields,
      },
    });
  const usdt = (user: string, mode: "real" | "demo" = "real") =>
    kit.running.engine.query((s) => getBalance(s, users[user]!.id, mode, "fund", "USDT"));

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await recordTick("30000");
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000081");
    await kit.signUp("b", "+4915100000082");
    const demo = await kit.signInDemo("demo");
    for (const [owner, mode] of [
      ["a", "real"],
      ["b", "real"],
    ] as const) {
      await submit({
        type: "credit_deposit",
        id: `btc-${owner}`,
        ownerId: users[owner]!.id,
        mode,
        assetId: "BTC",
        amount: 300_000_000n,
        reference: `btc-${owner}`,
        operatorId: null,
      });
    }
    // Demo collateral: demo BTC (as a demo user gets by exchanging demo USDT).
    await submit({
      type: "grant_demo",
      id: "btc-demo",
      ownerId: demo.id,
      mode: "demo",
      assetId: "BTC",
      amount: 100_000_000n,
    });
  });
  afterAll(kit.close);

  it("lists the products with every term and the pool (public)", async () => {
    const response = await call("GET", "/api/v1/loans/products");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.items[0]).toMatchObject({
      productId: "BTC-USDT-30D-REVIEWED",
      poolAvailable: "0",
      lastPrice: "30000",
    });
    expect(response.json().data.items[1]).toMatchObject({
      productId: "BTC-USDT-7D",
      terms: {
        termDays: 7,
        overdueRateBps: 11_000,
        lateFeeBpsPerDay: 100,
        graceDays: 3,
        earlyRepaymentBps: 5_000,
        ltvInitialBps: 6_500,
      },
    });
  });

  it("lends nothing until the operator funds the pool; only the operator can", async () => {
    const refused = await borrow("a");
    expect(refused.json().error).toBe("loan_pool_insufficient");
    const payload = {
      id: "pool-funding-1",
      mode: "real",
      assetId: "USDT",
      amount: "50000",
      reference: "bank",
    };
    const denied = await call("POST", "/api/v1/operator/loans/pool", {
      token: users.a!.token,
      payload,
    });
    expect(denied.statusCode).toBe(401);
    const funded = await call("POST", "/api/v1/operator/loans/pool", {
      headers: operator,
      payload,
    });
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json().data.poolAvailable).toBe("50000");
  });

  it("quotes the LTV, liquidation price and costs before borrowing", async () => {
    const response = await call("POST", "/api/v1/loans/quote", {
      token: users.a!.token,
      payload: { productId: "BTC-USDT-7D", amount: "10000", collateral: "1" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.quote).toMatchObject({
      refusal: null,
      ltvBps: 3_334,
      interestForTerm: "21",
      dueAtMaturity: "10021",
      liquidationPrice: "11764.705882352941176471",
      price: "30000",
    });
  });

  it("refuses malformed, oversized, negative, over-precise and unauthorised input", async () => {
    const before = usdt("a").available;
    for (const fields of [
      { amount: "-1" },
      { amount: "1e4" },
      { amount: "0" },
      { amount: "9".repeat(80) },
      { amount: "10.0000001" },
      { collateral: "0.000000001" },
      { agreement: false },
      { productId: "../x" },
      { extra: 1 },
    ]) {
      const response = await borrow("a", fields);
      expect(response.statusCode, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
    }
    expect((await borrow("a", { amount: "5" })).json().error).toBe("loan_amount_invalid");
    expect((await borrow("a", { amount: "20000" })).json().error).toBe("loan_ltv_too_high");
    const anonymous = await call("POST", "/api/v1/loans", {
      payload: {
        requestId: "x",
        productId: "BTC-USDT-7D",
        amount: "1",
        collateral: "1",
        agreement: true,
      },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(usdt("a").available).toBe(before);
  });

  it("borrows, shows the loan only to its owner, and repays early with the fee", async () => {
    const response = await borrow("a");
    expect(response.statusCode, response.body).toBe(200);
    const loan = response.json().data.loan;
    expect(loan).toMatchObject({
      status: "active",
      principal: "10000",
      collateral: "1",
      ltvBps: 3_334,
      openTickId: "t1",
      repayNow: "10010.5",
      earlyFee: "10.5",
    });
    expect(usdt("a").available).toBe(10_000_000_000n);
    const mine = await call("GET", "/api/v1/loans", { token: users.a!.token });
    expect(mine.json().data.items).toHaveLength(1);
    const theirs = await call("GET", `/api/v1/loans/${loan.loanId}`, { token: users.b!.token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toBe("loan_not_found");
    const bRepay = await call("POST", `/api/v1/loans/${loan.loanId}/repay`, {
      token: users.b!.token,
      payload: { requestId: "b-repay-0001", amount: "1" },
    });
    expect(bRepay.json().error).toBe("loan_not_found");
    await submit({
      type: "credit_deposit",
      id: "usdt-a",
      ownerId: users.a!.id,
      mode: "real",
      assetId: "USDT",
      amount: 100_000_000n,
      reference: "usdt-a",
      operatorId: null,
    });
    const repaid = await call("POST", `/api/v1/loans/${loan.loanId}/repay`, {
      token: users.a!.token,
      payload: { requestId: "a-repay-0001", amount: "20000" },
    });
    expect(repaid.statusCode, repaid.body).toBe(200);
    expect(repaid.json().data.loan).toMatchObject({
      status: "repaid",
      interestPaid: "10.5",
      principalPaid: "10000",
    });
    expect(usdt("a").available).toBe(89_500_000n);
    // The loan's postings are lines of the fund statement with the loan reasons (these once
    // failed the response check: a 500).
    await kit.running.projector.flush();
    const statement = await call("GET", "/api/v1/spot/statement?asset=USDT&limit=50", {
      token: users.a!.token,
    });
    expect(statement.statusCode, statement.body).toBe(200);
    const reasons = statement.json().data.items.map((line: { reason: string }) => line.reason);
    expect(reasons).toEqual(expect.arrayContaining(["loans_principal", "loans_repayment"]));
  });

  it("sends reviewed applications to the operator, who approves through the journal", async () => {
    const response = await borrow("b", { productId: "BTC-USDT-30D-REVIEWED", amount: "1000" });
    expect(response.statusCode, response.body).toBe(200);
    const loan = response.json().data.loan;
    expect(loan.status).toBe("pending");
    const pending = await call("GET", "/api/v1/operator/loans/pending", { headers: operator });
    expect(pending.json().data.items.map((l: { loanId: string }) => l.loanId)).toEqual([
      loan.loanId,
    ]);
    const denied = await call("POST", `/api/v1/operator/loans/${loan.loanId}/decision`, {
      token: users.b!.token,
      payload: { approve: true, reason: "collateral checked" },
    });
    expect(denied.statusCode).toBe(401);
    const approved = await call("POST", `/api/v1/operator/loans/${loan.loanId}/decision`, {
      headers: operator,
      payload: { approve: true, reason: "collateral checked" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.loan.status).toBe("active");
    const again = await call("POST", `/api/v1/operator/loans/${loan.loanId}/decision`, {
      headers: operator,
      payload: { approve: false, reason: "late" },
    });
    expect(again.json().error).toBe("loan_state_invalid");
  });

  it("lends demo money from the demo pool and never touches the real pool", async () => {
    const pool = (await call("GET", "/api/v1/loans/products")).json().data.items[1].poolAvailable;
    const response = await borrow("demo", { amount: "1000" });
    expect(response.statusCode, response.body).toBe(200);
    const loan = response.json().data.loan;
    expect(loan).toMatchObject({ mode: "demo", status: "active" });
    expect((await call("GET", "/api/v1/loans/products")).json().data.items[1].poolAvailable).toBe(
      pool,
    );
    const repaid = await call("POST", `/api/v1/loans/${loan.loanId}/repay`, {
      token: users.demo!.token,
      payload: { requestId: "demo-repay-001", amount: "2000" },
    });
    expect(repaid.json().data.loan.status).toBe("repaid");
  });

  it("liquidates at a recorded tick and names it in the loan", async () => {
    const response = await borrow("a", { amount: "19000" });
    const loanId = response.json().data.loan.loanId;
    const tickId = await recordTick("20000");
    const detail = await call("GET", `/api/v1/loans/${loanId}`, { token: users.a!.token });
    expect(detail.json().data.loan).toMatchObject({
      status: "liquidated",
      closeTickId: tickId,
      closePrice: "20000",
      collateralSeized: "0.95",
      shortfall: "0",
    });
  });
});
