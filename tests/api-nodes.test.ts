import { afterAll, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { wsCloseCodes } from "@candor/contract";
import { totpCode } from "../apps/server/src/modules/auth/totp.ts";
import { clusterFixture, tradesClient, wsClient, type WsMessage } from "./cluster-fixture.ts";
import { startServer, type ServerProcess } from "./harness.ts";

// Issue 25, `ROLE=api`: one engine process (the leader, JetStream journal, PostgreSQL) and two
// API node processes (follower kernels, commands forwarded to the leader). A user registers
// and signs in through node A; orders placed through A and B are acknowledged once (a retry by
// clientOrderId gets the same answer); balances read through the other node agree; a WebSocket
// client on each node receives the public trades (the followed tape) in order. A stream, a
// lease bucket, a subject prefix and a schema of its own, deleted afterwards. Then sessions
// across nodes: a mode switch and a sign-out made through A reach B (and the leader) over the
// session bus at once, well within the session cache's 3 s, and close B's private stream; an
// operator's sign-out through A closes their support desk on B and the leader. Tickers carry
// their tick's journal sequence, the same on every node, and a third API node started after
// trades exist links its first trade to the one before it.
const url = process.env.DATABASE_URL;
const cluster = clusterFixture("apinodes");
const { suffix, processes } = cluster;
const operatorToken = `operator-token-${suffix}-0123456789`;
const sockets: WebSocket[] = [];
/** What the first test sets up for the next: the API nodes and the user's account. */
const started: { a?: ServerProcess; b?: ServerProcess; email?: string } = {};

/** What the tests read of a ticker's data. */
type TickerData = { lastAtMs: number };

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

/** A WebSocket client on `node` (closed after the test). */
async function wsOn(node: ServerProcess, channels: unknown[], token?: string) {
  const client = await wsClient(node.url, channels, token);
  sockets.push(client.socket);
  return client.messages;
}

/** A WebSocket client on `node` subscribed to an instrument's public trades. */
async function tradesOn(node: ServerProcess, instrumentId: string) {
  const client = await tradesClient(node.url, instrumentId);
  sockets.push(client.socket);
  return client;
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
    started.a = a;
    started.b = b;
    expect(a.output()).toMatch(/API node: following/);

    const clientA = await tradesOn(a, "BTCUSDT");
    const clientB = await tradesOn(b, "BTCUSDT");
    const tickerA = await wsOn(a, [{ channel: "ticker", instrumentId: "BTCUSDT" }]);
    const tickerB = await wsOn(b, [{ channel: "ticker", instrumentId: "BTCUSDT" }]);

    // Register and sign in through node A (the e-mail code is in A's outbox).
    const email = `api-${suffix}@example.com`;
    started.email = email;
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
    const privateB = await wsOn(b, [{ channel: "balances" }], demoToken);

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
    // Time, price and the print's size: the size comes with the journaled tick.
    const key = (t: { atMs: number; price: string; quantity: string }) =>
      `${t.atMs}:${t.price}:${t.quantity}`;
    const common = tradesA.map(key).filter((k) => tradesB.map(key).includes(k));
    expect(common.length).toBeGreaterThan(0);
    expect(tradesB.map(key).filter((k) => common.includes(k))).toEqual(common);

    // Every node sends the same trade with the same tape id and journal sequence, and each
    // trade links to the one before it: a client can tell a gap and move to another node.
    const linksA = clientA.links;
    const linksB = clientB.links;
    for (const links of [linksA, linksB]) {
      for (let i = 1; i < links.length; i++) {
        expect(links[i]!.previousSequence).toBe(links[i - 1]!.sequence);
        expect(links[i]!.sequence).toBeGreaterThan(links[i - 1]!.sequence);
      }
    }
    const byIdB = new Map(linksB.map((link) => [link.id, link]));
    const shared = linksA.filter((link) => byIdB.has(link.id));
    expect(shared.length).toBeGreaterThan(0);
    for (const link of shared) {
      const other = byIdB.get(link.id)!;
      expect(other.sequence).toBe(link.sequence);
      if (link.previousSequence !== null && other.previousSequence !== null) {
        expect(other.previousSequence).toBe(link.previousSequence);
      }
    }

    // Tickers carry the journal sequence of the tick they reflect: the same on both nodes for
    // the same tick (its time), rising on each, and the sequence of that tick's trade.
    const tickers = (messages: WsMessage[]) =>
      messages
        .filter((m) => m.type === "ticker" && m.sequence !== undefined)
        .map((m) => ({ sequence: m.sequence as number, atMs: (m.data as TickerData).lastAtMs }));
    await until(
      () => tickers(tickerA).length >= 3 && tickers(tickerB).length >= 3,
      "tickers on both nodes",
    );
    const tickerSequenceOnB = new Map(tickers(tickerB).map((t) => [t.atMs, t.sequence]));
    const sharedTicks = tickers(tickerA).filter((t) => tickerSequenceOnB.has(t.atMs));
    expect(sharedTicks.length).toBeGreaterThan(0);
    for (const t of sharedTicks)
      expect(tickerSequenceOnB.get(t.atMs), `${t.atMs}`).toBe(t.sequence);
    for (const list of [tickers(tickerA), tickers(tickerB)]) {
      for (let i = 1; i < list.length; i++) {
        expect(list[i]!.sequence).toBeGreaterThanOrEqual(list[i - 1]!.sequence);
      }
    }
    const tradeSequenceByTime = new Map(
      clientA.messages
        .filter((m) => m.type === "trade")
        .map((m) => [(m.data as { atMs: number }).atMs, m.sequence as number]),
    );
    const tickedTrades = tickers(tickerA).filter((t) => tradeSequenceByTime.has(t.atMs));
    expect(tickedTrades.length).toBeGreaterThan(0);
    for (const t of tickedTrades) expect(tradeSequenceByTime.get(t.atMs)).toBe(t.sequence);

    // The print sizes are real (not 0), and the same on an API node as on the leader, over
    // the WebSocket and in the REST list of recent trades.
    for (const trade of [...tradesA, ...tradesB]) expect(Number(trade.quantity)).toBeGreaterThan(0);
    const leader = processes[0]!;
    const leaderClient = await tradesOn(leader, "BTCUSDT");
    await until(() => leaderClient.trades.length >= 2, "trades on the leader", 20_000);
    await until(
      () => leaderClient.trades.slice(0, 2).every((t) => clientA.trades.map(key).includes(key(t))),
      "the leader's trades on node A",
    );
    // The leader numbers its trades by the same journal sequences as the API nodes.
    const linksOnA = new Map(clientA.links.map((link) => [link.id, link.sequence]));
    for (const link of leaderClient.links.slice(0, 2)) {
      expect(linksOnA.get(link.id), link.id).toBe(link.sequence);
    }
    const rest = async (node: ServerProcess) =>
      (await call(node, "GET", "/api/v1/market/instruments/BTCUSDT/trades")).json.data as {
        atMs: number;
        price: string;
        quantity: string;
      }[];
    const [restLeader, restA] = [await rest(leader), await rest(a)];
    expect(restA.length).toBeGreaterThan(0);
    for (const trade of restA) expect(Number(trade.quantity)).toBeGreaterThan(0);
    const restCommon = restA.map(key).filter((k) => restLeader.map(key).includes(k));
    expect(restCommon.length).toBeGreaterThan(0);
  }, 90_000);

  it("links an API node's first trade after it starts to the trade before it", async () => {
    const { a } = started;
    expect(a, "the first test started the nodes").toBeTruthy();
    // Node A has seen trades for a while; node C starts now, after them.
    const clientA = await tradesOn(a!, "BTCUSDT");
    const env = {
      ...cluster.engineEnv(url!),
      PASSWORD_COST: "12",
      OPERATOR_TOKEN: operatorToken,
      ROLE: "api",
    };
    const c = await startServer({ env });
    processes.push(c);
    const clientC = await tradesOn(c, "BTCUSDT");
    const tickerC = await wsOn(c, [{ channel: "ticker", instrumentId: "BTCUSDT" }]);
    await until(() => clientC.links.length >= 2, "trades on the new node C", 20_000);
    const firstOnC = clientC.links[0]!;
    // Its first trade names the journal sequence of the trade before it, which node A sent
    // (with the trade right after it being C's first): no gap for a client moving to C.
    expect(firstOnC.previousSequence).not.toBeNull();
    await until(() => clientA.links.some((l) => l.id === firstOnC.id), "C's first trade on A");
    const onA = clientA.links.findIndex((l) => l.id === firstOnC.id);
    expect(onA, "A saw the trade before C's first").toBeGreaterThan(0);
    expect(clientA.links[onA - 1]!.sequence).toBe(firstOnC.previousSequence);
    expect(clientA.links[onA]!.sequence).toBe(firstOnC.sequence);
    // C's first ticker (sent on subscribing) already carries a sequence: the last tick's.
    const firstTicker = tickerC.find((m) => m.type === "ticker");
    expect(firstTicker?.sequence, JSON.stringify(firstTicker)).toBeTypeOf("number");
    expect(firstTicker!.sequence as number).toBeLessThanOrEqual(firstOnC.sequence);
    console.log(
      `node C: first trade ${firstOnC.sequence} links to ${firstOnC.previousSequence} (A's trade before it)`,
    );
  }, 180_000);

  it("ends a session on every node at once: mode switch and sign-out through A, seen on B", async () => {
    const { a, b, email } = started;
    expect(a && b && email, "the first test started the nodes").toBeTruthy();
    const leader = processes[0]!;
    const login = await call(a!, "POST", "/api/v1/auth/login", {
      account: email,
      password: "first1234",
    });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const token: string = login.json.data.token;
    const me = (node: ServerProcess) => call(node, "GET", "/api/v1/me", undefined, token);

    // B looks the session up (and caches it for `sessionCacheMs`, 3 s); then A switches it to
    // demo. B answers with the new mode well before its cache entry would have ended.
    expect((await me(b!)).json.data.mode).toBe("real");
    const switched = await call(a!, "PUT", "/api/v1/me/mode", { mode: "demo" }, token);
    expect(switched.status, JSON.stringify(switched.json)).toBe(200);
    const switchedAt = Date.now();
    await until(async () => (await me(b!)).json.data?.mode === "demo", "demo on B", 1_500);
    const switchSeenMs = Date.now() - switchedAt;
    expect(switchSeenMs).toBeLessThan(1_500);

    // A private stream on B and one on the leader, both signed in by this session; B has the
    // session cached. The user signs out through A.
    const streamB = await wsClient(b!.url, [{ channel: "balances" }], token);
    const streamLeader = await wsClient(leader.url, [{ channel: "balances" }], token);
    sockets.push(streamB.socket, streamLeader.socket);
    expect((await me(b!)).status).toBe(200);
    const logout = await call(a!, "POST", "/api/v1/auth/logout", {}, token);
    expect(logout.status, JSON.stringify(logout.json)).toBe(200);
    const loggedOutAt = Date.now();
    // B and the leader close the streams with "session ended" (4003) and refuse the token.
    await until(() => streamB.closed && streamLeader.closed, "streams closed", 1_500);
    const closedMs = Date.now() - loggedOutAt;
    expect(streamB.closeCode).toBe(wsCloseCodes.sessionEnded);
    expect(streamLeader.closeCode).toBe(wsCloseCodes.sessionEnded);
    const refused = await me(b!);
    const refusedMs = Date.now() - loggedOutAt;
    expect(refused.status).toBe(401);
    expect(closedMs).toBeLessThan(1_500);
    expect(refusedMs).toBeLessThan(1_500);
    // A, where the sign-out was made, refuses it too; and so does the leader.
    expect((await me(a!)).status).toBe(401);
    expect((await me(leader)).status).toBe(401);
    console.log(
      `session bus: mode switch seen on B after ${switchSeenMs} ms, streams closed after ${closedMs} ms, token refused on B after ${refusedMs} ms`,
    );
  }, 30_000);

  // Last: a named operator retires the bootstrap token the first test used.
  it("closes an operator's support desk on every node when the operator signs out through A", async () => {
    const { a, b } = started;
    expect(a && b, "the first test started the nodes").toBeTruthy();
    const leader = processes[0]!;
    const email = `desk-${suffix}@example.com`;
    const password = "desk operator password";
    const bootstrap = await call(
      a!,
      "POST",
      "/api/v1/operator/bootstrap",
      { email, displayName: "Desk", password },
      operatorToken,
    );
    expect(bootstrap.status, JSON.stringify(bootstrap.json)).toBe(200);
    const secret: string = bootstrap.json.data.totpSecret;
    const confirmed = await call(a!, "POST", "/api/v1/operator/totp/confirm", {
      email,
      password,
      code: totpCode(secret, Date.now()),
    });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    const signedIn = await call(a!, "POST", "/api/v1/operator/sign-in", {
      email,
      password,
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(signedIn.status, JSON.stringify(signedIn.json)).toBe(200);
    const token: string = signedIn.json.data.token;

    // The operator's support desk open on B and on the leader; the sign-out goes through A.
    const deskB = await wsClient(b!.url, [{ channel: "support_operator", token }]);
    const deskLeader = await wsClient(leader.url, [{ channel: "support_operator", token }]);
    sockets.push(deskB.socket, deskLeader.socket);
    for (const desk of [deskB, deskLeader]) {
      expect(desk.messages.map((m) => m.type)).toContain("subscribed");
    }
    const signedOut = await call(a!, "POST", "/api/v1/operator/sign-out", undefined, token);
    expect(signedOut.status, JSON.stringify(signedOut.json)).toBe(200);
    const signedOutAt = Date.now();
    await until(() => deskB.closed && deskLeader.closed, "desks closed", 1_500);
    const closedMs = Date.now() - signedOutAt;
    expect(deskB.closeCode).toBe(wsCloseCodes.sessionEnded);
    expect(deskLeader.closeCode).toBe(wsCloseCodes.sessionEnded);
    // Operator sessions are looked up in the database on every request: refused everywhere.
    for (const node of [a!, b!, leader]) {
      expect((await call(node, "GET", "/api/v1/operator/me", undefined, token)).status).toBe(401);
    }
    console.log(`session bus: operator desk streams closed after ${closedMs} ms`);
  }, 30_000);
});
