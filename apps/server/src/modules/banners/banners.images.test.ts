import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { multipart } from "../../testing/multipart.ts";
import { routeTest } from "../../testing/route-test.ts";
import { uploadContentSecurityPolicy } from "../uploads/uploads.service.ts";

// Banner images: an operator's upload of purpose `banner_image`, public only through a banner
// that shows it, while that banner is shown. No other upload becomes public.

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();

describeEachDatabase("banner images", (database) => {
  let nowMs = Date.parse("2026-11-28T12:00:00Z");
  const kit = routeTest("10.9.7", "banner-images-operator-token");
  const { call, operator, users } = kit;
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-banner-images-"));

  const upload = (
    url: string,
    bytes: Buffer,
    headers: Record<string, string>,
    type = "image/png",
  ) => {
    const body = multipart(bytes, { fileName: "banner.png", type });
    return kit.app.inject({
      method: "POST",
      url,
      remoteAddress: `10.9.8.${kit.nextIp()}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const operatorUpload = async (bytes: Buffer) => {
    const answer = await upload("/api/v1/operator/uploads?purpose=banner_image", bytes, operator);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.upload as { uploadId: string; purpose: string; width: number };
  };
  const publish = (payload: object) =>
    call("POST", "/api/v1/operator/banners", {
      headers: operator,
      payload: { link: null, locale: null, endsAtMs: null, reason: "campaign", ...payload },
    });
  const image = (bannerId: string) => call("GET", `/api/v1/banners/${bannerId}/image`);

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      uploads: {
        dir: uploadsDir,
        limits: { maxBytes: 50_000, maxPixels: 1_000_000, maxSide: 2_000 },
      },
    });
    await kit.signUp("a", "+4915100000071");
  }, 60_000);
  afterAll(async () => {
    await kit.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("shows an operator's image with its banner, publicly, only while the banner is shown", async () => {
    const uploaded = await operatorUpload(await png(320, 100));
    expect(uploaded).toMatchObject({ purpose: "banner_image", width: 320 });
    const published = await publish({
      title: "Stocks are open",
      imageUploadId: uploaded.uploadId,
      endsAtMs: nowMs + 3_600_000,
    });
    expect(published.statusCode, published.body).toBe(200);
    const banner = published.json().data.banner;
    expect(banner.image).toEqual({ width: 320, height: 100 });
    const listed = await call("GET", "/api/v1/banners");
    expect(listed.json().data.items).toEqual([
      { id: banner.id, title: "Stocks are open", link: null, image: { width: 320, height: 100 } },
    ]);

    // Anyone, signed in or not, gets the re-encoded PNG, cacheable for a few minutes.
    const served = await image(banner.id);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cache-control"]).toBe("public, max-age=300");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toBe(uploadContentSecurityPolicy);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(320);

    // Not any more once it ends, nor once withdrawn.
    nowMs += 3_600_000;
    expect((await image(banner.id)).statusCode).toBe(404);
    nowMs -= 1;
    expect((await image(banner.id)).statusCode).toBe(200);
    const withdrawn = await call("POST", `/api/v1/operator/banners/${banner.id}/withdraw`, {
      headers: operator,
      payload: { reason: "campaign over" },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data.banner.image).toEqual({ width: 320, height: 100 });
    expect((await image(banner.id)).statusCode).toBe(404);
    nowMs += 1;
  });

  it("a banner not yet shown, a text banner and a missing one have no image", async () => {
    const uploaded = await operatorUpload(await png(200, 80));
    const later = await publish({
      title: "Tomorrow",
      imageUploadId: uploaded.uploadId,
      startsAtMs: nowMs + 86_400_000,
    });
    expect(later.statusCode, later.body).toBe(200);
    expect((await image(later.json().data.banner.id)).statusCode).toBe(404);
    const text = await publish({ title: "Text only" });
    expect(text.json().data.banner.image).toBeNull();
    expect((await image(text.json().data.banner.id)).statusCode).toBe(404);
    expect((await image("999999")).json().error).toBe("not_found");
    for (const bad of ["0", "abc", "1.5", "-1", "1".repeat(19)]) {
      expect((await image(bad)).statusCode, bad).toBe(400);
    }
  });

  it("publishes only an operator's banner image: never a user's upload", async () => {
    const own = await upload("/api/v1/uploads?purpose=support_image", await png(64, 64), {
      authorization: `Bearer ${users.a!.token}`,
    });
    expect(own.statusCode, own.body).toBe(200);
    const userUpload = own.json().data.upload.uploadId;
    for (const imageUploadId of [userUpload, "0123456789abcdef0123456789abcdef"]) {
      const refused = await publish({ title: "Not mine", imageUploadId });
      expect(refused.statusCode, imageUploadId).toBe(404);
      expect(refused.json().error).toBe("upload_not_found");
    }
    const malformed = await publish({ title: "Bad id", imageUploadId: "../etc/passwd" });
    expect(malformed.statusCode).toBe(400);
    const banners = await call("GET", "/api/v1/operator/banners", { headers: operator });
    expect(banners.json().data.items.map((b: { title: string }) => b.title)).not.toContain(
      "Not mine",
    );
  });

  it("refuses a user's banner upload, an anonymous or user's operator upload, other purposes and oversized files", async () => {
    const bytes = await png(64, 64);
    const asUser = { authorization: `Bearer ${users.a!.token}` };
    const userBanner = await upload("/api/v1/uploads?purpose=banner_image", bytes, asUser);
    expect(userBanner.statusCode).toBe(400);
    expect(userBanner.json().error).toBe("validation_failed");
    expect(
      (await upload("/api/v1/operator/uploads?purpose=banner_image", bytes, {})).statusCode,
    ).toBe(401);
    expect(
      (await upload("/api/v1/operator/uploads?purpose=banner_image", bytes, asUser)).statusCode,
    ).toBe(401);
    const otherPurpose = await upload("/api/v1/operator/uploads?purpose=avatar", bytes, operator);
    expect(otherPurpose.statusCode).toBe(400);
    const script = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>`);
    const notImage = await upload("/api/v1/operator/uploads?purpose=banner_image", script, {
      ...operator,
      "x-lang": "fr",
    });
    expect(notImage.json().error).toBe("upload_not_an_image");
    const english = await upload("/api/v1/operator/uploads?purpose=banner_image", script, operator);
    expect(notImage.json().message).not.toBe(english.json().message);
    const noise = await sharp({
      create: {
        width: 1_500,
        height: 600,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const large = await upload("/api/v1/operator/uploads?purpose=banner_image", noise, operator);
    expect(large.json().error).toBe("upload_too_large");
  });
});
