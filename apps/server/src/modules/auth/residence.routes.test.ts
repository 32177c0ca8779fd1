import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "@candor/kernel";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import type { Unstamped } from "../../engine/engine.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { startTestEngine } from "../spot/spot.testing.ts";
import { parseCountryProductBlocks } from "../../http/country-product-gate.ts";
import { maskIp } from "./sign-in-history.ts";
import { totpCode } from "./totp.ts";
import { multipart } from "../../testing/multipart.ts";

// Issue 17, the rest of the security centre: country of residence (registration, change with a
// reason, the operator's history), the per-country product switches, the anti-phishing code in
// e-mails, sign-in history and uploaded avatars.

describe("maskIp and COUNTRY_PRODUCT_BLOCKS", () => {
  it("hides the last part of an address", () => {
    expect(maskIp("203.0.113.42")).toBe("203.0.113.*");
    expect(maskIp("::ffff:10.1.2.3")).toBe("10.1.2.*");
    expect(maskIp("2001:db8:85a3::8a2e:370:7334")).toBe("2001:db8:85a3:*");
    expect(maskIp("::1")).toBe("0:0:0:*");
    expect(maskIp("not an address")).toBeNull();
  });
  it("reads product:countries entries", () => {
    expect(parseCountryProductBlocks("perp:US,GB;seconds:US")).toEqual({
      perp: ["US", "GB"],
      seconds: ["US"],
    });
    expect(parseCountryProductBlocks(undefined)).toEqual({});
    expect(() => parseCountryProductBlocks("forex:US")).toThrow(/unknown product/);
  });
});

describeEachDatabase("country of residence and the security centre", (database) => {
  const nowMs = Date.parse("2026-11-27T10:00:00Z");
  const operatorToken = "residence-operator-token";
  const operator = { authorization: `Bearer ${operatorToken}` };
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "candor-test-residence-"));
  let app: FastifyInstance;
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  const users: Record<string, { token: string; id: string; email: string }> = {};
  let ip = 1;
  let jpeg: Buffer;

  const as = (user: string) => ({ authorization: `Bearer ${users[user]!.token}` });
  const call = (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    options: { headers?: object; payload?: object | string } = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.9.0.${(ip++ % 250) + 1}`,
      headers: { "user-agent": "ResidenceTest/1.0", ...options.headers },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
  const outboxText = async (email: string) =>
    (
      await call("GET", `/api/v1/operator/outbox?to=${encodeURIComponent(email)}&limit=1`, {
        headers: operator,
      })
    ).json().data.emails[0].text as string;

  async function register(name: string, country?: string) {
    const email = `${name}@residence.example`;
    await call("POST", "/api/v1/auth/email-codes", { payload: { email, purpose: "register" } });
    const emailCode = /\b(\d{6})\b/.exec(await outboxText(email))![1]!;
    const response = await call("POST", "/api/v1/auth/register", {
      payload: {
        account: email,
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode,
        agreement: true,
        ...(country ? { country } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    users[name] = { token: response.json().data.token, id: response.json().data.user.id, email };
    return response.json().data.user;
  }

  beforeAll(async () => {
    jpeg = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 90, b: 10 } },
    })
      .jpeg()
      .toBuffer();
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) {
      const applied = await running.engine.submit(command as Unstamped<Command>);
      expect(applied.result.ok).toBe(true);
    }
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken,
      engine: running.engine,
      accounts: accountOpener(running.engine),
      uploads: { dir: uploadsDir },
      countryProductBlocks: parseCountryProductBlocks(
        "perp:US;seconds:US,GB;stocks:US;savings:US;loans:US",
      ),
    });
  });
  afterAll(async () => {
    await app.close();
    await running.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("keeps the country chosen at registration and every change with its reason", async () => {
    const user = await register("anna", "DE");
    expect(user.country).toBe("DE");
    expect(user.antiPhishingCode).toBeNull();
    const same = await call("PUT", "/api/v1/me/country", {
      headers: as("anna"),
      payload: { country: "DE", reason: "moved" },
    });
    expect(same.json().error).toBe("country_unchanged");
    const noReason = await call("PUT", "/api/v1/me/country", {
      headers: { ...as("anna"), "accept-language": "de-DE" },
      payload: { country: "FR" },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe("country_change_reason_required");
    expect(noReason.json().message).toBe(
      "Geben Sie einen Grund für die Änderung Ihres Wohnsitzlandes an",
    );
    const changed = await call("PUT", "/api/v1/me/country", {
      headers: as("anna"),
      payload: { country: "FR", reason: "Moved to Lyon" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.country).toBe("FR");
    expect((await call("GET", "/api/v1/me", { headers: as("anna") })).json().data.country).toBe(
      "FR",
    );

    const history = await call("GET", `/api/v1/operator/users/${users.anna!.id}/country-history`, {
      headers: operator,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(
      history
        .json()
        .data.items.map((item: Record<string, unknown>) => [
          item.fromCountry,
          item.toCountry,
          item.source,
          item.reason,
        ]),
    ).toEqual([
      ["DE", "FR", "user", "Moved to Lyon"],
      [null, "DE", "registration", null],
    ]);
  });

  it("lets a user without a country pick one without a reason", async () => {
    const user = await register("bert");
    expect(user.country).toBeNull();
    const picked = await call("PUT", "/api/v1/me/country", {
      headers: as("bert"),
      payload: { country: "JP" },
    });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().data.country).toBe("JP");
  });

  it("refuses malformed, oversized and unauthorised country requests", async () => {
    for (const payload of [
      { country: "de" },
      { country: "XX" },
      { country: "DEU" },
      { country: 49 },
      {},
      { country: "AT", reason: "" },
      { country: "AT", reason: "x".repeat(201) },
      { country: "AT", reason: "line\nbreak" },
      { country: "AT", reason: "ok", extra: true },
    ]) {
      const response = await call("PUT", "/api/v1/me/country", { headers: as("anna"), payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const big = await call("PUT", "/api/v1/me/country", {
      headers: { ...as("anna"), "content-type": "application/json" },
      payload: JSON.stringify({ country: "AT", reason: "x".repeat(2_000) }),
    });
    expect(big.statusCode).toBe(413);
    const badRegister = await call("POST", "/api/v1/auth/register", {
      payload: {
        account: "x@residence.example",
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode: "123456",
        agreement: true,
        country: "ZZ",
      },
    });
    expect(badRegister.statusCode).toBe(400);
    for (const headers of [{}, { authorization: "Bearer nope" }, operator]) {
      const response = await call("PUT", "/api/v1/me/country", {
        headers,
        payload: { country: "AT", reason: "x" },
      });
      expect(response.statusCode).toBe(401);
    }
    for (const headers of [{}, { authorization: "Bearer nope" }, as("anna")]) {
      const response = await call(
        "GET",
        `/api/v1/operator/users/${users.anna!.id}/country-history`,
        { headers },
      );
      expect(response.statusCode).toBe(401);
    }
    for (const id of ["abc", "0", "-1", "1e5", "1".repeat(25)]) {
      const response = await call("GET", `/api/v1/operator/users/${id}/country-history`, {
        headers: operator,
      });
      expect(response.statusCode, id).toBe(400);
    }
    const unknown = await call("GET", "/api/v1/operator/users/999999/country-history", {
      headers: operator,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("refuses opening a product switched off for the user's country, not closing it", async () => {
    await register("cora", "US");
    const requestId = () => `req${Math.random().toString(36).slice(2, 12)}`;
    const opening: [string, string, object][] = [
      [
        "POST",
        "/api/v1/perp/orders",
        {
          clientOrderId: requestId(),
          marketId: "BTC-PERP",
          side: "buy",
          orderType: "market",
          contracts: 1,
        },
      ],
      ["POST", "/api/v1/perp/positions/BTC-PERP/reverse", { requestId: requestId() }],
      [
        "POST",
        "/api/v1/seconds/contracts",
        {
          requestId: requestId(),
          instrumentId: "BTCUSDT",
          periodS: 30,
          direction: "up",
          stake: "10",
        },
      ],
      [
        "POST",
        "/api/v1/stocks/orders",
        {
          requestId: requestId(),
          instrumentId: "AAPL",
          side: "buy",
          kind: "market",
          quantity: "1",
        },
      ],
      [
        "POST",
        "/api/v1/savings/subscriptions",
        { requestId: requestId(), planId: "usdt-30", amount: "100" },
      ],
      [
        "POST",
        "/api/v1/loans",
        {
          requestId: requestId(),
          productId: "BTC-USDT-7D",
          amount: "100",
          collateral: "1",
          agreement: true,
        },
      ],
    ];
    for (const [method, url, payload] of opening) {
      const response = await call(method as "POST", url, { headers: as("cora"), payload });
      expect(response.json().error, `${url} ${response.body}`).toBe(
        "product_unavailable_in_country",
      );
      expect(response.statusCode).toBe(403);
    }
    const inFrench = await call("POST", "/api/v1/loans", {
      headers: { ...as("cora"), "x-lang": "fr" },
      payload: opening[5]![2],
    });
    expect(inFrench.json().message).toBe(
      "Ce produit n'est pas proposé dans votre pays de résidence",
    );

    // Reducing and selling are not opening: whatever else they meet, it is not the switch.
    const reduce = await call("POST", "/api/v1/perp/orders", {
      headers: as("cora"),
      payload: { ...opening[0]![2], clientOrderId: requestId(), reduceOnly: true },
    });
    expect(reduce.json().error).not.toBe("product_unavailable_in_country");
    const sell = await call("POST", "/api/v1/stocks/orders", {
      headers: as("cora"),
      payload: { ...opening[3]![2], requestId: requestId(), side: "sell" },
    });
    expect(sell.json().error).not.toBe("product_unavailable_in_country");

    const products = await call("GET", "/api/v1/me/products", { headers: as("cora") });
    expect(products.json().data).toEqual({
      country: "US",
      products: ["perp", "seconds", "stocks", "savings", "loans"].map((product) => ({
        product,
        available: false,
        reason: "country",
      })),
    });
    // GB: only seconds contracts are off.
    const gb = await register("dora", "GB");
    expect(gb.country).toBe("GB");
    const gbProducts = (await call("GET", "/api/v1/me/products", { headers: as("dora") })).json()
      .data.products;
    expect(gbProducts.filter((p: { available: boolean }) => !p.available)).toEqual([
      { product: "seconds", available: false, reason: "country" },
    ]);
    const gbPerp = await call("POST", "/api/v1/perp/orders", {
      headers: as("dora"),
      payload: { ...opening[0]![2], clientOrderId: requestId() },
    });
    expect(gbPerp.json().error).not.toBe("product_unavailable_in_country");
  });

  it("asks a user without a country to choose one before opening a blocked product", async () => {
    await register("emil");
    const products = (await call("GET", "/api/v1/me/products", { headers: as("emil") })).json()
      .data;
    expect(products.country).toBeNull();
    expect(products.products[0]).toEqual({
      product: "perp",
      available: false,
      reason: "country_required",
    });
    const response = await call("POST", "/api/v1/savings/subscriptions", {
      headers: { ...as("emil"), "accept-language": "ja" },
      payload: { requestId: "req-emil-0001", planId: "usdt-30", amount: "100" },
    });
    expect(response.json().error).toBe("country_required");
    expect(response.json().message).toBe("先にお住まいの国を選択してください");
    expect((await call("GET", "/api/v1/me/products", {})).statusCode).toBe(401);
  });

  it("puts the anti-phishing code in every e-mail once set with the trade password", async () => {
    const payload = { code: "Blue42Fox" };
    const missing = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("anna"),
      payload,
    });
    expect(missing.json().error).toBe("trade_password_required");
    const wrong = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("anna"),
      payload: { ...payload, tradePassword: "wrong123" },
    });
    expect(wrong.json().error).toBe("trade_password_invalid");
    const set = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("anna"),
      payload: { ...payload, tradePassword: "secret123" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.antiPhishingCode).toBe("Blue42Fox");

    const email = users.anna!.email;
    await call("POST", "/api/v1/auth/email-codes", {
      headers: { "accept-language": "de" },
      payload: { email, purpose: "reset_password" },
    });
    const german = await outboxText(email);
    expect(german.split("\n")[0]).toBe(
      "Ihr Anti-Phishing-Code: Blue42Fox. Eine E-Mail von Candor ohne diesen Code stammt nicht von uns.",
    );
    await call("POST", "/api/v1/auth/email-codes", { payload: { email, purpose: "register" } });
    expect(await outboxText(email)).toMatch(/^Your anti-phishing code: Blue42Fox\./);
    // Another user's e-mails do not carry it.
    await call("POST", "/api/v1/auth/email-codes", {
      payload: { email: users.bert!.email, purpose: "reset_password" },
    });
    expect(await outboxText(users.bert!.email)).not.toContain("Blue42Fox");

    for (const bad of [
      { code: "abc", tradePassword: "secret123" },
      { code: "has space", tradePassword: "secret123" },
      { code: "x".repeat(21), tradePassword: "secret123" },
      { code: "<script>", tradePassword: "secret123" },
      { tradePassword: "secret123" },
      { code: "Blue42Fox", tradePassword: "secret123", more: 1 },
    ]) {
      const response = await call("PUT", "/api/v1/me/anti-phishing", {
        headers: as("anna"),
        payload: bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(
      (await call("PUT", "/api/v1/me/anti-phishing", { payload: { code: null } })).statusCode,
    ).toBe(401);
    const removed = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("anna"),
      payload: { code: null, tradePassword: "secret123" },
    });
    expect(removed.json().data.antiPhishingCode).toBeNull();
  });

  it("asks for the authenticator code instead once two-factor sign-in is on", async () => {
    const enrol = await call("POST", "/api/v1/me/two-factor/enrol", {
      headers: as("bert"),
      payload: { password: "secret123" },
    });
    const { secret } = enrol.json().data;
    const confirmed = await call("POST", "/api/v1/me/two-factor/confirm", {
      headers: as("bert"),
      payload: { code: totpCode(secret, nowMs) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const recovery: string = confirmed.json().data.recoveryCodes[0];
    const byPassword = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("bert"),
      payload: { code: "Otter77", tradePassword: "secret123" },
    });
    expect(byPassword.json().error).toBe("two_factor_required");
    const byCode = await call("PUT", "/api/v1/me/anti-phishing", {
      headers: as("bert"),
      payload: { code: "Otter77", totpCode: recovery },
    });
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json().data.antiPhishingCode).toBe("Otter77");
  });

  it("lists sign-ins, failed ones marked, with the address masked", async () => {
    const login = (password: string) =>
      app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        remoteAddress: "192.0.2.77",
        headers: { "user-agent": "HistoryBrowser/2.0" },
        payload: { account: users.cora!.email, password },
      });
    expect((await login("wrong-password1")).statusCode).toBe(401);
    expect((await login("secret123")).statusCode).toBe(200);
    const history = await call("GET", "/api/v1/me/sign-ins", { headers: as("cora") });
    expect(history.statusCode).toBe(200);
    const items = history.json().data.items;
    expect(items.slice(0, 3).map((item: Record<string, unknown>) => item.method)).toEqual([
      "password",
      "password",
      "register",
    ]);
    expect(items[0]).toMatchObject({
      succeeded: true,
      failure: null,
      userAgent: "HistoryBrowser/2.0",
      ipMasked: "192.0.2.*",
    });
    expect(items[1]).toMatchObject({ succeeded: false, failure: "password" });
    expect(JSON.stringify(items)).not.toContain("192.0.2.77");
    expect((await call("GET", "/api/v1/me/sign-ins", {})).statusCode).toBe(401);
    // A wrong second factor is a failed sign-in too.
    const wrongCode = await call("POST", "/api/v1/auth/login", {
      payload: { account: users.bert!.email, password: "secret123", totpCode: "000000" },
    });
    expect(wrongCode.json().error).toBe("two_factor_invalid");
    const bert = (await call("GET", "/api/v1/me/sign-ins", { headers: as("bert") })).json().data
      .items;
    expect(bert[0]).toMatchObject({ method: "password", succeeded: false, failure: "two_factor" });
  });

  it("sets an uploaded avatar of the user's own, and only that", async () => {
    const upload = async (user: string, purpose: string) => {
      const body = multipart(jpeg, { fileName: "me.jpg" });
      const response = await app.inject({
        method: "POST",
        url: `/api/v1/uploads?purpose=${purpose}`,
        headers: { ...as(user), ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.upload.uploadId as string;
    };
    const mine = await upload("anna", "avatar");
    const set = await call("PATCH", "/api/v1/me", {
      headers: as("anna"),
      payload: { avatarUploadId: mine },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.avatarUploadId).toBe(mine);
    const image = await call("GET", `/api/v1/uploads/${mine}`, { headers: as("anna") });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");

    const theirs = await upload("bert", "avatar");
    const document = await upload("anna", "identity_document");
    for (const uploadId of [theirs, document, "0".repeat(32)]) {
      const refused = await call("PATCH", "/api/v1/me", {
        headers: as("anna"),
        payload: { avatarUploadId: uploadId },
      });
      expect(refused.json().error).toBe("upload_not_found");
    }
    const malformed = await call("PATCH", "/api/v1/me", {
      headers: as("anna"),
      payload: { avatarUploadId: "../../etc/passwd" },
    });
    expect(malformed.statusCode).toBe(400);
    // A preset replaces the uploaded image.
    const preset = await call("PATCH", "/api/v1/me", {
      headers: as("anna"),
      payload: { avatar: 3 },
    });
    expect(preset.json().data).toMatchObject({ avatar: 3, avatarUploadId: null });
  });
});
