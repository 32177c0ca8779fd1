import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { multipart } from "../../testing/multipart.ts";
import { startSmtpSink } from "../../testing/smtp-sink.ts";
import { routeTest } from "../../testing/route-test.ts";

// The support chat over HTTP: a user's conversation, a signed-out visitor's (answers e-mailed by
// a real SMTP exchange on loopback), the operators' list with unread counts and the user's
// context, images through the uploads pipeline, and every refusal: malformed, oversized,
// negative, over-precise, unauthorised, another user's conversation.

describeEachDatabase("support chat routes", (database) => {
  const nowMs = Date.parse("2026-11-27T10:00:00Z");
  const kit = routeTest("10.23.0", "support-operator-token");
  const { users, call, operator } = kit;
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-support-"));
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let jpeg: Buffer;

  const as = (user: string) => ({ authorization: `Bearer ${users[user]!.token}` });
  const send = (user: string, payload: object) =>
    call("POST", "/api/v1/support/messages", { headers: as(user), payload });
  const text = (words: string) => ({ text: words, clientMessageId: crypto.randomUUID() });
  const upload = async (user: string, purpose: string) => {
    const body = multipart(jpeg, { fileName: "screen.jpg" });
    const response = await kit.app.inject({
      method: "POST",
      url: `/api/v1/uploads?purpose=${purpose}`,
      remoteAddress: `10.23.1.${kit.nextIp()}`,
      headers: { ...as(user), ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.upload.uploadId as string;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    jpeg = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } },
    })
      .jpeg()
      .toBuffer();
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      uploads: { dir: uploadsDir },
      smtpUrl: smtp.url,
      mailFrom: "Candor <no-reply@candor.test>",
    });
    await kit.signUp("a", "+4915100002301");
    await kit.signUp("b", "+4915100002302");
    await kit.depositEach([["a", "USDT", "125.5"]]);
  });
  afterAll(async () => {
    await kit.close();
    await smtp.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("starts empty, keeps the user's messages and counts the operator's answers as unread", async () => {
    const empty = await call("GET", "/api/v1/support/messages", { headers: as("a") });
    expect(empty.json().data).toEqual({
      conversationId: null,
      messages: [],
      unread: 0,
      more: false,
    });
    expect((await call("GET", "/api/v1/support/unread", { headers: as("a") })).json().data).toEqual(
      { unread: 0 },
    );

    const first = text("My deposit is not shown");
    const sent = await send("a", first);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({
      side: "user",
      text: "My deposit is not shown",
      image: null,
      clientMessageId: first.clientMessageId,
      sentAtMs: nowMs,
    });
    // The same client id again is the same message, not a second one.
    const again = await send("a", first);
    expect(again.json().data.id).toBe(sent.json().data.id);
    const conversationId = sent.json().data.conversationId as string;

    const list = await call("GET", "/api/v1/operator/support/conversations", { headers: operator });
    expect(list.statusCode, list.body).toBe(200);
    const item = list
      .json()
      .data.items.find((i: { conversationId: string }) => i.conversationId === conversationId);
    expect(item).toMatchObject({ unread: 1, party: { userId: users.a!.id } });
    expect(item.last.text).toBe("My deposit is not shown");
    expect(list.json().data.unreadConversations).toBeGreaterThanOrEqual(1);

    const detailUrl = `/api/v1/operator/support/conversations/${conversationId}`;
    // The deposit reaches the read model with the projector's next flush, which may come after
    // this request on a loaded machine.
    await expect
      .poll(
        async () =>
          (await call("GET", detailUrl, { headers: operator })).json().data.context.recentDeposits
            .length,
        { timeout: 10_000 },
      )
      .toBe(1);
    const detail = await call("GET", detailUrl, { headers: operator });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.context).toEqual({
      mode: "real",
      verification: "unverified",
      frozen: false,
      recentDeposits: [{ assetId: "USDT", amount: "125.5", atMs: expect.any(Number) }],
    });
    expect(detail.json().data.messages).toHaveLength(1);

    const read = await call(
      "POST",
      `/api/v1/operator/support/conversations/${conversationId}/read`,
      { headers: operator, payload: { upToMessageId: sent.json().data.id } },
    );
    expect(read.json().data).toEqual({ unread: 0 });

    const answer = await call(
      "POST",
      `/api/v1/operator/support/conversations/${conversationId}/messages`,
      { headers: operator, payload: text("We credited it a minute ago.") },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.side).toBe("operator");
    expect((await call("GET", "/api/v1/support/unread", { headers: as("a") })).json().data).toEqual(
      { unread: 1 },
    );
    const mine = await call("GET", "/api/v1/support/messages", { headers: as("a") });
    expect(mine.json().data.messages.map((m: { side: string }) => m.side)).toEqual([
      "user",
      "operator",
    ]);
    const markRead = await call("POST", "/api/v1/support/read", {
      headers: as("a"),
      payload: { upToMessageId: answer.json().data.id },
    });
    expect(markRead.json().data).toEqual({ unread: 0 });
    // A signed-in user's answer is not e-mailed: they read it in the app.
    expect(smtp.mails).toHaveLength(0);
  });

  it("attaches the user's own support image and shows it to support, nothing else", async () => {
    const image = await upload("a", "support_image");
    const sent = await send("a", { uploadId: image, clientMessageId: crypto.randomUUID() });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ text: null, image: { uploadId: image, width: 40 } });
    const shown = await call("GET", `/api/v1/operator/support/uploads/${image}`, {
      headers: operator,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/jpeg");
    expect(shown.headers["cache-control"]).toBe("private, no-store");

    // Another user's image, or an upload of another purpose, is not found.
    const theirs = await upload("b", "support_image");
    const stolen = await send("a", { uploadId: theirs, clientMessageId: crypto.randomUUID() });
    expect(stolen.json().error).toBe("upload_not_found");
    const document = await upload("a", "identity_document");
    const wrong = await send("a", { uploadId: document, clientMessageId: crypto.randomUUID() });
    expect(wrong.json().error).toBe("upload_not_found");
    // Support cannot fetch an upload that is not attached to a support message.
    for (const id of [document, theirs]) {
      const refused = await call("GET", `/api/v1/operator/support/uploads/${id}`, {
        headers: operator,
      });
      expect(refused.json().error).toBe("upload_not_found");
    }
  });

  it("pages back through the history with beforeId", async () => {
    const newest = await call("GET", "/api/v1/support/messages?limit=1", { headers: as("a") });
    expect(newest.json().data).toMatchObject({ more: true });
    expect(newest.json().data.messages).toHaveLength(1);
    const all = (await call("GET", "/api/v1/support/messages", { headers: as("a") })).json().data;
    const before = newest.json().data.messages[0].id as string;
    const older = await call("GET", `/api/v1/support/messages?limit=100&beforeId=${before}`, {
      headers: as("a"),
    });
    expect(older.json().data.more).toBe(false);
    expect(older.json().data.messages.map((m: { id: string }) => m.id)).toEqual(
      all.messages.slice(0, -1).map((m: { id: string }) => m.id),
    );
  });

  it("shows a demo user's conversation to support with the demo mode", async () => {
    const demo = await kit.signInDemo("demo");
    const sent = await call("POST", "/api/v1/support/messages", {
      token: demo.token,
      payload: text("How do I switch to real money?"),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const detail = await call(
      "GET",
      `/api/v1/operator/support/conversations/${sent.json().data.conversationId}`,
      { headers: operator },
    );
    expect(detail.json().data.context).toMatchObject({ mode: "demo", recentDeposits: [] });
  });

  it("never shows or marks another user's conversation", async () => {
    const theirs = await call("GET", "/api/v1/support/messages", { headers: as("b") });
    expect(theirs.json().data.messages).toEqual([]);
    const mineList = await call("GET", "/api/v1/support/messages", { headers: as("a") });
    const aMessage = mineList.json().data.messages[0].id as string;
    const refused = await call("POST", "/api/v1/support/read", {
      headers: as("b"),
      payload: { upToMessageId: aMessage },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe("not_found");
    // b's own conversation starts separately.
    const own = await send("b", text("Hello"));
    expect(own.json().data.conversationId).not.toBe(mineList.json().data.conversationId);
    const refusedAgain = await call("POST", "/api/v1/support/read", {
      headers: as("b"),
      payload: { upToMessageId: aMessage },
    });
    expect(refusedAgain.statusCode).toBe(404);
  });

  it("lets a visitor write with an e-mail and e-mails the operator's answer over SMTP", async () => {
    const started = await call("POST", "/api/v1/support/visitor", {
      lang: "de",
      payload: { email: "Visitor@Example.com" },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { token, conversationId } = started.json().data;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const visitor = { "x-support-token": token };
    const sent = await call("POST", "/api/v1/support/visitor/messages", {
      headers: visitor,
      payload: text("I cannot sign in"),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = await call(
      "POST",
      `/api/v1/operator/support/conversations/${conversationId}/messages`,
      { headers: operator, payload: text("Please reset your password from the sign-in page.") },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(["visitor@example.com"]);
    expect(smtp.mails[0]!.raw).toContain("Please reset your password from the sign-in page.");
    expect(smtp.mails[0]!.raw).toMatch(/Candor-Support/);

    const listed = await call("GET", "/api/v1/support/visitor/messages", { headers: visitor });
    expect(listed.json().data).toMatchObject({ conversationId, unread: 1 });
    const unreadBefore = await call("GET", "/api/v1/operator/support/conversations", {
      headers: operator,
    });
    expect(
      unreadBefore
        .json()
        .data.items.find((i: { conversationId: string }) => i.conversationId === conversationId)
        .party,
    ).toEqual({ userId: null, email: "visitor@example.com", nickname: null });
    const read = await call("POST", "/api/v1/support/visitor/read", {
      headers: visitor,
      payload: { upToMessageId: answer.json().data.id },
    });
    expect(read.json().data).toEqual({ unread: 0 });
    const detail = await call("GET", `/api/v1/operator/support/conversations/${conversationId}`, {
      headers: operator,
    });
    expect(detail.json().data.context).toBeNull();

    // Images are for signed-in users; a visitor cannot send one.
    const image = await call("POST", "/api/v1/support/visitor/messages", {
      headers: visitor,
      payload: { uploadId: "a".repeat(32), clientMessageId: crypto.randomUUID() },
    });
    expect(image.statusCode).toBe(400);
  });

  it("refuses visitor calls without a valid token", async () => {
    for (const headers of [
      {},
      { "x-support-token": "nonsense" },
      { "x-support-token": "0".repeat(64) },
    ]) {
      // The token names the conversation: without a known one there is none.
      const listed = await call("GET", "/api/v1/support/visitor/messages", { headers });
      expect(listed.statusCode).toBe(404);
      const sent = await call("POST", "/api/v1/support/visitor/messages", {
        headers,
        payload: text("hi"),
      });
      expect(sent.statusCode).toBe(404);
      expect(sent.json().error).toBe("not_found");
    }
  });

  it("refuses signed-out and non-operator calls", async () => {
    expect((await call("GET", "/api/v1/support/unread")).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/v1/support/messages", { payload: text("x") })).statusCode,
    ).toBe(401);
    const asUser = await call("GET", "/api/v1/operator/support/conversations", {
      headers: as("a"),
    });
    expect(asUser.statusCode).toBe(401);
  });

  it.each([
    ["no text and no image", {}],
    ["empty text", { text: "", clientMessageId: crypto.randomUUID() }],
    ["blank text", { text: "   ", clientMessageId: crypto.randomUUID() }],
    ["text over 2,000", { text: "x".repeat(2001), clientMessageId: crypto.randomUUID() }],
    ["no client id", { text: "hi" }],
    ["bad client id", { text: "hi", clientMessageId: "not-a-uuid" }],
    ["text not a string", { text: 5, clientMessageId: crypto.randomUUID() }],
    ["bad upload id", { uploadId: "../../etc/passwd", clientMessageId: crypto.randomUUID() }],
    ["unknown field", { text: "hi", clientMessageId: crypto.randomUUID(), extra: 1 }],
  ])("rejects a message: %s, with a localised 400", async (_, payload) => {
    const response = await call("POST", "/api/v1/support/messages", {
      headers: as("a"),
      lang: "fr",
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("validation_failed");
    expect(response.json().message).not.toBe("Validation failed");
  });

  it("refuses a body over the size limit", async () => {
    const response = await call("POST", "/api/v1/support/messages", {
      headers: as("a"),
      payload: { text: "x".repeat(20_000), clientMessageId: crypto.randomUUID() },
    });
    expect(response.statusCode).toBe(413);
  });

  it.each([
    ["/api/v1/support/messages?limit=0", "zero limit"],
    ["/api/v1/support/messages?limit=101", "oversized limit"],
    ["/api/v1/support/messages?limit=-1", "negative limit"],
    ["/api/v1/support/messages?limit=1.5", "over-precise limit"],
    ["/api/v1/support/messages?beforeId=-3", "negative id"],
    ["/api/v1/support/messages?beforeId=1.0", "over-precise id"],
    [`/api/v1/support/messages?beforeId=${"9".repeat(40)}`, "oversized id"],
  ])("rejects %s (%s)", async (url) => {
    const response = await call("GET", url, { headers: as("a") });
    expect(response.statusCode).toBe(400);
  });

  it("rejects malformed, negative and unknown ids of read marks and operator paths", async () => {
    for (const upToMessageId of ["0", "-1", "1.5", "x", "9".repeat(40)]) {
      const response = await call("POST", "/api/v1/support/read", {
        headers: as("a"),
        payload: { upToMessageId },
      });
      expect(response.statusCode, upToMessageId).toBe(400);
    }
    for (const id of ["0", "-1", "1.0", "abc"]) {
      const response = await call("GET", `/api/v1/operator/support/conversations/${id}`, {
        headers: operator,
      });
      expect(response.statusCode, id).toBe(400);
    }
    const missing = await call("GET", "/api/v1/operator/support/conversations/999999", {
      headers: operator,
    });
    expect(missing.statusCode).toBe(404);
    const noReason = await call("POST", "/api/v1/operator/support/conversations/1/messages", {
      headers: operator,
      payload: { ...text("hi"), reason: "" },
    });
    expect(noReason.statusCode).toBe(400);
    const badEmail = await call("POST", "/api/v1/support/visitor", {
      payload: { email: "not-an-email" },
    });
    expect(badEmail.statusCode).toBe(400);
  });

  it("limits how fast one user sends", async () => {
    let limited = false;
    for (let i = 0; i < 25 && !limited; i += 1) {
      const response = await send("b", text(`message ${i}`));
      if (response.statusCode === 429) limited = true;
      else expect(response.statusCode, response.body).toBe(200);
    }
    expect(limited).toBe(true);
  });
});
