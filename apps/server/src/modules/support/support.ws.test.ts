import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../../app.ts";
import { operatorSessionMs } from "../auth/operator-accounts.ts";
import { totpCode } from "../auth/totp.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { createMarketModule } from "../market/market.module.ts";
import { MemoryTapeSink } from "../market/tape-sink.ts";

// The support chat live on the WebSocket with real `ws` clients: the user's and a visitor's
// `support` stream carry only their own conversation, `support_operator` carries all of them,
// and each channel refuses a connection that may not have it.

interface Frame {
  type: string;
  stream?: string;
  error?: string;
  data?: { conversationId?: string; side?: string; text?: string | null };
}

describeEachDatabase("support chat on the WebSocket", (database) => {
  const operatorToken = "support-ws-operator-token";
  let app: FastifyInstance;
  let market: Awaited<ReturnType<typeof createMarketModule>>;
  let wsUrl = "";
  const sockets: WebSocket[] = [];
  let userA = { token: "", id: "" };
  let userB = { token: "", id: "" };

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
      operatorToken,
    });
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    wsUrl = `${origin.replace("http", "ws")}/api/v1/ws`;
    for (const [index, phone] of ["+4915100002311", "+4915100002312"].entries()) {
      const response = await registerByPhone(app, phone, operatorToken);
      expect(response.statusCode, response.body).toBe(200);
      const user = { token: response.json().data.token, id: response.json().data.user.id };
      if (index === 0) userA = user;
      else userB = user;
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await app.close();
  });

  /** A socket that keeps every frame; `next` waits for the first frame matching a test. */
  const connect = async (headers: Record<string, string> = {}) => {
    const socket = new WebSocket(wsUrl, { headers });
    sockets.push(socket);
    const frames: Frame[] = [];
    const waiters: { test: (f: Frame) => boolean; done: (f: Frame) => void }[] = [];
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      frames.push(frame);
      for (const waiter of [...waiters]) {
        if (waiter.test(frame)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.done(frame);
        }
      }
    });
    await new Promise((resolve) => socket.once("open", resolve));
    const next = (test: (f: Frame) => boolean, timeoutMs = 5_000) =>
      new Promise<Frame>((resolve, reject) => {
        const seen = frames.find(test);
        if (seen) {
          frames.splice(frames.indexOf(seen), 1);
          resolve(seen);
          return;
        }
        const timer = setTimeout(() => reject(new Error("no such frame")), timeoutMs);
        waiters.push({
          test,
          done: (frame) => {
            clearTimeout(timer);
            frames.splice(frames.indexOf(frame), 1);
            resolve(frame);
          },
        });
      });
    const subscribe = async (channel: object) => {
      const requestId = crypto.randomUUID();
      socket.send(JSON.stringify({ op: "subscribe", requestId, channels: [channel] }));
      return next((f) => (f.type === "subscribed" || f.type === "error") && "requestId" in f);
    };
    return { socket, frames, next, subscribe };
  };

  const inject = (method: "GET" | "POST", url: string, headers: object, payload?: object) =>
    app.inject({ method, url, headers: headers as Record<string, string>, payload });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const message = (text: string) => ({ text, clientMessageId: crypto.randomUUID() });

  it("refuses the support channels to connections that may not have them", async () => {
    const anonymous = await connect();
    expect((await anonymous.subscribe({ channel: "support" })).error).toBe("unauthorized");
    expect((await anonymous.subscribe({ channel: "support", token: "0".repeat(64) })).error).toBe(
      "unauthorized",
    );
    expect(
      (await anonymous.subscribe({ channel: "support_operator", token: userA.token })).error,
    ).toBe("unauthorized");
    // Without a token the channel does not even parse.
    anonymous.socket.send(
      JSON.stringify({ op: "subscribe", channels: [{ channel: "support_operator" }] }),
    );
    expect((await anonymous.next((f) => f.type === "error")).error).toBe("bad_message");
  });

  it("carries each message live to its own user and to the operators, not to others", async () => {
    const a = await connect(bearer(userA.token));
    const b = await connect(bearer(userB.token));
    const desk = await connect();
    expect((await a.subscribe({ channel: "support" })).type).toBe("subscribed");
    expect((await b.subscribe({ channel: "support" })).type).toBe("subscribed");
    expect((await desk.subscribe({ channel: "support_operator", token: operatorToken })).type).toBe(
      "subscribed",
    );

    const sent = await inject(
      "POST",
      "/api/v1/support/messages",
      bearer(userA.token),
      message("Where is my order?"),
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const conversationId = sent.json().data.conversationId as string;
    const atDesk = await desk.next((f) => f.type === "support_message");
    expect(atDesk).toMatchObject({
      stream: "support_operator",
      data: { conversationId, side: "user", text: "Where is my order?" },
    });
    const own = await a.next((f) => f.type === "support_message");
    expect(own).toMatchObject({ stream: "support", data: { side: "user" } });

    const answer = await inject(
      "POST",
      `/api/v1/operator/support/conversations/${conversationId}/messages`,
      bearer(operatorToken),
      { ...message("It is filled."), reason: "answering the user" },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const live = await a.next((f) => f.type === "support_message" && f.data?.side === "operator");
    expect(live.data?.text).toBe("It is filled.");
    await desk.next((f) => f.type === "support_message" && f.data?.side === "operator");

    // The user reads it: the operators see the read mark.
    await inject("POST", "/api/v1/support/read", bearer(userA.token), {
      upToMessageId: answer.json().data.id,
    });
    const read = await desk.next((f) => f.type === "support_read");
    expect(read.data).toMatchObject({ conversationId, side: "user" });

    // Nothing of A's conversation reached B.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.frames.filter((f) => f.type.startsWith("support"))).toEqual([]);
  });

  it("gives a visitor its own conversation by token", async () => {
    const started = await inject("POST", "/api/v1/support/visitor", {}, { email: "v@example.com" });
    const { token, conversationId } = started.json().data;
    const visitor = await connect();
    expect((await visitor.subscribe({ channel: "support", token })).type).toBe("subscribed");
    const other = await connect(bearer(userB.token));
    await other.subscribe({ channel: "support" });

    const answer = await inject(
      "POST",
      `/api/v1/operator/support/conversations/${conversationId}/messages`,
      bearer(operatorToken),
      { ...message("Hello visitor"), reason: "answering a visitor" },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const live = await visitor.next((f) => f.type === "support_message");
    expect(live.data).toMatchObject({ conversationId, side: "operator", text: "Hello visitor" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.frames.filter((f) => f.type === "support_message")).toEqual([]);
  });

  // Last: once a named operator exists, the bootstrap token is retired everywhere.
  it("lets support and admin sessions watch every conversation, not finance", async () => {
    const password = "operator password 1";
    const enrolAndSignIn = async (email: string, secret: string) => {
      const confirmed = await inject(
        "POST",
        "/api/v1/operator/totp/confirm",
        {},
        {
          email,
          password,
          code: totpCode(secret, Date.now()),
        },
      );
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const signedIn = await inject(
        "POST",
        "/api/v1/operator/sign-in",
        {},
        {
          email,
          password,
          code: totpCode(secret, Date.now() + 30_000),
        },
      );
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      return signedIn.json().data.token as string;
    };
    const bootstrap = await inject("POST", "/api/v1/operator/bootstrap", bearer(operatorToken), {
      email: "admin@support-ws.test",
      displayName: "Admin",
      password,
    });
    expect(bootstrap.statusCode, bootstrap.body).toBe(200);
    const admin = await enrolAndSignIn("admin@support-ws.test", bootstrap.json().data.totpSecret);
    const tokens: Record<string, string> = { admin };
    for (const role of ["support", "finance"]) {
      const email = `${role}@support-ws.test`;
      const created = await inject("POST", "/api/v1/operator/accounts", bearer(admin), {
        email,
        displayName: role,
        password,
        role,
        reason: "support chat roles test",
      });
      expect(created.statusCode, created.body).toBe(200);
      tokens[role] = await enrolAndSignIn(email, created.json().data.totpSecret);
    }
    for (const [role, expected] of [
      ["admin", "subscribed"],
      ["support", "subscribed"],
      ["finance", "error"],
    ] as const) {
      const socket = await connect();
      const answer = await socket.subscribe({ channel: "support_operator", token: tokens[role] });
      expect(answer.type, role).toBe(expected);
    }
    // Signing out ends the desk's subscription at once.
    const desk = await connect();
    await desk.subscribe({ channel: "support_operator", token: tokens.support });
    const closed = new Promise<number>((resolve) => desk.socket.once("close", resolve));
    const signedOut = await inject("POST", "/api/v1/operator/sign-out", bearer(tokens.support!));
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    expect(await closed).toBe(4003);
    // The retired bootstrap token watches nothing any more.
    const retired = await connect();
    const answer = await retired.subscribe({ channel: "support_operator", token: operatorToken });
    expect(answer.error).toBe("unauthorized");

    // An admin disables an operator: their desk stream ends at once, their session is refused,
    // they cannot sign in again, and the audit log says who did it and why.
    const email = "desk2@support-ws.test";
    const created = await inject("POST", "/api/v1/operator/accounts", bearer(admin), {
      email,
      displayName: "Desk two",
      password,
      role: "support",
      reason: "second desk",
    });
    expect(created.statusCode, created.body).toBe(200);
    const desk2Id = created.json().data.operator.id as string;
    const desk2 = await enrolAndSignIn(email, created.json().data.totpSecret);
    const watching = await connect();
    expect((await watching.subscribe({ channel: "support_operator", token: desk2 })).type).toBe(
      "subscribed",
    );
    const ended = new Promise<number>((resolve) => watching.socket.once("close", resolve));
    const disable = (token: string, id: string, payload: object) =>
      inject("POST", `/api/v1/operator/accounts/${id}/disable`, bearer(token), payload);
    // Not theirs to do, not themselves, not nobody, not without a reason, not a malformed id.
    expect((await disable(desk2, desk2Id, { reason: "leaving" })).statusCode).toBe(403);
    expect((await disable(tokens.finance!, desk2Id, { reason: "leaving" })).statusCode).toBe(403);
    const self = await disable(admin, bootstrap.json().data.operator.id, { reason: "oops" });
    expect([self.statusCode, self.json().error]).toEqual([409, "operator_disable_self"]);
    const nobody = await disable(admin, "999999", { reason: "leaving" });
    expect([nobody.statusCode, nobody.json().error]).toEqual([404, "operator_not_found"]);
    expect((await disable(admin, desk2Id, {})).statusCode).toBe(400);
    expect((await disable(admin, "-1", { reason: "leaving" })).statusCode).toBe(400);
    expect((await disable(admin, desk2Id, { reason: "x".repeat(3_000) })).statusCode).toBe(413);
    const german = await inject(
      "POST",
      `/api/v1/operator/accounts/${bootstrap.json().data.operator.id}/disable`,
      { ...bearer(admin), "x-lang": "de" },
      { reason: "oops" },
    );
    expect(german.json().message).toBe(
      "Sie können Ihr eigenes Konto nicht deaktivieren; bitten Sie einen anderen Administrator",
    );
    const disabled = await disable(admin, desk2Id, { reason: "left the company" });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data).toMatchObject({
      operator: { id: desk2Id, disabled: true },
      sessionsEnded: 1,
    });
    expect(await ended).toBe(4003);
    expect((await inject("GET", "/api/v1/operator/me", bearer(desk2))).statusCode).toBe(401);
    const again = await inject(
      "POST",
      "/api/v1/operator/sign-in",
      {},
      { email, password, code: totpCode(created.json().data.totpSecret, Date.now() + 60_000) },
    );
    expect(again.json().error).toBe("invalid_credentials");
    const listed = await inject("GET", "/api/v1/operator/accounts", bearer(admin));
    expect(
      listed.json().data.operators.find((o: { id: string }) => o.id === desk2Id).disabled,
    ).toBe(true);
    const audit = await inject("GET", "/api/v1/operator/audit?limit=5", bearer(admin));
    expect(audit.json().data.entries[0]).toMatchObject({
      action: "POST /api/v1/operator/accounts/:operatorId/disable",
      reason: "left the company",
      detail: JSON.stringify({ operatorId: desk2Id }),
    });

    // A desk stream ends with its session's expiry (8 hours), like a signed-out one.
    const late = await connect();
    expect((await late.subscribe({ channel: "support_operator", token: admin })).type).toBe(
      "subscribed",
    );
    const expired = new Promise<number>((resolve) => late.socket.once("close", resolve));
    market.hub.sweep(Date.now() + operatorSessionMs + 60_000);
    expect(await expired).toBe(4003);
  });
});
