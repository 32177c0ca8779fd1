// The authorisation matrix, generated from the app's own endpoint registry (the source of
// /api/openapi.json): every contract endpoint × anonymous, a garbage token, a revoked token, user
// A, user B, a demo user and the operator token. A new endpoint is covered the moment it is
// registered; a new endpoint with ids in its path fails until `ownedResources` says whose they
// are and how another user's id is answered.
import type { EndpointSpec } from "@candor/contract";
import { getNowMs } from "@candor/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../apps/server/src/testing/databases.ts";
import {
  concretePath,
  operatorToken,
  startSecurityApp,
  type SecurityApp,
  type SuiteUser,
} from "./security-app.ts";

const savedAddress = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/**
 * Endpoints of signed-in users whose path names a resource: how to make one that belongs to
 * user A, and the error user B gets for it (the same as for an id that does not exist, so ids
 * reveal nothing).
 */
const ownedResources: Record<
  string,
  {
    make: (suite: SecurityApp, owner: SuiteUser) => Promise<string>;
    answer: [number, string];
    /** What a demo session gets when the endpoint is for real money only. */
    demoAnswer?: [number, string];
    payload?: object;
  }
> = {
  "GET /api/v1/spot/orders/:orderId": { make: openOrderOf, answer: [404, "order_not_found"] },
  "DELETE /api/v1/spot/orders/:orderId": { make: openOrderOf, answer: [404, "order_not_found"] },
  "POST /api/v1/spot/orders/:orderId/amend": {
    make: openOrderOf,
    answer: [404, "order_not_found"],
    payload: { quantity: "0.005" },
  },
  "DELETE /api/v1/spot/conditional-orders/:orderId": {
    make: conditionalOrderOf,
    answer: [404, "order_not_found"],
  },
  "PUT /api/v1/wallet/withdraw-addresses/:addressId": {
    make: addressOf,
    answer: [404, "withdraw_address_not_found"],
    demoAnswer: [403, "demo_withdraw_not_allowed"],
    payload: { network: "ethereum", address: savedAddress, remark: "changed" },
  },
  "DELETE /api/v1/wallet/withdraw-addresses/:addressId": {
    make: addressOf,
    answer: [404, "withdraw_address_not_found"],
    demoAnswer: [403, "demo_withdraw_not_allowed"],
  },
  "DELETE /api/v1/wallet/bank-cards/:cardId": {
    make: bankCardOf,
    answer: [404, "bank_card_not_found"],
    demoAnswer: [403, "demo_funds_not_allowed"],
  },
  "GET /api/v1/seconds/contracts/:contractId": {
    make: secondsContractOf,
    answer: [404, "seconds_contract_not_found"],
  },
  "GET /api/v1/wallet/withdrawals/:withdrawalId": {
    make: withdrawalOf,
    answer: [404, "withdrawal_not_found"],
    demoAnswer: [403, "demo_withdraw_not_allowed"],
  },
  "POST /api/v1/wallet/withdrawals/:withdrawalId/cancel": {
    make: withdrawalOf,
    answer: [404, "withdrawal_not_found"],
    demoAnswer: [403, "demo_withdraw_not_allowed"],
  },
  "GET /api/v1/uploads/:uploadId": { make: uploadOf, answer: [404, "upload_not_found"] },
  "GET /api/v1/support/images/:uploadId": {
    make: supportImageOf,
    answer: [404, "upload_not_found"],
  },
  "DELETE /api/v1/me/identity/:submissionId/documents": {
    make: identitySubmissionOf,
    answer: [404, "identity_submission_not_found"],
  },
  "DELETE /api/v1/perp/orders/:orderId": { make: perpOrderOf, answer: [404, "order_not_found"] },
  "DELETE /api/v1/perp/conditional-orders/:orderId": {
    make: perpConditionalOrderOf,
    answer: [404, "order_not_found"],
  },
  "POST /api/v1/perp/orders/:orderId/amend": {
    make: perpOrderOf,
    answer: [404, "order_not_found"],
    payload: { contracts: 1 },
  },
  "POST /api/v1/savings/subscriptions/:subscriptionId/redeem": {
    make: savingsSubscriptionOf,
    answer: [404, "savings_subscription_not_found"],
  },
  "DELETE /api/v1/me/sessions/:sessionId": {
    make: sessionOf,
    answer: [404, "session_not_found"],
  },
  "GET /api/v1/stocks/orders/:orderId": { make: stockOrderOf, answer: [404, "order_not_found"] },
  "POST /api/v1/stocks/orders/:orderId/cancel": {
    make: stockOrderOf,
    answer: [404, "order_not_found"],
  },
  "GET /api/v1/loans/:loanId": { make: loanOf, answer: [404, "loan_not_found"] },
  "POST /api/v1/loans/:loanId/repay": {
    make: loanOf,
    answer: [404, "loan_not_found"],
    payload: { requestId: "matrix-repay-1", amount: "1" },
  },
  "POST /api/v1/loans/:loanId/collateral": {
    make: loanOf,
    answer: [404, "loan_not_found"],
    payload: { requestId: "matrix-collateral-1", amount: "0.01" },
  },
};

/**
 * Endpoints whose path parameter is not another user's resource, and why; they are checked by
 * the other tests of this file like every endpoint.
 */
const notOwnedParameters: Record<string, string> = {
  "GET /api/v1/wallet/accounts/:wallet/statement":
    "a wallet kind (fund, contract, fiat) of the caller's own accounts",
  "GET /api/v1/wallet/recipients/:userId":
    "a sender looks up the recipient's masked name before a transfer (rate-limited)",
  "POST /api/v1/wallet/exchange/quotes/:quoteId/accept":
    "quotes need a funded house and a fresh tick; accepting someone else's quote is refused " +
    "as quote_not_found in wallet.routes.test.ts",
  "POST /api/v1/wallet/buy/quotes/:quoteId/accept":
    "a buy is a quick-exchange quote paid from the fiat wallet; accepting someone else's is " +
    "refused as quote_not_found in wallet.buy.test.ts",
  "POST /api/v1/notices/:noticeId/read":
    "notices are public; the read mark is the caller's own (news.routes.test.ts: b's marks stay b's)",
  "PUT /api/v1/stocks/holdings/:instrumentId/tpsl":
    "a stock symbol; the holding is always the caller's own (stocks.routes.test.ts)",
  "POST /api/v1/news/:newsId/read":
    "news is public; each caller is counted once as a reader (news.routes.test.ts)",
  ...Object.fromEntries(
    [
      "PUT /api/v1/perp/markets/:marketId/leverage",
      "PUT /api/v1/perp/markets/:marketId/margin-mode",
      "POST /api/v1/perp/positions/:marketId/margin",
      "PUT /api/v1/perp/positions/:marketId/tp-sl",
      "DELETE /api/v1/perp/positions/:marketId/tp-sl",
      "POST /api/v1/perp/positions/:marketId/close",
      "POST /api/v1/perp/positions/:marketId/reverse",
    ].map((k) => [k, "a perpetual market id: the position it acts on is always the caller's own"]),
  ),
};

/** The public id of the owner's current session (security centre). */
async function sessionOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const response = await suite.app.inject({
    method: "GET",
    url: "/api/v1/me/sessions",
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  const sessions: { sessionId: string; current: boolean }[] = response.json().data.sessions;
  return sessions.find((s) => s.current)!.sessionId;
}

async function addressOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/wallet/withdraw-addresses",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { network: "ethereum", address: savedAddress, remark: "matrix" },
  });
  if (response.statusCode === 200) return response.json().data.address.addressId;
  // Saved by an earlier rule: the owner's existing entry.
  const list = await suite.app.inject({
    method: "GET",
    url: "/api/v1/wallet/withdraw-addresses",
    headers: { authorization: `Bearer ${owner.token}` },
  });
  return list.json().data.items[0].addressId;
}

let stockOrders = 0;

/** A pending limit buy of one AAPL share (queued for the open, far below the market). */
async function stockOrderOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const n = ++stockOrders;
  const funded = await suite.app.inject({
    method: "POST",
    url: "/api/v1/operator/stocks/inventory",
    headers: { authorization: `Bearer ${operatorToken}` },
    payload: {
      requestId: `matrix-inventory-${n}`,
      mode: "real",
      instrumentId: "AAPL",
      direction: "add",
      quantity: "10",
      reference: "matrix",
      reason: "matrix inventory",
    },
  });
  expect(funded.statusCode, funded.body).toBe(200);
  await suite.credit(owner, "USD", "100");
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/stocks/orders",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      requestId: crypto.randomUUID(),
      instrumentId: "AAPL",
      side: "buy",
      kind: "limit",
      quantity: "1",
      limitPrice: "1",
      tif: "gtc",
      queueForOpen: true,
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().data.order.status).toBe("pending");
  return response.json().data.order.orderId;
}

let secondsContracts = 0;

/** A real seconds contract of the owner: the house funded, a fresh tick on the tape. */
async function secondsContractOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const n = ++secondsContracts;
  const funded = await suite.app.inject({
    method: "POST",
    url: "/api/v1/operator/house/deposits",
    headers: { authorization: `Bearer ${operatorToken}` },
    payload: {
      id: `matrix-house-${n}`,
      assetId: "USDT",
      amount: "100",
      reference: "matrix",
      reason: "matrix house",
    },
  });
  expect(funded.statusCode, funded.body).toBe(200);
  // A clock tick stamps the suite's time; the tick is observed then, so it is fresh.
  await suite.engine.submit({ type: "clock_tick", id: `matrix-clock-${n}` });
  const atMs = suite.engine.query((s) => getNowMs(s));
  await suite.engine.submit({
    type: "record_tick",
    id: `matrix-tick-${n}`,
    tickId: `matrix-${n}`,
    instrumentId: "BTCUSDT",
    price: "30000",
    tickAtMs: atMs,
  });
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/seconds/contracts",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      requestId: crypto.randomUUID(),
      instrumentId: "BTCUSDT",
      periodS: 30,
      direction: "up",
      stake: "1",
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.contract.contractId;
}

let savingsSubscriptions = 0;

/** An active savings subscription of the owner (real yield funded by the operator first). */
async function savingsSubscriptionOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const n = ++savingsSubscriptions;
  const funded = await suite.app.inject({
    method: "POST",
    url: "/api/v1/operator/savings/yield",
    headers: { authorization: `Bearer ${operatorToken}` },
    payload: {
      id: `matrix-yield-${n}`,
      mode: "real",
      asset: "USDT",
      amount: "10",
      reference: "m",
      reason: "matrix yield",
    },
  });
  expect(funded.statusCode, funded.body).toBe(200);
  suite.tick();
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/savings/subscriptions",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { requestId: crypto.randomUUID(), planId: "usdt-flex-7", amount: "10" },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.subscription.subscriptionId;
}

let loans = 0;

/** A real loan of the owner: 100 USDT against 0.1 BTC from a funded pool, at a fresh tick. */
async function loanOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const n = ++loans;
  const funded = await suite.app.inject({
    method: "POST",
    url: "/api/v1/operator/loans/pool",
    headers: { authorization: `Bearer ${operatorToken}` },
    payload: {
      id: `matrix-pool-${n}`,
      mode: "real",
      assetId: "USDT",
      amount: "1000",
      reference: "matrix",
      reason: "matrix pool",
    },
  });
  expect(funded.statusCode, funded.body).toBe(200);
  await suite.credit(owner, "BTC", "0.2");
  await suite.engine.submit({ type: "clock_tick", id: `matrix-loan-clock-${n}` });
  const atMs = suite.engine.query((s) => getNowMs(s));
  await suite.engine.submit({
    type: "record_tick",
    id: `matrix-loan-tick-${n}`,
    tickId: `matrix-loan-${n}`,
    instrumentId: "BTCUSDT",
    price: "30000",
    tickAtMs: atMs,
  });
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/loans",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      requestId: crypto.randomUUID(),
      productId: "BTC-USDT-7D",
      amount: "100",
      collateral: "0.1",
      agreement: true,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.loan.loanId;
}

/** A bank card bound by the owner. */
async function bankCardOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/wallet/bank-cards",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      cardholder: "Card Holder",
      bankName: "Matrix Bank",
      branch: "Main",
      cardNumber: `4000 0000 ${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.cardId;
}

/** A pending withdrawal of 20 USDT (+ fee) to the owner's saved address (no lock in the suite). */
async function withdrawalOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const addressId = await addressOf(suite, owner);
  suite.tick();
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/wallet/withdrawals",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      requestId: crypto.randomUUID(),
      addressId,
      asset: "USDT",
      amount: "20",
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.withdrawalId;
}

/** A payment-proof image uploaded by `owner` (a 1×1 PNG, re-encoded by the pipeline). */
/** A decided (passed) basic identity submission of `owner`. */
async function identitySubmissionOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const submitted = await suite.app.inject({
    method: "POST",
    url: "/api/v1/me/identity/basic",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      country: "DE",
      realName: "Erika Mustermann",
      documentType: "passport",
      documentNumber: "C01X00T47",
    },
  });
  expect(submitted.statusCode, submitted.body).toBe(200);
  const id: string = submitted.json().data.history[0].submissionId;
  const approved = await suite.app.inject({
    method: "POST",
    url: `/api/v1/operator/identity/${id}/approve`,
    headers: { authorization: `Bearer ${operatorToken}` },
    payload: { reason: "matrix" },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

async function uploadOf(
  suite: SecurityApp,
  owner: SuiteUser,
  purpose = "bank_deposit_proof",
): Promise<string> {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
    "base64",
  );
  const boundary = "----candor-matrix";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\n` +
        `Content-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await suite.app.inject({
    method: "POST",
    url: `/api/v1/uploads?purpose=${purpose}`,
    headers: {
      authorization: `Bearer ${owner.token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.upload.uploadId;
}

/** An image the owner sent in their support conversation. */
async function supportImageOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const uploadId = await uploadOf(suite, owner, "support_image");
  const sent = await suite.app.inject({
    method: "POST",
    url: "/api/v1/support/messages",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { uploadId, clientMessageId: crypto.randomUUID() },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return uploadId;
}

let perpOrders = 0;
/** A resting perpetual bid of the owner, margined from its contract wallet. */
async function perpOrderOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  const n = ++perpOrders;
  const auth = { authorization: `Bearer ${owner.token}` };
  const moved = await suite.app.inject({
    method: "POST",
    url: "/api/v1/wallet/transfers/internal",
    headers: auth,
    payload: {
      requestId: `matrix-perp-transfer-${n}`,
      asset: "USDT",
      amount: "10",
      sourceWallet: "fund",
      targetWallet: "contract",
    },
  });
  expect(moved.statusCode, moved.body).toBe(200);
  // A mark: a fresh tick of the index.
  await suite.engine.submit({ type: "clock_tick", id: `matrix-perp-clock-${n}` });
  await suite.engine.submit({
    type: "record_tick",
    id: `matrix-perp-tick-${n}`,
    tickId: `matrix-perp-${n}`,
    instrumentId: "BTCUSDT",
    price: "30000",
    tickAtMs: suite.engine.query((s) => getNowMs(s)),
  });
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/perp/orders",
    headers: auth,
    payload: {
      clientOrderId: `matrix-perp-order-${n}`,
      marketId: "BTC-PERP",
      side: "buy",
      orderType: "limit",
      price: "29000",
      contracts: 1,
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.orderId;
}

/** A waiting perpetual stop order of `owner` (holds nothing; needs only a mark). */
async function perpConditionalOrderOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  await perpOrderOf(suite, owner);
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/perp/conditional-orders",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      clientOrderId: `matrix-perp-stop-${++perpOrders}`,
      marketId: "BTC-PERP",
      side: "buy",
      kind: "stop",
      orderType: "market",
      triggerPrice: "40000",
      contracts: 1,
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.orderId;
}

let matrixTicks = 0;

async function conditionalOrderOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  suite.tick();
  const nowMs = suite.engine.query((state) => getNowMs(state));
  const recorded = await suite.engine.submit({
    type: "record_tick",
    id: `matrix-tick-${++matrixTicks}`,
    tickId: `matrix:${matrixTicks}`,
    instrumentId: "BTCUSDT",
    price: "30000",
    tickAtMs: nowMs,
  });
  expect(recorded.result.ok).toBe(true);
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/spot/conditional-orders",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      instrumentId: "BTCUSDT",
      side: "buy",
      kind: "stop",
      type: "limit",
      triggerPrice: "40000",
      price: "40010",
      quantity: "0.001",
      clientOrderId: crypto.randomUUID(),
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.order.orderId;
}

async function openOrderOf(suite: SecurityApp, owner: SuiteUser): Promise<string> {
  suite.tick();
  const response = await suite.app.inject({
    method: "POST",
    url: "/api/v1/spot/orders",
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      instrumentId: "BTCUSDT",
      side: "buy",
      type: "limit",
      price: "1000",
      quantity: "0.01",
      clientOrderId: crypto.randomUUID(),
      tradePassword: "trade1234",
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.order.orderId;
}

const phoneA = "+4915190000001";
const phoneB = "+4915190000002";
const key = (e: EndpointSpec) => `${e.method} ${e.path}`;

describeEachDatabase("authorisation matrix", (database) => {
  let suite: SecurityApp;
  let a: SuiteUser;
  let demo: SuiteUser;
  let revoked: SuiteUser;
  let endpoints: EndpointSpec[];

  beforeAll(async () => {
    suite = await startSecurityApp(database());
    a = await suite.register(phoneA);
    await suite.register(phoneB);
    revoked = await suite.register("+4915190000003");
    demo = await suite.demo();
    await suite.credit(a, "USDT", "1000");
    const logout = await suite.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: { authorization: `Bearer ${revoked.token}` },
      payload: {},
    });
    expect(logout.statusCode).toBe(200);
    endpoints = [...suite.app.endpoints];
  }, 120_000);
  afterAll(() => suite?.close());

  const call = (
    endpoint: EndpointSpec,
    authorization?: string,
    path = endpoint.path,
    payload: object = {},
  ) => {
    suite.tick();
    return suite.app.inject({
      method: endpoint.method,
      url: concretePath(path),
      headers: authorization ? { authorization } : {},
      ...(endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { payload }),
    });
  };

  it("covers every registered endpoint, and every endpoint is in the OpenAPI document", async () => {
    expect(endpoints.length).toBeGreaterThan(30);
    const document = (await suite.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}");
      expect(document.paths[path]?.[endpoint.method.toLowerCase()], key(endpoint)).toBeDefined();
    }
  });

  it("refuses every private endpoint without a valid session: anonymous, garbage, revoked", async () => {
    for (const endpoint of endpoints.filter((e) => e.auth !== "none")) {
      for (const authorization of [
        undefined,
        "Bearer not-a-session-token",
        `Bearer ${revoked.token}`,
        "Basic YTpi",
      ]) {
        const response = await call(endpoint, authorization);
        expect(response.statusCode, `${key(endpoint)} as ${authorization}`).toBe(401);
        expect(response.json().error).toBe("unauthorized");
      }
    }
  });

  it("operator endpoints refuse user and demo sessions; user endpoints refuse the operator token", async () => {
    for (const endpoint of endpoints.filter((e) => e.auth === "operator")) {
      for (const user of [a, demo]) {
        const response = await call(endpoint, `Bearer ${user.token}`);
        expect(response.statusCode, key(endpoint)).toBe(401);
      }
    }
    for (const endpoint of endpoints.filter((e) => e.auth === "user")) {
      const response = await call(endpoint, `Bearer ${operatorToken}`);
      expect(response.statusCode, key(endpoint)).toBe(401);
    }
  });

  it("lets signed-in users and the public through authentication (whatever the answer)", async () => {
    for (const endpoint of endpoints) {
      // Fresh sessions each time: logout and a password change end the session they use.
      const tokens =
        endpoint.auth === "user"
          ? [
              (await suite.login(phoneA)).token,
              (await suite.login(phoneB)).token,
              (await suite.demo()).token,
            ]
          : endpoint.auth === "operator"
            ? [operatorToken]
            : [undefined];
      for (const token of tokens) {
        const response = await call(endpoint, token ? `Bearer ${token}` : undefined);
        expect(response.statusCode, key(endpoint)).not.toBe(401);
        expect(response.statusCode, `${key(endpoint)}: ${response.body}`).toBeLessThan(500);
      }
    }
    // Three sign-ins (password hashing) per user endpoint: minutes on a loaded machine.
  }, 180_000);

  it("answers another user's ids as if they did not exist", async () => {
    const withIds = endpoints.filter(
      (e) => e.auth === "user" && e.path.includes(":") && !(key(e) in notOwnedParameters),
    );
    for (const endpoint of withIds) {
      const rule = ownedResources[key(endpoint)];
      expect(rule, `${key(endpoint)} needs an entry in ownedResources`).toBeDefined();
      const owner = await suite.login(phoneA);
      const id = await rule!.make(suite, owner);
      const path = endpoint.path.replace(/:(\w+)/g, id);
      for (const intruder of [await suite.login(phoneB), demo]) {
        const response = await call(endpoint, `Bearer ${intruder.token}`, path, rule!.payload);
        const expected = intruder === demo ? (rule!.demoAnswer ?? rule!.answer) : rule!.answer;
        expect([response.statusCode, response.json().error], key(endpoint)).toEqual(expected);
      }
      const own = await call(endpoint, `Bearer ${owner.token}`, path, rule!.payload);
      expect(own.statusCode, `${key(endpoint)} for its owner: ${own.body}`).toBe(200);
    }
  }, 120_000);
});
