import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { totpCode } from "../auth/totp.ts";
import { multipart } from "../../testing/multipart.ts";

// Identity verification from the user's basic details to an operator's decision, the advanced
// tier's documents through the uploads pipeline, resubmission, and the withdrawal gate.

describeEachDatabase("identity verification", (database) => {
  const nowMs = Date.parse("2026-11-27T10:00:00Z");
  const kit = routeTest("10.4.0", "identity-operator-token");
  const { users, call, operator } = kit;
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-identity-"));
  let jpeg: Buffer;

  const as = (user: string) => ({ authorization: `Bearer ${users[user]!.token}` });
  const upload = async (user: string, purpose = "identity_document") => {
    const body = multipart(jpeg, { fileName: "id.jpg" });
    const response = await kit.app.inject({
      method: "POST",
      url: `/api/v1/uploads?purpose=${purpose}`,
      remoteAddress: `10.4.1.${kit.nextIp()}`,
      headers: { ...as(user), ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.upload.uploadId as string;
  };
  const basic = {
    country: "DE",
    realName: "Erika Mustermann",
    documentType: "id_card",
    documentNumber: "T22000129",
  };
  const withdraw = (user: string, totpCode?: string, amount = "20", language = "en") =>
    call("POST", "/api/v1/wallet/withdrawals", {
      headers: { ...as(user), "accept-language": language },
      payload: {
        requestId: crypto.randomUUID(),
        addressId: "1",
        asset: "USDT",
        amount,
        tradePassword: "trade1234",
        ...(totpCode === undefined ? {} : { totpCode }),
      },
    });

  beforeAll(async () => {
    jpeg = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 90, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      uploads: { dir: uploadsDir },
      withdrawRequiresIdentity: "basic",
      withdrawAdvancedAbove: { USDT: "50" },
    });
    await kit.signUp("a", "+4915100000071");
    await kit.signUp("b", "+4915100000072");
    await kit.signUp("c", "+4915100000073");
  });
  afterAll(async () => {
    await kit.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("goes unverified → under review → not approved with a reason → resubmitted → passed", async () => {
    const start = await call("GET", "/api/v1/me/identity", { headers: as("a") });
    expect(start.json().data).toEqual({ state: "unverified", passedTier: null, history: [] });
    // Withdrawals need the basic tier in this configuration.
    expect((await withdraw("a")).json().error).toBe("identity_verification_required");

    const submitted = await call("POST", "/api/v1/me/identity/basic", {
      headers: as("a"),
      payload: basic,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.state).toBe("under_review");
    expect(submitted.json().data.history[0]).toMatchObject({
      tier: "basic",
      realName: "Erika Mustermann",
      documentNumberMasked: "*****0129",
    });
    const me = await call("GET", "/api/v1/me", { headers: as("a") });
    expect(me.json().data.verification).toBe("under_review");
    // Under review: no second submission.
    const again = await call("POST", "/api/v1/me/identity/basic", {
      headers: as("a"),
      payload: basic,
    });
    expect(again.json().error).toBe("identity_under_review");

    const queue = await call("GET", "/api/v1/operator/identity?state=under_review", {
      headers: operator,
    });
    const item = queue.json().data.items.find((i: { userId: string }) => i.userId === users.a!.id);
    expect(item).toMatchObject({ documentNumber: "T22000129", state: "under_review" });

    const rejected = await call("POST", `/api/v1/operator/identity/${item.submissionId}/reject`, {
      headers: operator,
      payload: { reason: "other", text: "The photo is cut off" },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data.submission).toMatchObject({
      state: "not_approved",
      operatorId: "bootstrap",
      rejectReason: "other",
      rejectText: "The photo is cut off",
    });
    // Decided once.
    const twice = await call("POST", `/api/v1/operator/identity/${item.submissionId}/approve`, {
      headers: operator,
      payload: {},
    });
    expect(twice.json().error).toBe("identity_submission_decided");

    const seen = (await call("GET", "/api/v1/me/identity", { headers: as("a") })).json().data;
    expect(seen.state).toBe("not_approved");
    expect(seen.history[0]).toMatchObject({
      rejectReason: "other",
      rejectText: "The photo is cut off",
    });
    expect(JSON.stringify(seen)).not.toContain("T22000129");

    const resubmitted = await call("POST", "/api/v1/me/identity/basic", {
      headers: as("a"),
      payload: { ...basic, documentNumber: "T22000130" },
    });
    expect(resubmitted.json().data.state).toBe("under_review");
    const id = resubmitted.json().data.history[0].submissionId;
    const approved = await call("POST", `/api/v1/operator/identity/${id}/approve`, {
      headers: operator,
      payload: {},
    });
    expect(approved.json().data.submission).toMatchObject({
      state: "passed",
      operatorId: "bootstrap",
    });
    const after = (await call("GET", "/api/v1/me/identity", { headers: as("a") })).json().data;
    expect(after).toMatchObject({ state: "passed", passedTier: "basic" });
    expect(after.history).toHaveLength(2);
    expect((await call("GET", "/api/v1/me", { headers: as("a") })).json().data.verification).toBe(
      "passed",
    );
    // The gate opens: the request now fails further on, for its (made-up) address.
    expect((await withdraw("a")).json().error).toBe("withdraw_address_not_found");
    const already = await call("POST", "/api/v1/me/identity/basic", {
      headers: as("a"),
      payload: basic,
    });
    expect(already.json().error).toBe("identity_already_passed");

    // Above WITHDRAW_ADVANCED_ABOVE (USDT:50) the advanced tier is needed; at it, basic is enough.
    expect((await withdraw("a", undefined, "50")).json().error).toBe("withdraw_address_not_found");
    const large = await withdraw("a", undefined, "50.000001", "de");
    expect(large.statusCode).toBe(403);
    expect(large.json()).toMatchObject({
      error: "identity_advanced_required",
      message: expect.stringContaining("erweiterte Identitätsprüfung"),
    });
    // b has passed nothing: the basic rule below the amount, the advanced one above it.
    expect((await withdraw("b", undefined, "10")).json().error).toBe(
      "identity_verification_required",
    );
    expect((await withdraw("b", undefined, "1000")).json().error).toBe(
      "identity_advanced_required",
    );
  });

  it("takes the advanced tier's photos only from the user's own identity uploads", async () => {
    const front = await upload("a");
    const back = await upload("a");
    const selfie = await upload("a");
    const foreign = await upload("b");
    const proof = await upload("a", "bank_deposit_proof");
    for (const payload of [
      { frontUploadId: foreign, backUploadId: back },
      { frontUploadId: proof, backUploadId: back },
      { frontUploadId: front, backUploadId: front },
      { frontUploadId: front, backUploadId: "0".repeat(32) },
    ]) {
      const refused = await call("POST", "/api/v1/me/identity/advanced", {
        headers: as("a"),
        payload,
      });
      expect(refused.json().error, JSON.stringify(payload)).toBe("upload_not_found");
    }
    // b has not passed basic.
    const early = await call("POST", "/api/v1/me/identity/advanced", {
      headers: as("b"),
      payload: { frontUploadId: foreign, backUploadId: foreign },
    });
    expect(early.json().error).toBe("identity_basic_required");

    const submitted = await call("POST", "/api/v1/me/identity/advanced", {
      headers: as("a"),
      payload: { frontUploadId: front, backUploadId: back, selfieUploadId: selfie },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const id = submitted.json().data.history[0].submissionId;
    const detail = await call("GET", `/api/v1/operator/identity/${id}`, { headers: operator });
    expect(detail.json().data.submission).toMatchObject({
      tier: "advanced",
      frontUploadId: front,
      backUploadId: back,
      selfieUploadId: selfie,
    });
    expect(detail.json().data.history.length).toBeGreaterThanOrEqual(3);
    // The operator sees the documents; another user does not.
    const image = await call("GET", `/api/v1/operator/uploads/${front}`, { headers: operator });
    expect(image.statusCode).toBe(200);
    const peek = await call("GET", `/api/v1/uploads/${front}`, { headers: as("b") });
    expect(peek.statusCode).toBe(404);

    const rejected = await call("POST", `/api/v1/operator/identity/${id}/reject`, {
      headers: operator,
      payload: { reason: "selfie_mismatch" },
    });
    expect(rejected.json().data.submission.rejectReason).toBe("selfie_mismatch");
    const seen = (await call("GET", "/api/v1/me/identity", { headers: as("a") })).json().data;
    // The basic tier stays passed while the advanced one is refused.
    expect(seen).toMatchObject({ state: "not_approved", passedTier: "basic" });
  });

  it("lets the owner delete the photos of a decided submission, keeping the decision", async () => {
    const front = await upload("a");
    const back = await upload("a");
    const submitted = await call("POST", "/api/v1/me/identity/advanced", {
      headers: as("a"),
      payload: { frontUploadId: front, backUploadId: back },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const id: string = submitted.json().data.history[0].submissionId;
    const url = `/api/v1/me/identity/${id}/documents`;
    // Under review: the reviewer still needs them.
    expect((await call("DELETE", url, { headers: as("a") })).json().error).toBe(
      "identity_under_review",
    );
    const approved = await call("POST", `/api/v1/operator/identity/${id}/approve`, {
      headers: operator,
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(
      (await call("GET", `/api/v1/operator/uploads/${front}`, { headers: operator })).statusCode,
    ).toBe(200);

    // Another user, anonymous, a wrong token, an operator: not theirs to delete.
    expect((await call("DELETE", url, { headers: as("b") })).json().error).toBe(
      "identity_submission_not_found",
    );
    for (const headers of [{}, { authorization: "Bearer nope" }, operator]) {
      expect((await call("DELETE", url, { headers })).statusCode).toBe(401);
    }
    for (const bad of ["0", "abc", "1e5", "-1", "1".repeat(19)]) {
      const response = await call("DELETE", `/api/v1/me/identity/${bad}/documents`, {
        headers: as("a"),
      });
      expect(response.statusCode, bad).toBe(400);
    }
    expect(
      (await call("DELETE", "/api/v1/me/identity/999999/documents", { headers: as("a") })).json()
        .error,
    ).toBe("identity_submission_not_found");

    const deleted = await call("DELETE", url, { headers: as("a") });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const entry = deleted
      .json()
      .data.history.find((s: { submissionId: string }) => s.submissionId === id);
    expect(entry).toMatchObject({
      tier: "advanced",
      state: "passed",
      frontUploadId: null,
      backUploadId: null,
      documentsDeleted: true,
      decidedAtMs: nowMs,
    });
    expect(deleted.json().data.passedTier).toBe("advanced");
    // Advanced passed: large withdrawals pass the gate (and fail later, for the made-up address).
    expect((await withdraw("a", undefined, "1000")).json().error).toBe(
      "withdraw_address_not_found",
    );
    // The files are gone for everyone: the owner, the operator (any role), another user.
    for (const [path, headers] of [
      [`/api/v1/uploads/${front}`, as("a")],
      [`/api/v1/uploads/${back}`, as("a")],
      [`/api/v1/operator/uploads/${front}`, operator],
      [`/api/v1/operator/uploads/${back}`, operator],
      [`/api/v1/uploads/${front}`, as("b")],
    ] as const) {
      expect((await call("GET", path, { headers })).statusCode, path).toBe(404);
    }
    const detail = await call("GET", `/api/v1/operator/identity/${id}`, { headers: operator });
    expect(detail.json().data.submission).toMatchObject({
      state: "passed",
      operatorId: "bootstrap",
      documentsDeleted: true,
    });
    // The user's history in the audit log notes it, naming no operator.
    const audit = await call("GET", `/api/v1/operator/audit?userId=${users.a!.id}`, {
      headers: operator,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(JSON.stringify(audit.json().data)).toContain(
      "DELETE /api/v1/me/identity/:submissionId/documents",
    );
    // Twice: nothing left to delete, same answer.
    const again = await call("DELETE", url, { headers: as("a") });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(deleted.json().data);
  });

  it("keeps photos a resubmission still shows until that one is deleted too", async () => {
    // c passes basic, then is refused and resubmits the same photos.
    const basicDone = await call("POST", "/api/v1/me/identity/basic", {
      headers: as("c"),
      payload: { ...basic, documentNumber: "B22000129" },
    });
    const basicId = basicDone.json().data.history[0].submissionId;
    await call("POST", `/api/v1/operator/identity/${basicId}/approve`, {
      headers: operator,
      payload: {},
    });
    const front = await upload("c");
    const back = await upload("c");
    const first = await call("POST", "/api/v1/me/identity/advanced", {
      headers: as("c"),
      payload: { frontUploadId: front, backUploadId: back },
    });
    const firstId = first.json().data.history[0].submissionId;
    await call("POST", `/api/v1/operator/identity/${firstId}/reject`, {
      headers: operator,
      payload: { reason: "document_unreadable" },
    });
    const second = await call("POST", "/api/v1/me/identity/advanced", {
      headers: as("c"),
      payload: { frontUploadId: front, backUploadId: back },
    });
    expect(second.statusCode, second.body).toBe(200);
    const deleted = await call("DELETE", `/api/v1/me/identity/${firstId}/documents`, {
      headers: as("c"),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const refused = deleted
      .json()
      .data.history.find((s: { submissionId: string }) => s.submissionId === firstId);
    expect(refused).toMatchObject({ state: "not_approved", rejectReason: "document_unreadable" });
    expect(refused.documentsDeleted).toBe(true);
    // The resubmission under review still shows them to the reviewer.
    expect(
      (await call("GET", `/api/v1/operator/uploads/${front}`, { headers: operator })).statusCode,
    ).toBe(200);
  });

  it("refuses hostile and malformed input, and non-operators on the review endpoints", async () => {
    for (const payload of [
      { ...basic, country: "de" },
      { ...basic, country: "DEU" },
      { ...basic, realName: "" },
      { ...basic, realName: "x".repeat(101) },
      { ...basic, realName: "Eve\u0000" },
      { ...basic, documentType: "visa" },
      { ...basic, documentNumber: "12" },
      { ...basic, documentNumber: "<script>alert(1)</script>" },
      { ...basic, documentNumber: "1".repeat(33) },
      { ...basic, extra: true },
    ]) {
      const response = await call("POST", "/api/v1/me/identity/basic", {
        headers: as("b"),
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const [url, payload] of [
      ["/api/v1/operator/identity/1/reject", { reason: "other" }],
      ["/api/v1/operator/identity/1/reject", { reason: "because" }],
      ["/api/v1/operator/identity/1/reject", { reason: "other", text: "x".repeat(501) }],
      ["/api/v1/operator/identity/0/approve", {}],
      ["/api/v1/operator/identity/abc/approve", {}],
      ["/api/v1/operator/identity/1e5/approve", {}],
    ] as const) {
      const response = await call("POST", url, { headers: operator, payload });
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    const missing = await call("POST", "/api/v1/operator/identity/999999/approve", {
      headers: operator,
      payload: {},
    });
    expect(missing.json().error).toBe("identity_submission_not_found");
    for (const headers of [as("a"), {}, { authorization: "Bearer nope" }]) {
      const list = await call("GET", "/api/v1/operator/identity", { headers });
      expect(list.statusCode).toBe(401);
      const decide = await call("POST", "/api/v1/operator/identity/1/approve", {
        headers,
        payload: {},
      });
      expect(decide.statusCode).toBe(401);
    }
    expect((await call("GET", "/api/v1/me/identity", { headers: operator })).statusCode).toBe(401);
  });

  it("asks for the two-factor code on withdrawals once 2FA is on", async () => {
    // a passed basic verification above; the request fails later, for its made-up address.
    expect((await withdraw("a")).json().error).toBe("withdraw_address_not_found");
    const enrol = await call("POST", "/api/v1/me/two-factor/enrol", {
      headers: as("a"),
      payload: { password: "trade1234" },
    });
    const { secret } = enrol.json().data;
    const confirmed = await call("POST", "/api/v1/me/two-factor/confirm", {
      headers: as("a"),
      payload: { code: totpCode(secret, nowMs) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await withdraw("a")).json().error).toBe("two_factor_required");
    expect((await withdraw("a", "000000")).json().error).toBe("two_factor_invalid");
    // The confirming code is spent; a recovery code works once.
    const recovery: string = confirmed.json().data.recoveryCodes[0];
    expect((await withdraw("a", recovery)).json().error).toBe("withdraw_address_not_found");
    expect((await withdraw("a", recovery)).json().error).toBe("two_factor_invalid");
  });
});
