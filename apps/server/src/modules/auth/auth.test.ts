import type { FastifyInstance } from "fastify";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { solveCaptcha } from "./captcha.ts";

const operatorToken = "operator-token-for-tests";
const wallet = privateKeyToAccount(
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
);
const otherWallet = privateKeyToAccount(
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
);

describeEachDatabase("auth", (database) => {
  let app: FastifyInstance;
  let nowMs = Date.UTC(2026, 10, 23, 12, 0, 0);
  const opened: string[] = [];
  let ip = 1;

  beforeAll(async () => {
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      operatorToken,
      passwordCost: 10,
      captchaCost: 2_000,
      accounts: {
        async open(userId, mode) {
          opened.push(`${userId}:${mode}`);
        },
      },
    });
  });
  afterAll(() => app.close());

  /** Each test case gets its own client address, so per-IP limits don't leak between them. */
  const call = (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.0.0.${ip}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** A captcha solved as the web app solves it: by trying numbers until the hash matches. */
  async function captcha() {
    const challenge = (await call("GET", "/api/v1/auth/captcha")).json().data;
    return { captchaId: challenge.captchaId as string, captchaAnswer: solveCaptcha(challenge) };
  }

  async function latestCode(email: string): Promise<string> {
    const response = await call("GET", `/api/v1/operator/outbox?to=${email}&limit=1`, undefined, {
      authorization: `Bearer ${operatorToken}`,
    });
    const text: string = response.json().data.emails[0].text;
    return /\b(\d{6})\b/.exec(text)![1]!;
  }

  /** The newest outbox message to an address or number (e-mails and texts alike). */
  async function latestMessage(to: string): Promise<{ subject: string; text: string }> {
    const response = await call(
      "GET",
      `/api/v1/operator/outbox?to=${encodeURIComponent(to)}&limit=1`,
      undefined,
      { authorization: `Bearer ${operatorToken}` },
    );
    return response.json().data.emails[0];
  }

  async function phoneCode(phone: string): Promise<string> {
    const sent = await call("POST", "/api/v1/auth/phone-codes", {
      phone,
      purpose: "register",
      ...(await captcha()),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    return /\b(\d{6})\b/.exec((await latestMessage(phone)).text)![1]!;
  }

  async function registerEmail(email: string, password = "secret123") {
    await call("POST", "/api/v1/auth/email-codes", {
      email,
      purpose: "register",
      ...(await captcha()),
    });
    const emailCode = await latestCode(email);
    return call("POST", "/api/v1/auth/register", {
      account: email,
      password,
      passwordConfirm: password,
      emailCode,
      agreement: true,
      ...(await captcha()),
    });
  }

  describe("captcha and agreement", () => {
    it("serves a signed proof-of-work challenge with the operator's cost", async () => {
      const response = await call("GET", "/api/v1/auth/captcha");
      const data = response.json().data;
      expect(data).toMatchObject({ algorithm: "SHA-256", maxNumber: 2_000 });
      expect(data.challenge).toMatch(/^[0-9a-f]{64}$/);
      expect(data.captchaId.startsWith(`${data.salt}.`)).toBe(true);
      expect(Date.parse(data.expiresAt) - nowMs).toBe(5 * 60_000);
      // Nothing about the number is in the answer but its hash.
      const answer = solveCaptcha(data);
      expect(JSON.stringify(data)).not.toContain(`"${answer}"`);
    });

    it("accepts a solved challenge once; refuses wrong, forged, expired and reused ones", async () => {
      ip = 3;
      let sent = 0;
      // Each send from its own address and to its own e-mail: only the captcha is under test.
      const send = (fields: object) => {
        sent += 1;
        ip = 100 + sent;
        return call("POST", "/api/v1/auth/email-codes", {
          email: `pow${sent}@example.com`,
          purpose: "register",
          ...fields,
        });
      };
      const solved = await captcha();
      // A wrong number does not spend it (nothing hashes right), so the right one still works.
      const wrong = String((Number(solved.captchaAnswer) + 1) % 2_001);
      expect((await send({ ...solved, captchaAnswer: wrong })).json().error).toBe(
        "captcha_invalid",
      );
      // Racing one solution twice: exactly one request gets through.
      const raced = await Promise.all([send(solved), send(solved)]);
      expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect((await send(solved)).json().error).toBe("captcha_invalid");
      // A challenge the server did not sign: same salt, another signature.
      const other = await captcha();
      const forgedId = other.captchaId.replace(/\.[0-9a-f]{64}$/, `.${"0".repeat(64)}`);
      expect((await send({ ...other, captchaId: forgedId })).json().error).toBe("captcha_invalid");
      // The expiry is in the signed salt; moving it forward breaks the signature.
      const [random, expiry, signature] = other.captchaId.split(".");
      const later = `${random}.${Number(expiry) + 3600}.${signature}`;
      expect((await send({ ...other, captchaId: later })).json().error).toBe("captcha_invalid");
      expect((await send(other)).statusCode).toBe(200);
      const old = await captcha();
      nowMs += 5 * 60_000 + 1_000;
      expect((await send(old)).json().error).toBe("captcha_invalid");
      // Malformed ones fail validation, in the user's language.
      const malformed = await call(
        "POST",
        "/api/v1/auth/email-codes",
        { email: "pow@example.com", purpose: "register", captchaId: "x", captchaAnswer: "-1" },
        { "x-lang": "fr" },
      );
      expect(malformed.statusCode).toBe(400);
      expect(
        malformed
          .json()
          .issues.map((i: { path: string }) => i.path)
          .sort(),
      ).toEqual(["body.captchaAnswer", "body.captchaId"]);
    });

    it("serves the agreement in the requested language", async () => {
      const en = (await call("GET", "/api/v1/auth/agreement")).json().data;
      const th = (await call("GET", "/api/v1/auth/agreement", undefined, { "x-lang": "th" })).json()
        .data;
      expect(en.text).toMatch(/never becomes real money/);
      expect(th.title).toBe("ข้อตกลงผู้ใช้ Candor");
      expect(en.text).not.toMatch(/zero risk/i);
    });
  });

  describe("register and log in", () => {
    it("registers by e-mail code, opens real accounts and answers with a session", async () => {
      ip = 2;
      const response = await registerEmail("Alice@Example.com");
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(data.user).toMatchObject({
        username: "alice@example.com",
        kind: "email",
        isVirtual: false,
        emailVerified: true,
        tradePasswordSet: true,
        demoOnly: false,
      });
      expect(response.headers["set-cookie"]).toMatch(/candor_session=.*HttpOnly; SameSite=Strict/);
      expect(opened).toContain(`${data.user.id}:real`);
      const me = await call("GET", "/api/v1/me", undefined, bearer(data.token));
      expect(me.json().data.id).toBe(data.user.id);
      expect((await app.sessionUserByToken(data.token))?.id).toBe(BigInt(data.user.id));
      expect(await app.sessionUserByToken("x".repeat(43))).toBeNull();
      const cookieMe = await call("GET", "/api/v1/me", undefined, {
        cookie: `candor_session=${data.token}`,
      });
      expect(cookieMe.statusCode).toBe(200);
    });

    it("stores only hashes of passwords, tokens and codes", async () => {
      const user = await database()
        .db.selectFrom("users")
        .selectAll()
        .where("email", "=", "alice@example.com")
        .executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^scrypt\$10\$8\$1\$/);
      expect(user.trade_password_hash).not.toBe(user.password_hash);
      const sessions = await database().db.selectFrom("sessions").select("token_hash").execute();
      for (const s of sessions) expect(s.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([
      ["no agreement", { agreement: false }, "agreement_required", "Please confirm the agreement"],
      ["no captcha", { captchaId: undefined, captchaAnswer: undefined }, "captcha_required", null],
      ["wrong e-mail code", { emailCode: "000000" }, "email_code_invalid", null],
      ["unknown invite code", { inviteCode: "ZZZZZZZZ" }, "invite_code_invalid", null],
    ])("refuses registration with %s", async (_, change, error, message) => {
      ip = 3;
      const email = `bob-${error}@example.com`;
      await call("POST", "/api/v1/auth/email-codes", {
        email,
        purpose: "register",
        ...(await captcha()),
      });
      const emailCode = await latestCode(email);
      const response = await call("POST", "/api/v1/auth/register", {
        account: email,
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode,
        agreement: true,
        ...(await captcha()),
        ...change,
      });
      expect(response.json().error).toBe(error);
      if (message) expect(response.json().message).toBe(message);
      const users = await database()
        .db.selectFrom("users")
        .select("id")
        .where("email", "=", email)
        .execute();
      expect(users).toHaveLength(0);
    });

    it.each([
      ["en", "The passwords do not match", "Some fields are not valid"],
      ["de", "Die Passwörter stimmen nicht überein", "Einige Felder sind ungültig"],
      ["zh-Hant", "兩次輸入的密碼不一致", null],
      ["ru", "Пароли не совпадают", null],
    ])("explains validation failures in %s", async (lang, mismatch, summary) => {
      ip = 4;
      const response = await call(
        "POST",
        "/api/v1/auth/register",
        {
          account: "carol@example.com",
          password: "secret123",
          passwordConfirm: "secret124",
          agreement: true,
        },
        { "x-lang": lang },
      );
      expect(response.statusCode).toBe(400);
      const json = response.json();
      if (summary) expect(json.message).toBe(summary);
      expect(json.issues).toContainEqual({ path: "body.passwordConfirm", message: mismatch });
    });

    it("keeps the e-mailed code usable after a registration refused for another reason", async () => {
      ip = 13;
      const email = "kim@example.com";
      await call("POST", "/api/v1/auth/email-codes", {
        email,
        purpose: "register",
        ...(await captcha()),
      });
      const emailCode = await latestCode(email);
      const form = {
        account: email,
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode,
        agreement: true,
      };
      const refused = await call("POST", "/api/v1/auth/register", {
        ...form,
        inviteCode: "NOSUCHCODE",
        ...(await captcha()),
      });
      expect(refused.json().error).toBe("invite_code_invalid");
      const accepted = await call("POST", "/api/v1/auth/register", {
        ...form,
        ...(await captcha()),
      });
      expect(accepted.statusCode).toBe(200);
    });

    it.each([
      ["malformed account", { account: "not an account" }, "body.account"],
      ["weak password", { password: "abcdefgh", passwordConfirm: "abcdefgh" }, "body.password"],
      ["over-long password", { password: `a1${"x".repeat(80)}` }, "body.password"],
      ["negative avatar-like number", { inviteCode: -5 }, "body.inviteCode"],
      ["unknown field", { isAdmin: true }, "body"],
      ["wrong type", { agreement: "yes" }, "body.agreement"],
    ])("rejects registration with %s", async (_, change, path) => {
      ip = 5;
      const response = await call("POST", "/api/v1/auth/register", {
        account: "dave@example.com",
        password: "secret123",
        passwordConfirm: "secret123",
        agreement: true,
        ...change,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().issues.map((i: { path: string }) => i.path)).toContain(path);
    });

    it("registers and logs in by phone number with a texted code and an invite code", async () => {
      ip = 12;
      const inviter = await database()
        .db.selectFrom("users")
        .select(["id", "invite_code"])
        .where("email", "=", "alice@example.com")
        .executeTakeFirstOrThrow();
      const form = {
        account: "+4915112345678",
        password: "phone1234",
        passwordConfirm: "phone1234",
        inviteCode: inviter.invite_code,
        agreement: true,
      };
      // No code, or a wrong one: refused, and nothing is created.
      const noCode = await call("POST", "/api/v1/auth/register", { ...form, ...(await captcha()) });
      expect(noCode.json().error).toBe("phone_code_invalid");
      const code = await phoneCode("+4915112345678");
      expect((await latestMessage("+4915112345678")).subject).toBe("SMS");
      const wrong = await call("POST", "/api/v1/auth/register", {
        ...form,
        phoneCode: code === "000000" ? "000001" : "000000",
        ...(await captcha()),
      });
      expect(wrong.json().error).toBe("phone_code_invalid");
      const registered = await call("POST", "/api/v1/auth/register", {
        ...form,
        phoneCode: code,
        ...(await captcha()),
      });
      expect(registered.json().data.user).toMatchObject({
        kind: "phone",
        username: "+4915112345678",
        emailVerified: false,
      });
      const row = await database()
        .db.selectFrom("users")
        .select("inviter_id")
        .where("phone", "=", "+4915112345678")
        .executeTakeFirstOrThrow();
      expect(row.inviter_id).toBe(inviter.id);
      const login = await call("POST", "/api/v1/auth/login", {
        account: "+4915112345678",
        password: "phone1234",
      });
      expect(login.statusCode).toBe(200);
      const aliceToken = (
        await call("POST", "/api/v1/auth/login", {
          account: "alice@example.com",
          password: "secret123",
        })
      ).json().data.token;
      const invitations = await call(
        "GET",
        "/api/v1/invitations/me",
        undefined,
        bearer(aliceToken),
      );
      expect(invitations.json().data).toMatchObject({
        inviteCode: inviter.invite_code,
        invitedCount: 1,
        records: [{ account: "+49****78" }],
      });
      // The code is used up: it cannot register the number twice.
      const again = await call("POST", "/api/v1/auth/register", {
        ...form,
        phoneCode: code,
        ...(await captcha()),
      });
      expect(again.json().error).toBe("phone_code_invalid");
    });

    it("answers alike for a taken and a new phone number, and texts the owner", async () => {
      ip = 14;
      const ask = (phone: string) =>
        call("POST", "/api/v1/auth/phone-codes", { phone, purpose: "register" });
      const [taken, fresh] = [
        await call("POST", "/api/v1/auth/phone-codes", {
          phone: "+4915112345678",
          purpose: "register",
          ...(await captcha()),
        }),
        await call("POST", "/api/v1/auth/phone-codes", {
          phone: "+4915199999999",
          purpose: "register",
          ...(await captcha()),
        }),
      ];
      expect(taken.statusCode).toBe(200);
      expect(Object.keys(taken.json().data)).toEqual(Object.keys(fresh.json().data));
      expect({ ...taken.json(), data: null }).toEqual({ ...fresh.json(), data: null });
      // The owner of the taken number is told, and gets no code.
      const notice = await latestMessage("+4915112345678");
      expect(notice.text).toMatch(/already has an account/);
      expect(notice.text).not.toMatch(/\d{6}/);
      // Registering the taken number answers exactly like a new number with a wrong code.
      const register = (account: string) =>
        call("POST", "/api/v1/auth/register", {
          account,
          password: "guess12345",
          passwordConfirm: "guess12345",
          phoneCode: "123456",
          agreement: true,
        });
      const [forTaken, forFresh] = [
        await register("+4915112345678"),
        await register("+4915188888888"),
      ];
      expect(forTaken.statusCode).toBe(400);
      expect(forTaken.json()).toEqual(forFresh.json());
      // Needs a captcha; bad numbers are refused before anything is sent.
      expect((await ask("+4915177777777")).json().error).toBe("captcha_required");
      for (const phone of ["12345", "+0123456789", "+49 151 1234", "x".repeat(3000)]) {
        const bad = await call("POST", "/api/v1/auth/phone-codes", {
          phone,
          purpose: "register",
          ...(await captcha()),
        });
        expect(bad.statusCode, phone).toBeGreaterThanOrEqual(400);
        expect(bad.statusCode, phone).toBeLessThan(500);
      }
      const wrongPurpose = await call("POST", "/api/v1/auth/phone-codes", {
        phone: "+4915177777777",
        purpose: "reset_password",
        ...(await captcha()),
      });
      expect(wrongPurpose.statusCode).toBe(400);
    });

    it("rate-limits texts per number", async () => {
      let last;
      for (let i = 0; i < 6; i++) {
        ip = 120 + i; // Different IPs: the per-number limit still applies.
        last = await call(
          "POST",
          "/api/v1/auth/phone-codes",
          { phone: "+4915166666666", purpose: "register", ...(await captcha()) },
          { "x-lang": "sv" },
        );
      }
      expect(last!.statusCode).toBe(429);
    });

    it("rejects an oversized registration body", async () => {
      ip = 6;
      const response = await call("POST", "/api/v1/auth/register", {
        account: "erin@example.com",
        password: "x".repeat(5000),
      });
      expect(response.statusCode).toBe(413);
    });

    it("answers alike for a taken address and tells its owner by e-mail", async () => {
      ip = 7;
      const response = await call("POST", "/api/v1/auth/email-codes", {
        email: "alice@example.com",
        purpose: "register",
        ...(await captcha()),
      });
      expect(response.statusCode).toBe(200);
      const outbox = await call("GET", "/api/v1/operator/outbox?to=alice@example.com", undefined, {
        authorization: `Bearer ${operatorToken}`,
      });
      expect(outbox.json().data.emails[0].subject).toBe("Your Candor account");
    });

    it("logs in, and never says whether an account exists", async () => {
      ip = 8;
      const ok = await call("POST", "/api/v1/auth/login", {
        account: "alice@example.com",
        password: "secret123",
      });
      expect(ok.statusCode).toBe(200);
      const wrongPassword = await call("POST", "/api/v1/auth/login", {
        account: "alice@example.com",
        password: "wrong1234",
      });
      const noAccount = await call("POST", "/api/v1/auth/login", {
        account: "nobody@example.com",
        password: "wrong1234",
      });
      expect(wrongPassword.statusCode).toBe(401);
      expect(noAccount.json()).toEqual(wrongPassword.json());
    });

    it("asks for a captcha after 5 failures in 15 minutes", async () => {
      ip = 9;
      await registerEmail("frank@example.com");
      const attempt = (extra = {}) =>
        call(
          "POST",
          "/api/v1/auth/login",
          { account: "frank@example.com", password: "bad12345", ...extra },
          { "accept-language": "ja" },
        );
      for (let i = 0; i < 5; i++)
        expect((await attempt()).json().error).toBe("invalid_credentials");
      const locked = await attempt({ password: "secret123" });
      expect(locked.json()).toMatchObject({
        error: "captcha_required",
        message: "キャプチャ認証を完了してください",
      });
      const unsolved = await captcha();
      const wrongCaptcha = await attempt({
        password: "secret123",
        captchaId: unsolved.captchaId,
        captchaAnswer: String(Number(unsolved.captchaAnswer) + 1),
      });
      expect(wrongCaptcha.json().error).toBe("captcha_invalid");
      const unlocked = await attempt({ password: "secret123", ...(await captcha()) });
      expect(unlocked.statusCode).toBe(200);
      // A success clears the failures.
      expect((await attempt({ password: "secret123" })).statusCode).toBe(200);
    });

    it("checks at most 5 of 20 parallel wrong logins; the rest need a captcha", async () => {
      ip = 13;
      await registerEmail("race@example.com");
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          ip = 60 + i; // Spread over addresses, as an attacker would.
          return call("POST", "/api/v1/auth/login", {
            account: "race@example.com",
            password: `wrong-${i}-guess`,
          });
        }),
      );
      const errors = answers.map((answer) => answer.json().error as string);
      const checked = errors.filter((error) => error === "invalid_credentials").length;
      // At most 5 (on PostgreSQL's pool all 20 may be counted before any is checked: 0).
      expect(checked).toBeLessThanOrEqual(5);
      expect(errors.filter((error) => error === "captcha_required")).toHaveLength(20 - checked);
      // (The next attempt on this account would hit the per-account limit of 20 per window.)
    });

    it("rejects a captcha that was already used or has expired", async () => {
      ip = 10;
      const first = await captcha();
      await call("POST", "/api/v1/auth/email-codes", {
        email: "g@example.com",
        purpose: "register",
        ...first,
      });
      const reused = await call("POST", "/api/v1/auth/email-codes", {
        email: "g@example.com",
        purpose: "register",
        ...first,
      });
      expect(reused.json().error).toBe("captcha_invalid");
      const old = await captcha();
      nowMs += 6 * 60_000;
      const expired = await call("POST", "/api/v1/auth/email-codes", {
        email: "g@example.com",
        purpose: "register",
        ...old,
      });
      expect(expired.json().error).toBe("captcha_invalid");
    });

    it("rate-limits code sending per address", async () => {
      ip = 11;
      let last;
      for (let i = 0; i < 6; i++) {
        ip = 20 + i; // Different IPs: the per-address limit still applies.
        last = await call(
          "POST",
          "/api/v1/auth/email-codes",
          { email: "h@example.com", purpose: "register", ...(await captcha()) },
          { "x-lang": "fr" },
        );
      }
      expect(last!.statusCode).toBe(429);
      expect(last!.json().message).toBe("Trop de requêtes, veuillez réessayer plus tard");
    });
  });

  describe("passwords and sessions", () => {
    it("changes the password and revokes every older session", async () => {
      ip = 30;
      const registered = (await registerEmail("ivan@example.com")).json().data;
      const second = (
        await call("POST", "/api/v1/auth/login", {
          account: "ivan@example.com",
          password: "secret123",
        })
      ).json().data;
      const wrong = await call(
        "POST",
        "/api/v1/me/password",
        { currentPassword: "nope12345", password: "newpass123", passwordConfirm: "newpass123" },
        bearer(registered.token),
      );
      expect(wrong.json().error).toBe("password_incorrect");
      const changed = await call(
        "POST",
        "/api/v1/me/password",
        { currentPassword: "secret123", password: "newpass123", passwordConfirm: "newpass123" },
        bearer(registered.token),
      );
      expect(changed.statusCode).toBe(200);
      for (const old of [registered.token, second.token]) {
        expect((await call("GET", "/api/v1/me", undefined, bearer(old))).statusCode).toBe(401);
      }
      const fresh = changed.json().data.token;
      expect((await call("GET", "/api/v1/me", undefined, bearer(fresh))).statusCode).toBe(200);
      const relogin = await call("POST", "/api/v1/auth/login", {
        account: "ivan@example.com",
        password: "newpass123",
      });
      expect(relogin.statusCode).toBe(200);
    });

    it("resets a forgotten password by e-mail code and signs out everywhere", async () => {
      ip = 31;
      const session = (
        await call("POST", "/api/v1/auth/login", {
          account: "ivan@example.com",
          password: "newpass123",
        })
      ).json().data;
      await call("POST", "/api/v1/auth/email-codes", {
        email: "ivan@example.com",
        purpose: "reset_password",
        ...(await captcha()),
      });
      const emailCode = await latestCode("ivan@example.com");
      const bad = await call("POST", "/api/v1/auth/password-reset", {
        email: "ivan@example.com",
        emailCode: emailCode === "123456" ? "654321" : "123456",
        password: "reset1234",
        passwordConfirm: "reset1234",
      });
      expect(bad.json().error).toBe("email_code_invalid");
      const reset = await call("POST", "/api/v1/auth/password-reset", {
        email: "ivan@example.com",
        emailCode,
        password: "reset1234",
        passwordConfirm: "reset1234",
      });
      expect(reset.statusCode).toBe(200);
      expect((await call("GET", "/api/v1/me", undefined, bearer(session.token))).statusCode).toBe(
        401,
      );
      const reused = await call("POST", "/api/v1/auth/password-reset", {
        email: "ivan@example.com",
        emailCode,
        password: "again1234",
        passwordConfirm: "again1234",
      });
      expect(reused.json().error).toBe("email_code_invalid");
    });

    it("sends no reset code to an unknown address but answers the same", async () => {
      ip = 32;
      const response = await call("POST", "/api/v1/auth/email-codes", {
        email: "ghost@example.com",
        purpose: "reset_password",
        ...(await captcha()),
      });
      expect(response.statusCode).toBe(200);
      const outbox = await call("GET", "/api/v1/operator/outbox?to=ghost@example.com", undefined, {
        authorization: `Bearer ${operatorToken}`,
      });
      expect(outbox.json().data.emails).toEqual([]);
    });

    it("sets, checks and changes the trade password", async () => {
      ip = 33;
      const { token } = (await registerEmail("judy@example.com", "login1234")).json().data;
      const h = bearer(token);
      expect((await call("GET", "/api/v1/me/trade-password", undefined, h)).json().data).toEqual({
        exists: true,
      });
      // It starts equal to the login password.
      const verify = (tradePassword: string) =>
        call("POST", "/api/v1/me/trade-password/verify", { tradePassword }, h);
      expect((await verify("login1234")).statusCode).toBe(200);
      expect((await verify("wrong1234")).json().error).toBe("trade_password_invalid");
      const noCurrent = await call(
        "PUT",
        "/api/v1/me/trade-password",
        { tradePassword: "trade1234", tradePasswordConfirm: "trade1234" },
        h,
      );
      expect(noCurrent.json().error).toBe("trade_password_invalid");
      const changed = await call(
        "PUT",
        "/api/v1/me/trade-password",
        {
          tradePassword: "trade1234",
          tradePasswordConfirm: "trade1234",
          currentTradePassword: "login1234",
        },
        h,
      );
      expect(changed.statusCode).toBe(200);
      expect((await verify("trade1234")).statusCode).toBe(200);
    });

    it("counts trade-password guesses once per user across endpoints", async () => {
      ip = 40;
      await registerEmail("budget@example.com", "budget123");
      const token = (
        await call("POST", "/api/v1/auth/login", {
          account: "budget@example.com",
          password: "budget123",
        })
      ).json().data.token;
      const verify = (tradePassword: string) =>
        call("POST", "/api/v1/me/trade-password/verify", { tradePassword }, bearer(token));
      const change = (currentTradePassword: string) =>
        call(
          "PUT",
          "/api/v1/me/trade-password",
          { tradePassword: "newtrade1", tradePasswordConfirm: "newtrade1", currentTradePassword },
          bearer(token),
        );
      // Five wrong through verify, five wrong through change: the budget of 10 is spent.
      for (let i = 0; i < 5; i++) {
        expect((await verify(`wrong-${i}x`)).json().error).toBe("trade_password_invalid");
        expect((await change(`wrong-${i}y`)).json().error).toBe("trade_password_invalid");
      }
      const right = await verify("budget123");
      expect(right.statusCode).toBe(429);
      expect(right.json().error).toBe("rate_limited");
      expect((await change("budget123")).json().error).toBe("rate_limited");
      nowMs += 15 * 60_000;
      expect((await verify("budget123")).statusCode).toBe(200);
    });

    it("updates the profile and rejects bad values", async () => {
      ip = 34;
      const { token } = (
        await call("POST", "/api/v1/auth/login", {
          account: "judy@example.com",
          password: "login1234",
        })
      ).json().data;
      const ok = await call("PATCH", "/api/v1/me", { nickname: "Judy", avatar: 3 }, bearer(token));
      expect(ok.json().data).toMatchObject({ nickname: "Judy", avatar: 3 });
      for (const bad of [
        { avatar: -1 },
        { avatar: 1.5 },
        { nickname: "x".repeat(33) },
        { id: 1 },
      ]) {
        const response = await call("PATCH", "/api/v1/me", bad, bearer(token));
        expect(response.statusCode).toBe(400);
      }
      expect((await call("PATCH", "/api/v1/me", { nickname: "Eve" })).statusCode).toBe(401);
    });

    it("logs out one session, or all of them", async () => {
      ip = 35;
      const login = async () =>
        (
          await call("POST", "/api/v1/auth/login", {
            account: "judy@example.com",
            password: "login1234",
          })
        ).json().data.token as string;
      const [a, b, c] = [await login(), await login(), await login()];
      const out = await call("POST", "/api/v1/auth/logout", {}, bearer(a));
      expect(out.headers["set-cookie"]).toMatch(/Max-Age=0/);
      expect((await call("GET", "/api/v1/me", undefined, bearer(a))).statusCode).toBe(401);
      expect((await call("GET", "/api/v1/me", undefined, bearer(b))).statusCode).toBe(200);
      await call("POST", "/api/v1/auth/logout", { everywhere: true }, bearer(b));
      expect((await call("GET", "/api/v1/me", undefined, bearer(c))).statusCode).toBe(401);
      expect((await call("POST", "/api/v1/auth/logout", {})).statusCode).toBe(401);
    });

    it("keeps the web session in an HttpOnly cookie; changes by cookie need the CSRF header", async () => {
      ip = 36;
      await registerEmail("cookie@example.com", "cookie123");
      const login = await call("POST", "/api/v1/auth/login", {
        account: "cookie@example.com",
        password: "cookie123",
      });
      const setCookie = String(login.headers["set-cookie"]);
      expect(setCookie).toMatch(/^candor_session=[A-Za-z0-9_-]{43};/);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expect(setCookie).not.toMatch(/Secure/); // No https PUBLIC_URL here.
      const cookie = { cookie: setCookie.split(";")[0]! };
      // Reads by cookie work without the header.
      expect((await call("GET", "/api/v1/me", undefined, cookie)).statusCode).toBe(200);
      // A change by cookie alone (what a forged cross-site request carries) is refused, in the
      // user's language, and changes nothing.
      const forged = await call(
        "PATCH",
        "/api/v1/me",
        { nickname: "pwned" },
        {
          ...cookie,
          "x-lang": "de",
        },
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ error: "csrf_failed" });
      expect(forged.json().message).toMatch(/App/);
      const wrongValue = await call(
        "PATCH",
        "/api/v1/me",
        { nickname: "pwned" },
        {
          ...cookie,
          "x-candor-csrf": "0",
        },
      );
      expect(wrongValue.json().error).toBe("csrf_failed");
      expect((await call("GET", "/api/v1/me", undefined, cookie)).json().data.nickname).toBe(
        "cookie",
      );
      const forgedLogout = await call("POST", "/api/v1/auth/logout", { everywhere: true }, cookie);
      expect(forgedLogout.json().error).toBe("csrf_failed");
      // The app's own request carries the header.
      const fromApp = await call(
        "PATCH",
        "/api/v1/me",
        { nickname: "mine" },
        {
          ...cookie,
          "x-candor-csrf": "1",
        },
      );
      expect(fromApp.statusCode).toBe(200);
      expect(fromApp.json().data.nickname).toBe("mine");
      // API clients with a bearer token need no header (a browser never adds one by itself).
      const byBearer = await call(
        "PATCH",
        "/api/v1/me",
        { nickname: "bearer" },
        bearer(login.json().data.token),
      );
      expect(byBearer.statusCode).toBe(200);
      // A garbled cookie is no session, not a crash.
      const garbled = await call("GET", "/api/v1/me", undefined, {
        cookie: "candor_session=%E0%A4%A",
      });
      expect(garbled.statusCode).toBe(401);
    });

    it("marks the session cookie Secure when PUBLIC_URL is https", async () => {
      const secureApp = await buildApp({
        database: database(),
        now: () => nowMs,
        passwordCost: 10,
        captcha: "off",
        publicUrl: "https://trade.example.com",
      });
      try {
        const demo = await secureApp.inject({
          method: "POST",
          url: "/api/v1/auth/demo",
          payload: {},
          remoteAddress: "10.0.6.1",
        });
        expect(String(demo.headers["set-cookie"])).toMatch(/; HttpOnly; SameSite=Strict; .*Secure/);
      } finally {
        await secureApp.close();
      }
    });

    it("keeps users apart: one user's logout-everywhere leaves another signed in", async () => {
      ip = 37;
      const judy = (
        await call("POST", "/api/v1/auth/login", {
          account: "judy@example.com",
          password: "login1234",
        })
      ).json().data;
      const demo = (await call("POST", "/api/v1/auth/demo", {})).json().data;
      await call("POST", "/api/v1/auth/logout", { everywhere: true }, bearer(demo.token));
      const me = await call("GET", "/api/v1/me", undefined, bearer(judy.token));
      expect(me.json().data.username).toBe("judy@example.com");
      // A demo session cannot read or change another user's data: /me is always the caller.
      const other = (await call("POST", "/api/v1/auth/demo", {})).json().data;
      await call("PATCH", "/api/v1/me", { nickname: "Mallory" }, bearer(other.token));
      const after = await call("GET", "/api/v1/me", undefined, bearer(judy.token));
      expect(after.json().data.nickname).toBe("Judy");
    });

    it("limits logins per account across addresses", async () => {
      let last;
      for (let i = 0; i < 21; i++) {
        ip = 100 + i;
        last = await call("POST", "/api/v1/auth/login", {
          account: "nobody-here@example.com",
          password: "guess1234",
          ...(i >= 5 ? await captcha() : {}),
        });
      }
      expect(last!.json().error).toBe("rate_limited");
    });

    it("expires sessions after 7 days", async () => {
      ip = 36;
      const { token } = (
        await call("POST", "/api/v1/auth/login", {
          account: "judy@example.com",
          password: "login1234",
        })
      ).json().data;
      nowMs += 7 * 24 * 3_600_000 + 1;
      expect((await call("GET", "/api/v1/me", undefined, bearer(token))).statusCode).toBe(401);
    });
  });

  describe("demo users", () => {
    it("creates and resumes a demo-only user that cannot switch to real money", async () => {
      ip = 40;
      const created = await call("POST", "/api/v1/auth/demo", {});
      const data = created.json().data;
      expect(data.user).toMatchObject({ kind: "demo", isVirtual: true, demoOnly: true });
      expect(opened).toContain(`${data.user.id}:demo`);
      const resumed = await call("POST", "/api/v1/auth/demo", { resumeKey: data.resumeKey });
      expect(resumed.json().data.user.id).toBe(data.user.id);
      const toReal = await call(
        "PUT",
        "/api/v1/me/mode",
        { mode: "real" },
        { ...bearer(data.token), "x-lang": "zh-Hant" },
      );
      expect(toReal.statusCode).toBe(403);
      expect(toReal.json()).toMatchObject({
        error: "demo_not_allowed",
        message: "模擬帳戶不支援此操作",
      });
      const unknown = await call("POST", "/api/v1/auth/demo", { resumeKey: "x".repeat(32) });
      expect(unknown.json().error).toBe("invalid_credentials");
      const malformed = await call("POST", "/api/v1/auth/demo", { resumeKey: "short" });
      expect(malformed.statusCode).toBe(400);
    });

    it("lets a real user switch the session to demo mode and back", async () => {
      ip = 41;
      const { token, user } = (
        await call("POST", "/api/v1/auth/login", {
          account: "judy@example.com",
          password: "login1234",
        })
      ).json().data;
      const demo = await call("PUT", "/api/v1/me/mode", { mode: "demo" }, bearer(token));
      expect(demo.json().data).toMatchObject({ isVirtual: true, mode: "demo" });
      expect(opened).toContain(`${user.id}:demo`);
      expect((await call("GET", "/api/v1/me", undefined, bearer(token))).json().data.mode).toBe(
        "demo",
      );
      const real = await call("PUT", "/api/v1/me/mode", { mode: "real" }, bearer(token));
      expect(real.json().data.isVirtual).toBe(false);
      const bad = await call("PUT", "/api/v1/me/mode", { mode: "paper" }, bearer(token));
      expect(bad.statusCode).toBe(400);
    });
  });

  describe("wallet sign-in (EIP-4361)", () => {
    async function nonce(address: string = wallet.address, chainId = 56) {
      const response = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${address}&chainId=${chainId}`,
      );
      return response.json().data as { message: string; nonce: string; domain: string };
    }
    const signIn = async (message: string, signer = wallet, address: string = signer.address) =>
      call("POST", "/api/v1/auth/wallet/login", {
        address,
        message,
        signature: await signer.signMessage({ message }),
        walletType: 2,
      });

    it("signs in a new address, creating the user, then the same user again", async () => {
      ip = 50;
      const { message, domain } = await nonce();
      expect(domain).toBe("localhost:80");
      expect(message).toContain("approves no token spending");
      const first = await signIn(message);
      expect(first.statusCode).toBe(200);
      const user = first.json().data.user;
      expect(user).toMatchObject({
        kind: "wallet",
        username: wallet.address,
        tradePasswordSet: false,
      });
      const again = await signIn((await nonce()).message);
      expect(again.json().data.user.id).toBe(user.id);
      const verify = await call(
        "POST",
        "/api/v1/me/trade-password/verify",
        { tradePassword: "anything1" },
        bearer(again.json().data.token),
      );
      expect(verify.json().error).toBe("trade_password_not_set");
    });

    it("rejects a replayed signature", async () => {
      ip = 51;
      const { message } = await nonce();
      const signature = await wallet.signMessage({ message });
      const body = { address: wallet.address, message, signature, walletType: 2 };
      expect((await call("POST", "/api/v1/auth/wallet/login", body)).statusCode).toBe(200);
      const replay = await call("POST", "/api/v1/auth/wallet/login", body);
      expect(replay.json().error).toBe("wallet_nonce_invalid");
    });

    it("rejects a nonce issued for another address or chain", async () => {
      ip = 52;
      const foreign = await nonce(otherWallet.address);
      const message = foreign.message.replace(otherWallet.address, wallet.address);
      expect((await signIn(message)).json().error).toBe("wallet_nonce_invalid");
      const chain1 = await nonce(wallet.address, 1);
      const onChain25 = chain1.message.replace("Chain ID: 1\n", "Chain ID: 25\n");
      expect((await signIn(onChain25)).json().error).toBe("wallet_nonce_invalid");
    });

    it("rejects a wrong domain, an unsupported chain, a changed statement and a forged signer", async () => {
      ip = 53;
      const { message } = await nonce();
      const wrongDomain = message.replace("localhost:80 wants", "evil.example wants");
      expect((await signIn(wrongDomain)).json().error).toBe("wallet_signature_invalid");
      const wrongChain = message.replace("Chain ID: 56", "Chain ID: 137");
      expect((await signIn(wrongChain)).json().error).toBe("wallet_signature_invalid");
      const tampered = message.replace("Sign in to Candor.", "Sign in to Candor now.");
      expect((await signIn(tampered)).json().error).toBe("wallet_signature_invalid");
      // Signed by another key but claiming this address.
      expect((await signIn(message, otherWallet, wallet.address)).json().error).toBe(
        "wallet_signature_invalid",
      );
      // A statement changed after signing breaks the signature.
      const signature = await wallet.signMessage({ message });
      const afterSigning = await call("POST", "/api/v1/auth/wallet/login", {
        address: wallet.address,
        message: message.replace("no transaction", "a transaction"),
        signature,
        walletType: 2,
      });
      expect(afterSigning.json().error).toBe("wallet_signature_invalid");
      // The untouched message still works: the failures above used nothing up.
      expect((await signIn(message)).statusCode).toBe(200);
    });

    it("takes the domain from configuration only: a foreign Host is refused", async () => {
      ip = 55;
      // A phishing site relaying to us: its Host would have become the signed domain.
      const evil = { host: "evil.example" };
      const evilNonce = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
        undefined,
        evil,
      );
      expect(evilNonce.statusCode).toBe(403);
      expect(evilNonce.json().error).toBe("host_not_allowed");
      // Another port of loopback is another origin; a loopback name on our port is fine.
      for (const host of ["localhost:8081", "127.0.0.1:8080", "localhost.evil.example:80"]) {
        const response = await call(
          "GET",
          `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
          undefined,
          { host },
        );
        expect(response.json().error, host).toBe("host_not_allowed");
      }
      const viaIp = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
        undefined,
        { host: "127.0.0.1:80" },
      );
      expect(viaIp.json().data.domain).toBe("127.0.0.1:80");
      // On port 80 a browser leaves the port out of Host (and of the origin the wallet sees).
      const portless = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
        undefined,
        { host: "localhost" },
      );
      expect(portless.json().data, portless.body).toMatchObject({
        domain: "localhost",
        uri: "http://localhost",
      });
      // IPv6 loopback is not offered: SIWE tools refuse an IPv6 literal as the domain.
      const ipv6 = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
        undefined,
        { host: "[::1]:80" },
      );
      expect(ipv6.json().error).toBe("host_not_allowed");
      // A message signed for our domain cannot be spent through a foreign Host either.
      const { message } = await nonce();
      const relayed = await call(
        "POST",
        "/api/v1/auth/wallet/login",
        {
          address: wallet.address,
          message,
          signature: await wallet.signMessage({ message }),
          walletType: 2,
        },
        evil,
      );
      expect(relayed.json().error).toBe("host_not_allowed");
      // Nor one naming a foreign domain or URI through ours.
      const foreignDomain = message.replace("localhost:80 wants", "evil.example wants");
      expect((await signIn(foreignDomain)).json().error).toBe("wallet_signature_invalid");
      const foreignUri = message.replace("URI: http://localhost:80", "URI: http://evil.example");
      expect(foreignUri).not.toBe(message);
      expect((await signIn(foreignUri)).json().error).toBe("wallet_signature_invalid");
      // The untouched message still signs in through our own Host.
      expect((await signIn(message)).statusCode).toBe(200);
    });

    it("refuses a message not yet valid, or naming our domain in other letters", async () => {
      ip = 56;
      const issued = await nonce();
      const fields = parseSiweMessage(issued.message);
      // Re-made by the client with the same nonce but a start in the future: signed, refused.
      const notYet = createSiweMessage({
        ...(fields as Parameters<typeof createSiweMessage>[0]),
        notBefore: new Date(nowMs + 60_000),
      });
      expect(notYet).not.toBe(issued.message);
      expect((await signIn(notYet)).json().error).toBe("wallet_signature_invalid");
      const shouting = issued.message.replace("localhost:80 wants", "LOCALHOST:80 wants");
      expect((await signIn(shouting)).json().error).toBe("wallet_signature_invalid");
      // A Host in capitals is the same host (names are case-insensitive): allowed.
      const capitalHost = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
        undefined,
        { host: "LocalHost:80" },
      );
      expect(capitalHost.json().data.domain).toBe("localhost:80");
      // The refusals above used nothing up: the issued message still signs in.
      expect((await signIn(issued.message)).statusCode).toBe(200);
    });

    it("with PUBLIC_URL, signs for that origin whatever the Host says", async () => {
      const configured = await buildApp({
        database: database(),
        now: () => nowMs,
        passwordCost: 10,
        publicUrl: "https://trade.example.com",
      });
      try {
        const inject = (method: "GET" | "POST", url: string, host: string, payload?: object) =>
          configured.inject({
            method,
            url,
            headers: { host },
            remoteAddress: "10.0.5.6",
            ...(payload ? { payload } : {}),
          });
        const issued = await inject(
          "GET",
          `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
          "evil.example",
        );
        expect(issued.json().data).toMatchObject({
          domain: "trade.example.com",
          uri: "https://trade.example.com",
        });
        const message: string = issued.json().data.message;
        expect(message).not.toContain("evil.example");
        const login = await inject("POST", "/api/v1/auth/wallet/login", "evil.example", {
          address: wallet.address,
          message,
          signature: await wallet.signMessage({ message }),
          walletType: 2,
        });
        expect(login.statusCode).toBe(200);
        // A message naming the loopback origin is not ours when a public URL is configured.
        const local = (await nonce()).message;
        const refused = await inject("POST", "/api/v1/auth/wallet/login", "localhost:80", {
          address: wallet.address,
          message: local,
          signature: await wallet.signMessage({ message: local }),
          walletType: 2,
        });
        expect(refused.json().error).toBe("wallet_signature_invalid");
      } finally {
        await configured.close();
      }
    });

    it("rejects an expired nonce", async () => {
      ip = 54;
      const { message } = await nonce();
      nowMs += 5 * 60_000 + 1;
      expect((await signIn(message)).statusCode).toBe(401);
    });

    it("rejects malformed input, in Korean too", async () => {
      ip = 55;
      const badNonce = await call(
        "GET",
        "/api/v1/auth/wallet/nonce?address=0x1234&chainId=56",
        undefined,
        { "x-lang": "kr" },
      );
      expect(badNonce.statusCode).toBe(400);
      expect(badNonce.json().message).toBe("일부 항목이 올바르지 않습니다");
      const badChain = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=137`,
      );
      expect(badChain.statusCode).toBe(400);
      const badType = await call("POST", "/api/v1/auth/wallet/login", {
        address: wallet.address,
        message: "x",
        signature: `0x${"ab".repeat(65)}`,
        walletType: 1,
      });
      expect(badType.json().issues[0].path).toBe("body.walletType");
      const tooLong = await call("POST", "/api/v1/auth/wallet/login", {
        address: wallet.address,
        message: "x".repeat(2001),
        signature: `0x${"ab".repeat(65)}`,
        walletType: 2,
      });
      expect(tooLong.statusCode).toBe(400);
    });
  });

  describe("operator outbox", () => {
    it("needs the operator token", async () => {
      ip = 60;
      expect((await call("GET", "/api/v1/operator/outbox")).statusCode).toBe(401);
      const user = (await call("POST", "/api/v1/auth/demo", {})).json().data.token;
      expect(
        (await call("GET", "/api/v1/operator/outbox", undefined, bearer(user))).statusCode,
      ).toBe(401);
      const bad = await call("GET", "/api/v1/operator/outbox?limit=-1", undefined, {
        authorization: `Bearer ${operatorToken}`,
      });
      expect(bad.statusCode).toBe(400);
    });
  });

  it("lists every auth endpoint in the OpenAPI document", async () => {
    const document = (await call("GET", "/api/openapi.json")).json();
    for (const path of [
      "/api/v1/auth/captcha",
      "/api/v1/auth/agreement",
      "/api/v1/auth/email-codes",
      "/api/v1/auth/register",
      "/api/v1/auth/login",
      "/api/v1/auth/demo",
      "/api/v1/auth/wallet/nonce",
      "/api/v1/auth/wallet/login",
      "/api/v1/auth/password-reset",
      "/api/v1/auth/logout",
      "/api/v1/me",
      "/api/v1/me/password",
      "/api/v1/me/trade-password",
      "/api/v1/me/trade-password/verify",
      "/api/v1/me/mode",
      "/api/v1/invitations/me",
      "/api/v1/operator/outbox",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    const page = (await call("GET", "/api/docs")).body;
    expect(page).toContain('id="api-map"');
    expect(page).toContain("<td><code>agreetment</code></td>");
  });
});
