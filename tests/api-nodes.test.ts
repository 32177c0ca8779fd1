import { afterAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { clusterFixture } from "./cluster-fixture.ts";
import { startServer, type ServerProcess } from "./harness.ts";

// Issue 25, `ROLE=api`: one engine process (the leader, JetStream journal, PostgreSQL) and two
// API node processes (follower kernels, commands forwarded to the leader). A user registers
// and signs in through node A; orders placed through A and B are acknowledged once (a retry by
// clientOrderId gets the same answer); balances read through the other node agree; a WebSocket
// client on each node receives the public trades (the followed tape) in order. A stream, a
// lease bucket, a subject prefix and a schema of its own, deleted afterwards.
const url = process.env.DATABASE_URL;
const cluster = clusterFixture("apinodes");
const { suffix, processes } = cluster;
const operatorToken = `operator-token-${suffix}-0123456789`;
const sockets: WebSocket[] = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Envelope = { code: number; message: string; data: any; error?: string };

async function call(
  node: ServerProcess,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: Envelope }> {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Envelope };
}

/** A WebSocket client subscribed to `channels`; collects every message it receives. */
async function wsClient(node: ServerProcess, channels: unknown[], token?: string) {
  const socket = new WebSocket(`${node.url.replace("http", "ws")}/api/v1/ws`, {
    headers: token ? { authorization: `Bearer ${token}`, origin: node.url } : {},
  });
  sockets.push(socket);
  const messages: { type: string; data: unknown }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const subscribed = new Promise<void>((resolve) =>
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === "subscribed") resolve();
      messages.push(message);
    }),
  );
  socket.send(JSON.stringify({ op: "subscribe", channels }));
  await subscribed;
  return messages;
}

/** A WebSocket client subscribed to an instrument's public trades. */
async function tradesClient(node: ServerProcess, instrumentId: string) {
  const messages = await wsClient(node, [{ channel: "trades", instrumentId }]);
  return {
    get trades(): { atMs: number; price: string }[] {
      return messages
        .filter((m) => m.type === "trade")
        .map((m) => m.data as { atMs: number; price: string });
    },
  };
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!url)("API nodes on a follower kernel [postgres + JetStream]", () => {
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await cluster.tearDown();
  }, 30_000);

  it("serves users, orders, balances and public trades through two API nodes", async () => {
    const env = {
      ...cluster.engineEnv(url!),
      PASSWORD_COST: "12",
      OPERATOR_TOKEN: operatorToken,
    };
    processes.push(await startServer({ env }));
    const [a, b] = await Promise.all([
      startServer({ env: { ...env, ROLE: "api" } }),
      startServer({ env: { ...env, ROLE: "api" } }),
    ]);
    processes.push(a, b);
    expect(a.output()).toMatch(/API node: following/);

    const clientA = await tradesClient(a, "BTCUSDT");
    const clientB = await tradesClient(b, "BTCUSDT");

    // Register and sign in through node A (the e-mail code is in A's outbox).
    const email = `api-${suffix}@example.com`;
    const code = await call(a, "POST", "/api/v1/auth/email-codes", { email, purpose: "register" });
    expect(code.status, JSON.stringify(code.json)).toBe(200);
    const outbox = await call(
      a,
      "GET",
      `/api/v1/operator/outbox?to=${email}`,
      undefined,
      operatorToken,
    );
    const emailCode = /\b(\d{6})\b/.exec(outbox.json.data.emails[0].text)![1];
    const registered = await call(a, "POST", "/api/v1/auth/register", {
      account: email,
      password: "first1234",
      passwordConfirm: "first1234",
      emailCode,
      agreement: true,
    });
    expect(registered.status, JSON.stringify(registered.json)).toBe(200);
    const login = await call(a, "POST", "/api/v1/auth/login", {
      account: email,
      password: "first1234",
    });
    expect(login.status).toBe(200);
    const token: string = login.json.data.token;
    const mode = await call(a, "PUT", "/api/v1/me/mode", { mode: "demo" }, token);
    expect(mode.status, JSON.stringify(mode.json)).toBe(200);
    // The session lives in PostgreSQL: node B knows it too (first looked up after the switch:
    // another process sees a session change within the session cache's lifetime).
    expect((await call(b, "GET", "/api/v1/me", undefined, token)).json.data).toMatchObject({
      username: email,
    });
    const demoToken: string = mode.json.data?.token ?? token;

    // Demo money through A, read back at once through A (its follower applied the answer).
    const funded = await call(
      a,
      "POST",
      "/api/v1/spot/demo-funds",
      { requestId: `fund-${suffix}`, asset: "USDT", amount: "1000" },
      demoToken,
    );
    expect(funded.status, JSON.stringify(funded.json)).toBe(200);

    // A private stream on node B: the balance change of an order placed through node A.
    const privateB = await wsClient(b, [{ channel: "balances" }], demoToken);

    const order = (clientOrderId: string) => ({
      clientOrderId,
      instrumentId: "BTCUSDT",
      side: "buy",
      type: "market",
      quoteAmount: "50",
    });
    const viaA = await call(a, "POST", "/api/v1/spot/orders", order(`a-${suffix}`), demoToken);
    expect(viaA.status, JSON.stringify(viaA.json)).toBe(200);
    expect(viaA.json.data.duplicate).toBe(false);
    const viaB = await call(b, "POST", "/api/v1/spot/orders", order(`b-${suffix}`), demoToken);
    expect(viaB.status, JSON.stringify(viaB.json)).toBe(200);
    expect(viaB.json.data.duplicate).toBe(false);
    // Retries by clientOrderId, through the other node: the first answer, nothing new.
    const retryA = await call(b, "POST", "/api/v1/spot/orders", order(`a-${suffix}`), demoToken);
    expect(retryA.json.data.duplicate).toBe(true);
    expect(retryA.json.data.order.orderId).toBe(viaA.json.data.order.orderId);
    const retryB = await call(a, "POST", "/api/v1/spot/orders", order(`b-${suffix}`), demoToken);
    expect(retryB.json.data.duplicate).toBe(true);
    expect(retryB.json.data.order.orderId).toBe(viaB.json.data.order.orderId);

    // Balances: read through B, and through A once it has followed as far: the same.
    const balancesB = (await call(b, "GET", "/api/v1/spot/balances", undefined, demoToken)).json
      .data;
    const usdt = (data: { items: { asset: string; available: string }[] }) =>
      data.items.find((i) => i.asset === "USDT");
    expect(usdt(balancesB)).toBeDefined();
    await until(
      async () =>
        JSON.stringify(
          (await call(a, "GET", "/api/v1/spot/balances", undefined, demoToken)).json.data,
        ) === JSON.stringify(balancesB),
      "node A's balances agree with node B's",
    );

    await until(
      () => privateB.some((m) => m.type === "balances"),
      "node B's private balances stream",
    );

    // Public trades (the leader's tape) on both nodes, in order.
    await until(
      () => clientA.trades.length >= 3 && clientB.trades.length >= 3,
      "trades on both nodes",
      20_000,
    );
    const tradesA = clientA.trades;
    const tradesB = clientB.trades;
    for (const trades of [tradesA, tradesB]) {
      const times = trades.map((t) => t.atMs);
      expect(times).toEqual([...times].sort((x, y) => x - y));
    }
    const key = (t: { atMs: number; price: string }) => `${t.atMs}:${t.price}`;
    const common = tradesA.map(key).filter((k) => tradesB.map(key).includes(k));
    expect(common.length).toBeGreaterThan(0);
    expect(tradesB.map(key).filter((k) => common.includes(k))).toEqual(common);
  }, 90_000);
});
