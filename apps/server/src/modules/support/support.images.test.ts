import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { multipart } from "../../testing/multipart.ts";
import { startSmtpSink } from "../../testing/smtp-sink.ts";
import { routeTest } from "../../testing/route-test.ts";
import { uploadContentSecurityPolicy } from "../uploads/uploads.service.ts";

// Images in support answers: the operator uploads one (purpose `support_image`, owned by the
// operator) and sends it; only the conversation's user or visitor and the operators can read it,
// a visitor's e-mail says an image is waiting, and every other upload stays out of reach.

describeEachDatabase("support chat images", (database) => {
  const nowMs = Date.parse("2026-11-29T10:00:00Z");
  const kit = routeTest("10.23.4", "support-images-operator-token");
  const { users, call, operator } = kit;
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-support-images-"));
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let jpeg: Buffer;

  const as = (user: string) => ({ authorization: `Bearer ${users[user]!.token}` });
  const text = (words: string) => ({ text: words, clientMessageId: crypto.randomUUID() });
  const upload = async (url: string, headers: Record<string, string>) => {
    const body = multipart(jpeg, { fileName: "answer.jpg" });
    return kit.app.inject({
      method: "POST",
      url,
      remoteAddress: `10.23.5.${kit.nextIp()}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const uploaded = async (url: string, headers: Record<string, string>) => {
    const response = await upload(url, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.upload.uploadId as string;
  };
  const operatorImage = () => uploaded("/api/v1/operator/uploads?purpose=support_image", operator);
  const answer = (conversationId: string, payload: object) =>
    call("POST", `/api/v1/operator/support/conversations/${conversationId}/messages`, {
      headers: operator,
      payload: { clientMessageId: crypto.randomUUID(), ...payload },
    });
  const messagesOf = async (conversationId: string) =>
    (
      await call("GET", `/api/v1/operator/support/conversations/${conversationId}`, {
        headers: operator,
      })
    ).json().data.messages as { text: string | null; image: { uploadId: string } | null }[];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    jpeg = await sharp({
      create: { width: 48, height: 32, channels: 3, background: { r: 20, g: 160, b: 60 } },
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
    await kit.signUp("a", "+4915100002401");
    await kit.signUp("b", "+4915100002402");
  }, 60_000);
  afterAll(async () => {
    await kit.close();
    await smtp.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("sends an operator's image to the user, who alone (with support) can read it", async () => {
    const opened = await call("POST", "/api/v1/support/messages", {
      headers: as("a"),
      payload: text("Where do I find the deposit address?"),
    });
    const conversationId = opened.json().data.conversationId as string;
    const image = await operatorImage();
    const sent = await answer(conversationId, {
      text: "Here, under Assets → Deposit.",
      uploadId: image,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({
      side: "operator",
      text: "Here, under Assets → Deposit.",
      image: { uploadId: image, width: 48, height: 32 },
    });
    const listed = await call("GET", "/api/v1/support/messages", { headers: as("a") });
    expect(listed.json().data.messages.at(-1)).toMatchObject({ image: { uploadId: image } });

    const shown = await call("GET", `/api/v1/support/images/${image}`, { headers: as("a") });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/jpeg");
    expect(shown.headers["cache-control"]).toBe("private, no-store");
    expect(shown.headers["content-security-policy"]).toBe(uploadContentSecurityPolicy);
    expect(shown.headers["x-content-type-options"]).toBe("nosniff");
    expect((await sharp(shown.rawPayload).metadata()).width).toBe(48);
    const forSupport = await call("GET", `/api/v1/operator/support/uploads/${image}`, {
      headers: operator,
    });
    expect(forSupport.statusCode).toBe(200);

    // The user's own image in the conversation is served by the same route.
    const own = await uploaded("/api/v1/uploads?purpose=support_image", as("a"));
    await call("POST", "/api/v1/support/messages", {
      headers: as("a"),
      payload: { uploadId: own, clientMessageId: crypto.randomUUID() },
    });
    expect(
      (await call("GET", `/api/v1/support/images/${own}`, { headers: as("a") })).statusCode,
    ).toBe(200);

    // Another user and a signed-out caller see nothing of it.
    for (const id of [image, own]) {
      const theirs = await call("GET", `/api/v1/support/images/${id}`, { headers: as("b") });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error).toBe("upload_not_found");
      expect((await call("GET", `/api/v1/support/images/${id}`)).statusCode).toBe(401);
    }
    // A signed-in user's answers are read in the app, not e-mailed.
    expect(smtp.mails).toHaveLength(0);
  });

  it("refuses an answer's image that is not the operator's own support image, storing nothing", async () => {
    const opened = await call("POST", "/api/v1/support/messages", {
      headers: as("b"),
      payload: text("Is my identity check done?"),
    });
    const conversationId = opened.json().data.conversationId as string;
    const before = await messagesOf(conversationId);
    const usersImage = await uploaded("/api/v1/uploads?purpose=support_image", as("b"));
    const banner = await uploaded("/api/v1/operator/uploads?purpose=banner_image", operator);
    for (const uploadId of [usersImage, banner, "0".repeat(32)]) {
      const refused = await answer(conversationId, { uploadId, reason: "answer" });
      expect(refused.statusCode, uploadId).toBe(404);
      expect(refused.json().error).toBe("upload_not_found");
    }
    for (const payload of [
      {},
      { text: "  " },
      { uploadId: "../../uploads/x" },
      { uploadId: "A".repeat(32) },
      { text: "hi", uploadId: 5 },
    ]) {
      const malformed = await call(
        "POST",
        `/api/v1/operator/support/conversations/${conversationId}/messages`,
        {
          headers: operator,
          lang: "de",
          payload: { clientMessageId: crypto.randomUUID(), ...payload },
        },
      );
      expect(malformed.statusCode, JSON.stringify(payload)).toBe(400);
      expect(malformed.json().error).toBe("validation_failed");
      expect(malformed.json().message).not.toBe("Validation failed");
    }
    expect(await messagesOf(conversationId)).toEqual(before);
    // The image of a refused answer was never attached: support's own route does not serve it.
    const unattached = await operatorImage();
    const refused = await call("GET", `/api/v1/operator/support/uploads/${unattached}`, {
      headers: operator,
    });
    expect(refused.json().error).toBe("upload_not_found");
  });

  it("e-mails a visitor that an image is waiting, and shows it only with their token", async () => {
    const started = await call("POST", "/api/v1/support/visitor", {
      payload: { email: "guest@example.com" },
    });
    const { token, conversationId } = started.json().data;
    const visitor = { "x-support-token": token as string };
    await call("POST", "/api/v1/support/visitor/messages", {
      headers: visitor,
      payload: text("What does the fee screen mean?"),
    });
    const image = await operatorImage();
    const sent = await answer(conversationId, { uploadId: image });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ text: null, image: { uploadId: image } });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.raw).toMatch(/The answer includes an image/);

    const url = `/api/v1/support/visitor/images/${image}`;
    const shown = await call("GET", url, { headers: visitor });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/jpeg");
    // Without the token there is no conversation; another visitor's has no such image.
    expect((await call("GET", url)).json().error).toBe("not_found");
    const other = await call("POST", "/api/v1/support/visitor", {
      payload: { email: "other@example.com" },
    });
    const elsewhere = await call("GET", url, {
      headers: { "x-support-token": other.json().data.token },
    });
    expect(elsewhere.json().error).toBe("upload_not_found");
    // A signed-in user's image route does not open a visitor's image either.
    expect(
      (await call("GET", `/api/v1/support/images/${image}`, { headers: as("a") })).statusCode,
    ).toBe(404);
  });

  it("refuses malformed image ids and uploads by anyone but an operator", async () => {
    for (const id of ["abc", "0".repeat(31), "../etc/passwd", "G".repeat(32)]) {
      const url = `/api/v1/support/images/${encodeURIComponent(id)}`;
      expect((await call("GET", url, { headers: as("a") })).statusCode, id).toBe(400);
    }
    const byUser = await upload("/api/v1/operator/uploads?purpose=support_image", as("a"));
    expect(byUser.statusCode).toBe(401);
    const anonymous = await upload("/api/v1/operator/uploads?purpose=support_image", {});
    expect(anonymous.statusCode).toBe(401);
    const otherPurpose = await upload("/api/v1/operator/uploads?purpose=avatar", operator);
    expect(otherPurpose.statusCode).toBe(400);
  });
});
