import { wsCloseCodes } from "@candor/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../../app.ts";
import { sessionLifetimeMs } from "../auth/sessions.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { createMarketModule } from "./market.module.ts";
import { MemoryTapeSink } from "./tape-sink.ts";
import { allowedOrigins } from "./ws-endpoint.ts";

describe("allowedOrigins", () => {
  it("is the public origin only when one is configured", () => {
    expect([...allowedOrigins("https://trade.example.com/app/", 8080)]).toEqual([
      "https://trade.example.com",
    ]);
  });
  it("is the loopback origins of the port otherwise", () => {
    const origins = allowedOrigins(undefined, 8080);
    expect(origins.has("http://127.0.0.1:8080")).toBe(true);
    expect(origins.has("http://localhost:8080")).toBe(true);
    expect(origins.has("http://localhost:8081")).toBe(false);
    expect(origins.has("http://evil.example")).toBe(false);
    expect(origins.has("null")).toBe(false);
  });
});

describeEachDatabase("WebSocket endpoint security", (database) => {
  let app: FastifyInstance;
  let wsUrl = "";
  let httpOrigin = "";
  let phones = 0;
  let market: Awaited<ReturnType<typeof createMarketModule>>;

  beforeAll(async () => {
    market = await createMarketModule({
      database: database(),
      now: Date.now,
      backfillDays: 1,
      tape: new MemoryTapeSink(),
    });
    app = await buildApp({
      database: database(),
      market,
      captcha: "off",
      passwordCost: 10,
      operatorToken: "ws-operator-token",
    });
    httpOrigin = await app.listen({ port: 0, host: "127.0.0.1" });
    wsUrl = `${httpOrigin.replace("http", "ws")}/api/v1/ws`;
  });
  afterAll(() => app.close());

  const register = async () => {
    const response = await registerByPhone(
      app,
      `+4915180${String(++phones).padStart(6, "0")}`,
      "ws-operator-token",
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.token as string;
  };
  const login = async (account: string) => {
    const response = await app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { account, password: "trade1234" },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.token as string;
  };

  /** Opens a socket; resolves with it, or with the HTTP status that refused the upgrade. */
  const open = (headers: Record<string, string> = {}) =>
    new Promise<{ socket?: WebSocket; status?: number; closed: Promise<number> }>((resolve) => {
      const socket = new WebSocket(wsUrl, { headers });
      const closed = new Promise<number>((done) => socket.once("close", (code) => done(code)));
      socket.once("open", () => resolve({ socket, closed }));
      socket.once("unexpected-response", (_request, response) =>
        resolve({ status: response.statusCode, closed }),
      );
      socket.once("error", () => {});
    });

  /** A socket signed in by a bearer token and subscribed to the private order stream. */
  const privateStream = async (token: string) => {
    const opened = await open({ authorization: `Bearer ${token}`, origin: httpOrigin });
    const socket = opened.socket!;
    const subscribed = new Promise<void>((done) =>
      socket.on("message", (data) => {
        if (JSON.parse(data.toString()).type === "subscribed") done();
      }),
    );
    socket.send(JSON.stringify({ op: "subscribe", channels: [{ channel: "orders" }] }));
    await subscribed;
    return { socket, closed: opened.closed };
  };

  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise,
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms)),
    ]);

  // Regression, issue 14 item 6: logout left private streams running.
  it("logout ends that session's private streams at once with 4003, not other sessions'", async () => {
    const token = await register();
    const account = `+4915180${String(phones).padStart(6, "0")}`;
    const other = await login(account);
    const mine = await privateStream(token);
    const theirs = await privateStream(other);
    const logout = await app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(logout.statusCode, logout.body).toBe(200);
    expect(await within(mine.closed, 2_000)).toBe(wsCloseCodes.sessionEnded);
    expect(await within(theirs.closed, 200)).toBe("timeout");
    theirs.socket.close();
  });

  it("a password change ends every private stream of the user", async () => {
    const token = await register();
    const account = `+4915180${String(phones).padStart(6, "0")}`;
    const other = await login(account);
    const first = await privateStream(token);
    const second = await privateStream(other);
    const changed = await app.inject({
      method: "POST",
      url: "/api/v1/me/password",
      headers: { authorization: `Bearer ${token}` },
      payload: {
        currentPassword: "trade1234",
        password: "trade5678",
        passwordConfirm: "trade5678",
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await within(first.closed, 2_000)).toBe(wsCloseCodes.sessionEnded);
    expect(await within(second.closed, 2_000)).toBe(wsCloseCodes.sessionEnded);
  });

  // Regression, issue 14 item 7: cookie-authenticated upgrades accepted a foreign Origin.
  it("refuses an upgrade from a foreign Origin and accepts the server's own or none", async () => {
    const token = await register();
    const cookie = `candor_session=${token}`;
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1:1"]) {
      expect((await open({ cookie, origin })).status, origin).toBe(403);
    }
    for (const headers of [{ cookie, origin: httpOrigin }, { cookie }] as Record<
      string,
      string
    >[]) {
      const opened = await open(headers);
      expect(opened.socket, JSON.stringify(headers)).toBeDefined();
      opened.socket!.close();
    }
  });

  it("links public trades by sequence, so a client can tell a dropped one", async () => {
    const opened = await open({ origin: httpOrigin });
    const socket = opened.socket!;
    const trades: { sequence: number; previousSequence: number | null; data: { id: string } }[] =
      [];
    const subscribed = new Promise<void>((done) =>
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString());
        if (message.type === "subscribed") done();
        if (message.type === "trade") trades.push(message);
      }),
    );
    socket.send(
      JSON.stringify({
        op: "subscribe",
        channels: [{ channel: "trades", instrumentId: "BTCUSDT" }],
      }),
    );
    await subscribed;
    const fromMs = Date.now();
    for (let i = 1; i <= 6; i++) market.service.step(fromMs + i * 1_000);
    for (let wait = 0; trades.length < 5 && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.close();
    expect(trades.length).toBeGreaterThanOrEqual(5);
    // Each trade names the one before it; without a journal the sequence counts the prints.
    for (let i = 1; i < trades.length; i++) {
      expect(trades[i]!.previousSequence).toBe(trades[i - 1]!.sequence);
      expect(trades[i]!.sequence).toBe(trades[i - 1]!.sequence + 1);
    }
    // The REST list has the same prints (by id), so a client can refetch after a gap.
    const rest = await app.inject({ url: "/api/v1/market/instruments/BTCUSDT/trades?limit=200" });
    const restIds = (rest.json().data as { id: string }[]).map((t) => t.id);
    for (const trade of trades) expect(restIds).toContain(trade.data.id);
    // A client that missed one message sees the broken link.
    const received = [...trades.slice(0, 2), ...trades.slice(3)];
    const gaps = received
      .slice(1)
      .filter((trade, i) => trade.previousSequence !== received[i]!.sequence);
    expect(gaps.map((t) => t.sequence)).toEqual([trades[3]!.sequence]);
  });

  it("caps open connections per address and frees a slot when one closes", async () => {
    const sockets: WebSocket[] = [];
    for (let i = 0; i < 20; i++) {
      const opened = await open({ origin: httpOrigin });
      expect(opened.socket, `connection ${i}`).toBeDefined();
      sockets.push(opened.socket!);
    }
    expect((await open({ origin: httpOrigin })).status).toBe(429);
    const first = sockets.shift()!;
    const gone = new Promise((done) => first.once("close", done));
    first.close();
    await gone;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open({ origin: httpOrigin });
    expect(again.socket).toBeDefined();
    sockets.push(again.socket!);
    for (const socket of sockets) socket.close();
  });

  // Last in this file: the sweep below runs at a time days ahead, which ends every connection.
  it("ends a private stream with 4003 when its session expires", async () => {
    const token = await register();
    const stream = await privateStream(token);
    market.hub.sweep(Date.now() + 1_000);
    expect(await within(stream.closed, 200)).toBe("timeout");
    market.hub.sweep(Date.now() + sessionLifetimeMs + 60_000);
    expect(await within(stream.closed, 2_000)).toBe(wsCloseCodes.sessionEnded);
  });
});
