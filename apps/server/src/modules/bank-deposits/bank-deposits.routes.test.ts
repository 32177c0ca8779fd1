import { appendFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { getBalance } from "@candor/kernel";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { multipart } from "../../testing/multipart.ts";
import { routeTest } from "../../testing/route-test.ts";
import { uploadContentSecurityPolicy } from "../uploads/uploads.routes.ts";

// The upload pipeline against a catalogue of hostile files, owner-only access to what it
// stores, and bank deposit requests from submission to an operator's credit or rejection.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG whose header claims `width` × `height` pixels: a decompression bomb's shape. */
function bombPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  // One zero row compressed; libvips would need width × height bytes to decode it all.
  const data = deflateSync(Buffer.alloc(width + 1), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", data),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const secret = "CANDOR-SECRET-METADATA";
const image = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } });

describeEachDatabase("uploads and bank deposits", (database) => {
  const nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest("10.3.1", "bank-operator-token");
  const { users, call, operator, operatorToken } = kit;
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-uploads-"));
  let jpegWithExif: Buffer;
  let pngWithText: Buffer;

  const as = (user?: string, lang?: string) => ({
    ...(user ? { authorization: `Bearer ${users[user]!.token}` } : {}),
    ...(lang ? { "x-lang": lang } : {}),
  });
  const upload = (
    user: string | undefined,
    bytes: Buffer,
    options: Parameters<typeof multipart>[1] & { purpose?: string } = {},
  ) => {
    const body = multipart(bytes, options);
    return kit.app.inject({
      method: "POST",
      url: `/api/v1/uploads?purpose=${options.purpose ?? "bank_deposit_proof"}`,
      remoteAddress: `10.3.0.${kit.nextIp()}`,
      headers: { ...as(user), ...body.headers },
      payload: body.payload,
    });
  };
  const usdt = (user: string) =>
    kit.running.engine.query(
      (s) => getBalance(s, users[user]!.id, "real", "fund", "USDT").available,
    );
  const stored = () => readdirSync(uploadsDir);

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      uploads: {
        dir: uploadsDir,
        limits: { maxBytes: 200_000, maxPixels: 1_000_000, maxSide: 2_000 },
      },
      bankDeposits: {
        assets: ["USDT"],
        bank: {
          bankName: "Example Bank",
          accountName: "Candor Ltd",
          accountNumber: "DE89 3704 0044 0532 0130 00",
          bankCode: "COBADEFFXXX",
          note: null,
        },
      },
    });
    await kit.signUp("a", "+4915100000031");
    await kit.signUp("b", "+4915100000032");
    await kit.signInDemo("demo");
    jpegWithExif = await image()
      .jpeg()
      .withExif({ IFD0: { Copyright: secret, ImageDescription: secret } })
      .toBuffer();
    pngWithText = Buffer.concat([
      (await image().png().toBuffer()).subarray(0, -12),
      pngChunk("tEXt", Buffer.from(`Comment\0${secret}`, "latin1")),
      pngChunk("IEND", Buffer.alloc(0)),
    ]);
  }, 60_000);
  afterAll(kit.close);

  describe("hostile files: none is stored as given", () => {
    const refused: [string, () => Promise<Buffer> | Buffer, object, [number, string]][] = [
      [
        "SVG with a script, named and declared as PNG",
        () =>
          Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
        { fileName: "proof.png", type: "image/png" },
        [415, "upload_not_an_image"],
      ],
      [
        "HTML named .jpg",
        () => Buffer.from("<html><script>alert(document.cookie)</script></html>"),
        { fileName: "x.jpg" },
        [415, "upload_not_an_image"],
      ],
      [
        "decompression bomb (50,000 × 50,000 in a few hundred bytes)",
        () => bombPng(50_000, 50_000),
        { type: "image/png" },
        [400, "upload_too_many_pixels"],
      ],
      [
        "oversized dimensions (3,000 × 10: few pixels, too wide)",
        () => image(3_000, 10).png().toBuffer(),
        {},
        [400, "upload_too_many_pixels"],
      ],
      [
        "oversized bytes",
        async () => Buffer.concat([await image().jpeg().toBuffer(), Buffer.alloc(300_000, 7)]),
        {},
        [413, "upload_too_large"],
      ],
      [
        "truncated JPEG",
        async () => {
          const whole = await image(400, 300).jpeg({ quality: 95 }).toBuffer();
          return whole.subarray(0, Math.floor(whole.length / 2));
        },
        {},
        [415, "upload_not_an_image"],
      ],
      [
        "PNG signature in front of a JPEG",
        async () => Buffer.concat([bombPng(1, 1).subarray(0, 8), await image().jpeg().toBuffer()]),
        {},
        [415, "upload_not_an_image"],
      ],
      ["GIF", () => image().gif().toBuffer(), { type: "image/gif" }, [415, "upload_not_an_image"]],
      ["TIFF", () => image().tiff().toBuffer(), {}, [415, "upload_not_an_image"]],
      ["empty file", () => Buffer.alloc(0), {}, [400, "validation_failed"]],
    ];
    for (const [name, make, options, [status, code]] of refused) {
      it(`refuses ${name}`, async () => {
        const before = stored().length;
        const response = await upload("a", await make(), options);
        expect([response.statusCode, response.json().error], response.body).toEqual([status, code]);
        expect(stored()).toHaveLength(before);
      });
    }

    const reencoded: [string, () => Promise<Buffer> | Buffer, object, string][] = [
      ["JPEG with EXIF", () => jpegWithExif, {}, "image/jpeg"],
      ["PNG with a text chunk", () => pngWithText, { type: "image/png" }, "image/png"],
      [
        "polyglot JPEG + HTML",
        () => Buffer.concat([jpegWithExif, Buffer.from("<html><script>alert(1)</script>")]),
        { type: "text/html", fileName: "x.html" },
        "image/jpeg",
      ],
      [
        "polyglot JPEG + ZIP",
        () =>
          Buffer.concat([
            jpegWithExif,
            Buffer.from("PK\u0003\u0004\u0014\u0000\u0000\u0000payload.js", "latin1"),
          ]),
        { fileName: "x.zip", type: "application/zip" },
        "image/jpeg",
      ],
      [
        "path-traversal file name",
        () => pngWithText,
        { fileName: "../../../etc/passwd.png", type: "image/png" },
        "image/png",
      ],
      [
        "Windows path-traversal file name and a wrong declared type",
        () => jpegWithExif,
        { fileName: "..\\..\\web\\index.html", type: "text/html" },
        "image/jpeg",
      ],
    ];
    for (const [name, make, options, contentType] of reencoded) {
      it(`re-encodes ${name}: new bytes, no metadata, random name, served as ${contentType}`, async () => {
        const input = await make();
        const response = await upload("a", input, options);
        expect(response.statusCode, response.body).toBe(200);
        const view = response.json().data.upload;
        expect(view.contentType).toBe(contentType);
        expect(stored()).toContain(
          `${view.uploadId}.${contentType === "image/png" ? "png" : "jpg"}`,
        );
        for (const file of stored()) expect(file).toMatch(/^[0-9a-f]{32}\.(jpg|png)$/);
        const served = await call("GET", `/api/v1/uploads/${view.uploadId}`, { user: "a" });
        expect(served.statusCode).toBe(200);
        const bytes = served.rawPayload;
        expect(bytes.equals(input)).toBe(false);
        expect(bytes.includes(secret)).toBe(false);
        expect(bytes.includes("<script")).toBe(false);
        expect(bytes.includes("PK\u0003\u0004")).toBe(false);
        const metadata = await sharp(bytes).metadata();
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
        expect(metadata.comments ?? []).toEqual([]);
        expect(served.headers["content-type"]).toBe(contentType);
        expect(served.headers["x-content-type-options"]).toBe("nosniff");
        expect(served.headers["content-security-policy"]).toBe(uploadContentSecurityPolicy);
        expect(served.headers["content-disposition"]).toBe(
          `inline; filename="bank_deposit_proof-${view.uploadId}.${contentType === "image/png" ? "png" : "jpg"}"`,
        );
      });
    }
  });

  describe("access", () => {
    let uploadId: string;
    beforeAll(async () => {
      uploadId = (await upload("a", jpegWithExif)).json().data.upload.uploadId;
    });
    it("serves an upload to its owner and operators only", async () => {
      expect((await call("GET", `/api/v1/uploads/${uploadId}`, { user: "a" })).statusCode).toBe(
        200,
      );
      for (const intruder of ["b", "demo"]) {
        const response = await call("GET", `/api/v1/uploads/${uploadId}`, { user: intruder });
        expect([response.statusCode, response.json().error]).toEqual([404, "upload_not_found"]);
      }
      const anonymous = await call("GET", `/api/v1/uploads/${uploadId}`);
      expect(anonymous.statusCode).toBe(401);
      const operatorOnUserPath = await call("GET", `/api/v1/uploads/${uploadId}`, {
        headers: operator,
      });
      expect(operatorOnUserPath.statusCode).toBe(401);
      const asOperator = await call("GET", `/api/v1/operator/uploads/${uploadId}`, {
        headers: operator,
      });
      expect(asOperator.statusCode).toBe(200);
      expect(asOperator.headers["content-type"]).toBe("image/jpeg");
      const userOnOperatorPath = await call("GET", `/api/v1/operator/uploads/${uploadId}`, {
        user: "a",
      });
      expect(userOnOperatorPath.statusCode).toBe(401);
      const traversal = await call("GET", `/api/v1/uploads/..%2F..%2Fetc%2Fpasswd`, { user: "a" });
      expect(traversal.statusCode).toBe(400);
    });
    it("answers not found, never a 500, when a stored file was changed or removed on disk", async () => {
      const changed = (await upload("a", jpegWithExif)).json().data.upload.uploadId;
      appendFileSync(path.join(uploadsDir, `${changed}.jpg`), "<script>alert(1)</script>");
      const tampered = await call("GET", `/api/v1/uploads/${changed}`, { user: "a" });
      expect([tampered.statusCode, tampered.json().error]).toEqual([404, "upload_not_found"]);
      const removed = (await upload("a", jpegWithExif)).json().data.upload.uploadId;
      rmSync(path.join(uploadsDir, `${removed}.jpg`));
      const gone = await call("GET", `/api/v1/operator/uploads/${removed}`, { headers: operator });
      expect([gone.statusCode, gone.json().error]).toEqual([404, "upload_not_found"]);
    });
    it("refuses an upload without a session and a JSON body", async () => {
      expect((await upload(undefined, jpegWithExif)).statusCode).toBe(401);
      const json = await call("POST", "/api/v1/uploads?purpose=bank_deposit_proof", {
        user: "a",
        payload: {},
      });
      expect([json.statusCode, json.json().error]).toEqual([415, "unsupported_media_type"]);
    });
  });

  describe("bank deposit requests", () => {
    const proof = async (user: string, purpose = "bank_deposit_proof") => {
      const response = await upload(user, jpegWithExif, { purpose });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.upload.uploadId as string;
    };
    const request = async (user: string, amount: string, lang?: string) =>
      call("POST", "/api/v1/bank-deposits", {
        user,
        lang,
        payload: { assetId: "USDT", amount, proofUploadId: await proof(user) },
      });

    it("shows the operator's bank details and the assets", async () => {
      const response = await call("GET", "/api/v1/bank-deposits/options", { user: "a" });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        bank: { bankName: "Example Bank", accountNumber: "DE89 3704 0044 0532 0130 00" },
        assets: [{ assetId: "USDT", decimals: 6 }],
        maxUploadBytes: 200_000,
      });
    });

    it("refuses demo sessions with the spec's message, in English and German", async () => {
      const english = await call("POST", "/api/v1/bank-deposits", {
        user: "demo",
        lang: "en",
        payload: { assetId: "USDT", amount: "10", proofUploadId: "0".repeat(32) },
      });
      expect([english.statusCode, english.json().error]).toEqual([403, "demo_deposit_not_allowed"]);
      expect(english.json().message).toBe("Simulated accounts do not support deposits");
      const german = await call("POST", "/api/v1/bank-deposits", {
        user: "demo",
        lang: "de",
        payload: { assetId: "USDT", amount: "10", proofUploadId: "0".repeat(32) },
      });
      expect(german.json().message).toBe("Simulierte Konten unterstützen keine Einzahlungen");
    });

    it("refuses another user's proof, a proof for another purpose, a used proof, other assets", async () => {
      const bProof = await proof("b");
      const foreign = await call("POST", "/api/v1/bank-deposits", {
        user: "a",
        payload: { assetId: "USDT", amount: "10", proofUploadId: bProof },
      });
      expect([foreign.statusCode, foreign.json().error]).toEqual([404, "upload_not_found"]);
      const identity = await call("POST", "/api/v1/bank-deposits", {
        user: "a",
        payload: {
          assetId: "USDT",
          amount: "10",
          proofUploadId: await proof("a", "identity_document"),
        },
      });
      expect(identity.json().error).toBe("upload_not_found");
      const used = await proof("a");
      const first = await call("POST", "/api/v1/bank-deposits", {
        user: "a",
        payload: { assetId: "USDT", amount: "10", proofUploadId: used },
      });
      expect(first.statusCode).toBe(200);
      const again = await call("POST", "/api/v1/bank-deposits", {
        user: "a",
        lang: "fr",
        payload: { assetId: "USDT", amount: "20", proofUploadId: used },
      });
      expect([again.statusCode, again.json().error]).toEqual([409, "bank_deposit_proof_used"]);
      expect(again.json().message).toBe(
        "Ce justificatif de paiement est déjà joint à une autre demande de dépôt",
      );
      const btc = await call("POST", "/api/v1/bank-deposits", {
        user: "a",
        payload: { assetId: "BTC", amount: "1", proofUploadId: await proof("a") },
      });
      expect([btc.statusCode, btc.json().error]).toEqual([404, "asset_not_found"]);
      const precise = await request("a", "1.0000001");
      expect([precise.statusCode, precise.json().error]).toEqual([400, "amount_too_many_decimals"]);
    });

    it("pending → credited once, however often the operator clicks, with the request in the statement", async () => {
      const before = usdt("a");
      const created = await request("a", "250.5");
      expect(created.statusCode, created.body).toBe(200);
      const deposit = created.json().data.deposit;
      expect(deposit).toMatchObject({ state: "pending", amount: "250.5", assetId: "USDT" });
      expect(usdt("a")).toBe(before); // nothing credits by itself
      const pending = await call("GET", "/api/v1/operator/bank-deposits", { headers: operator });
      const listed = pending
        .json()
        .data.items.find((d: { depositId: string }) => d.depositId === deposit.depositId);
      expect(listed).toMatchObject({
        ownerId: users.a!.id,
        proofUrl: `/api/v1/operator/uploads/${deposit.proofUploadId}`,
      });
      const url = `/api/v1/operator/bank-deposits/${deposit.depositId}/credit`;
      const clicks = await Promise.all(
        [1, 2, 3].map(() => call("POST", url, { headers: operator, payload: {} })),
      );
      for (const click of clicks) expect(click.statusCode, click.body).toBe(200);
      expect(clicks.filter((c) => c.json().data.duplicate === false)).toHaveLength(1);
      const later = await call("POST", url, { headers: operator, payload: {} });
      expect(later.json().data).toMatchObject({ duplicate: true, deposit: { state: "credited" } });
      expect(usdt("a") - before).toBe(250_500_000n);
      const mine = await call("GET", "/api/v1/bank-deposits", { user: "a" });
      expect(mine.json().data.items[0]).toMatchObject({
        depositId: deposit.depositId,
        state: "credited",
      });
      await kit.running.projector.flush();
      const statement = await call("GET", "/api/v1/spot/statement", { user: "a" });
      expect(statement.json().data.items[0]).toMatchObject({
        reason: "deposit",
        amount: "250.5",
        operatorId: "bootstrap",
        reference: `bank_deposit:${deposit.depositId}`,
      });
      const reject = await call(
        "POST",
        `/api/v1/operator/bank-deposits/${deposit.depositId}/reject`,
        {
          headers: operator,
          payload: { reason: "late" },
        },
      );
      expect([reject.statusCode, reject.json().error]).toEqual([409, "bank_deposit_closed"]);
    });

    it("finishes a credit interrupted between the ledger and the request (crash) without crediting again", async () => {
      const before = usdt("a");
      const created = (await request("a", "7")).json().data.deposit;
      // As if the server stopped after the kernel applied the credit but before the row said so.
      await sql`UPDATE bank_deposits SET state = 'crediting' WHERE id = ${created.depositId}`.execute(
        database().db,
      );
      const direct = await call("POST", "/api/v1/operator/deposits", {
        headers: operator,
        payload: {
          id: `bank_deposit:${created.depositId}`,
          ownerId: users.a!.id,
          assetId: "USDT",
          amount: "7",
          reference: `bank_deposit:${created.depositId}`,
        },
      });
      expect(direct.json().data.duplicate).toBe(false);
      expect(usdt("a") - before).toBe(7_000_000n);
      const retried = await call(
        "POST",
        `/api/v1/operator/bank-deposits/${created.depositId}/credit`,
        { headers: operator, payload: {} },
      );
      expect(retried.json().data).toMatchObject({
        duplicate: true,
        deposit: { state: "credited" },
      });
      expect(usdt("a") - before).toBe(7_000_000n);
    });

    it("is off without bank details: options say so and requests are refused", async () => {
      const unconfigured = await buildApp({
        database: database(),
        now: () => nowMs,
        passwordCost: 10,
        captcha: "off",
        operatorToken,
        engine: kit.running.engine,
        accounts: accountOpener(kit.running.engine),
        uploads: { dir: uploadsDir },
      });
      try {
        const headers = as("a");
        const options = await unconfigured.inject({
          method: "GET",
          url: "/api/v1/bank-deposits/options",
          headers,
        });
        expect(options.json().data.bank).toBeNull();
        const refused = await unconfigured.inject({
          method: "POST",
          url: "/api/v1/bank-deposits",
          headers: { ...headers, "x-lang": "es" },
          payload: { assetId: "USDT", amount: "10", proofUploadId: await proof("a") },
        });
        expect([refused.statusCode, refused.json().error]).toEqual([
          409,
          "bank_deposit_unavailable",
        ]);
        expect(refused.json().message).toBe(
          "Los depósitos bancarios no están disponibles en este momento",
        );
      } finally {
        await unconfigured.close();
      }
    });

    it("pending → rejected with a reason the user sees; a rejected request never credits", async () => {
      const before = usdt("b");
      const created = (await request("b", "99")).json().data.deposit;
      const rejected = await call(
        "POST",
        `/api/v1/operator/bank-deposits/${created.depositId}/reject`,
        { headers: operator, payload: { reason: "No matching transfer received" } },
      );
      expect(rejected.statusCode, rejected.body).toBe(200);
      const mine = await call("GET", "/api/v1/bank-deposits", { user: "b" });
      expect(mine.json().data.items[0]).toMatchObject({
        state: "rejected",
        rejectReason: "No matching transfer received",
      });
      const credit = await call(
        "POST",
        `/api/v1/operator/bank-deposits/${created.depositId}/credit`,
        { headers: operator, payload: {}, lang: "sv" },
      );
      expect([credit.statusCode, credit.json().error]).toEqual([409, "bank_deposit_closed"]);
      expect(credit.json().message).toBe("Insättningsbegäran har redan krediterats eller avvisats");
      expect(usdt("b")).toBe(before);
      const missing = await call("POST", "/api/v1/operator/bank-deposits/999999/credit", {
        headers: operator,
        payload: {},
      });
      expect([missing.statusCode, missing.json().error]).toEqual([404, "bank_deposit_not_found"]);
      const empty = await call(
        "POST",
        `/api/v1/operator/bank-deposits/${created.depositId}/reject`,
        {
          headers: operator,
          payload: { reason: "   " },
        },
      );
      expect(empty.statusCode).toBe(400);
    });
  });
});
