import type { FastifyInstance } from "fastify";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { totpCode } from "./totp.ts";

const operatorToken = "operator-token-for-tests";
const wallet = privateKeyToAccount(
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
);

describeEachDatabase("two-factor sign-in and sessions", (database) => {
  let app: FastifyInstance;
  let nowMs = Date.UTC(2026, 10, 27, 12, 0, 0);
  let ip = 1;

  beforeAll(async () => {
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      operatorToken,
      passwordCost: 10,
      captcha: "off",
    });
  });
  afterAll(() => app.close());

  const call = (
    method: "GET" | "POST" | "DELETE",
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: `10.1.0.${ip}`,
      headers: { "user-agent": "TestBrowser/1.0", ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function register(email: string, password = "secret123"): Promise<string> {
    ip += 1;
    await call("POST", "/api/v1/auth/email-codes", { email, purpose: "register" });
    const outbox = await call("GET", `/api/v1/operator/outbox?to=${email}&limit=1`, undefined, {
      authorization: `Bearer ${operatorToken}`,
    });
    const emailCode = /\b(\d{6})\b/.exec(outbox.json().data.emails[0].text)![1]!;
    const response = await call("POST", "/api/v1/auth/register", {
      account: email,
      password,
      passwordConfirm: password,
      emailCode,
      agreement: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.token;
  }

  /** Enrols and confirms 2FA; answers the secret and the recovery codes. */
  async function enable(token: string, password = "secret123") {
    const enrol = await call("POST", "/api/v1/me/two-factor/enrol", { password }, bearer(token));
    expect(enrol.statusCode, enrol.body).toBe(200);
    const { secret, otpauthUri, qrSvg } = enrol.json().data;
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrSvg).toContain("<svg");
    const confirm = await call(
      "POST",
      "/api/v1/me/two-factor/confirm",
      { code: totpCode(secret, nowMs) },
      bearer(token),
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    const recoveryCodes: string[] = confirm.json().data.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    return { secret, recoveryCodes };
  }

  const login = (account: string, totp?: string, password = "secret123") =>
    call("POST", "/api/v1/auth/login", {
      account,
      password,
      ...(totp === undefined ? {} : { totpCode: totp }),
    });

  it("enrols, then asks for the code at sign-in and refuses a replayed one", async () => {
    const token = await register("tfa1@example.com");
    expect(
      (await call("GET", "/api/v1/me/two-factor", undefined, bearer(token))).json().data,
    ).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const { secret } = await enable(token);
    expect(
      (await call("GET", "/api/v1/me/two-factor", undefined, bearer(token))).json().data,
    ).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const noCode = await login("tfa1@example.com");
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().error).toBe("two_factor_required");
    // A wrong password still says only "invalid credentials", code or not.
    const wrongPassword = await login("tfa1@example.com", "123456", "wrong1234");
    expect(wrongPassword.json().error).toBe("invalid_credentials");

    // The code that confirmed enrolment was used in this step: it does not sign in.
    const replayedConfirm = await login("tfa1@example.com", totpCode(secret, nowMs));
    expect(replayedConfirm.json().error).toBe("two_factor_invalid");

    nowMs += 30_000;
    const code = totpCode(secret, nowMs);
    const ok = await login("tfa1@example.com", code);
    expect(ok.statusCode, ok.body).toBe(200);
    // The same code again within its window: refused.
    const replay = await login("tfa1@example.com", code);
    expect(replay.statusCode).toBe(403);
    expect(replay.json().error).toBe("two_factor_invalid");
    // An older code of the window (previous step) is refused too once a newer one was used.
    const older = await login("tfa1@example.com", totpCode(secret, nowMs - 30_000));
    expect(older.json().error).toBe("two_factor_invalid");
    nowMs += 30_000;
    expect((await login("tfa1@example.com", totpCode(secret, nowMs))).statusCode).toBe(200);
  });

  it("takes each recovery code once", async () => {
    const token = await register("tfa2@example.com");
    const { recoveryCodes } = await enable(token);
    const first = recoveryCodes[0]!;
    expect((await login("tfa2@example.com", first.toUpperCase())).statusCode).toBe(200);
    const again = await login("tfa2@example.com", first);
    expect(again.json().error).toBe("two_factor_invalid");
    expect(
      (await call("GET", "/api/v1/me/two-factor", undefined, bearer(token))).json().data,
    ).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it("locks code entry after five wrong codes, whatever the code", async () => {
    const token = await register("tfa3@example.com");
    const { secret } = await enable(token);
    nowMs += 30_000;
    for (let i = 0; i < 5; i += 1) {
      const wrong = await login("tfa3@example.com", "000000");
      expect(wrong.json().error).toBe("two_factor_invalid");
    }
    const locked = await login("tfa3@example.com", totpCode(secret, nowMs));
    expect(locked.json().error).toBe("rate_limited");
    nowMs += 15 * 60_000 + 1;
    expect((await login("tfa3@example.com", totpCode(secret, nowMs))).statusCode).toBe(200);
  });

  it("turns off only with the password and a valid code", async () => {
    const token = await register("tfa4@example.com");
    const { secret } = await enable(token);
    nowMs += 30_000;
    const badPassword = await call(
      "POST",
      "/api/v1/me/two-factor/disable",
      { password: "nope12345", code: totpCode(secret, nowMs) },
      bearer(token),
    );
    expect(badPassword.json().error).toBe("password_incorrect");
    const badCode = await call(
      "POST",
      "/api/v1/me/two-factor/disable",
      { password: "secret123", code: "123-456" },
      bearer(token),
    );
    expect(badCode.statusCode).toBe(400);
    // A wrong code is 403, not 401: the web app signs out on a 401, and the session is fine.
    const wrongCode = await call(
      "POST",
      "/api/v1/me/two-factor/disable",
      { password: "secret123", code: "000000" },
      bearer(token),
    );
    expect([wrongCode.statusCode, wrongCode.json().error]).toEqual([403, "two_factor_invalid"]);
    expect((await call("GET", "/api/v1/me", undefined, bearer(token))).statusCode).toBe(200);
    const ok = await call(
      "POST",
      "/api/v1/me/two-factor/disable",
      { password: "secret123", code: totpCode(secret, nowMs) },
      bearer(token),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await login("tfa4@example.com")).statusCode).toBe(200);
  });

  it("refuses a second enrolment and a confirmation with a wrong code", async () => {
    const token = await register("tfa5@example.com");
    const enrol = await call(
      "POST",
      "/api/v1/me/two-factor/enrol",
      { password: "secret123" },
      bearer(token),
    );
    const wrong = await call(
      "POST",
      "/api/v1/me/two-factor/confirm",
      { code: "000000" },
      bearer(token),
    );
    expect(wrong.json().error).toBe("two_factor_invalid");
    // Still off: sign-in needs no code.
    expect((await login("tfa5@example.com")).statusCode).toBe(200);
    const badPassword = await call(
      "POST",
      "/api/v1/me/two-factor/enrol",
      { password: "wrong1234" },
      bearer(token),
    );
    expect(badPassword.json().error).toBe("password_incorrect");
    const { secret } = enrol.json().data;
    await call(
      "POST",
      "/api/v1/me/two-factor/confirm",
      { code: totpCode(secret, nowMs) },
      bearer(token),
    );
    const twice = await call(
      "POST",
      "/api/v1/me/two-factor/enrol",
      { password: "secret123" },
      bearer(token),
    );
    expect(twice.json().error).toBe("two_factor_already_enabled");
  });

  it("lists sessions with device and IP, and signs out one or all others", async () => {
    const first = await register("sess1@example.com");
    const second = (await login("sess1@example.com")).json().data.token as string;
    const third = (await login("sess1@example.com")).json().data.token as string;
    const list = await call("GET", "/api/v1/me/sessions", undefined, bearer(first));
    const sessions = list.json().data.sessions;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ userAgent: "TestBrowser/1.0", ip: `10.1.0.${ip}` });
    expect(JSON.stringify(sessions)).not.toContain(first);

    const secondId = (await call("GET", "/api/v1/me/sessions", undefined, bearer(second)))
      .json()
      .data.sessions.find((s: { current: boolean }) => s.current).sessionId;
    // Another user cannot sign this session out: it is "not found" for them.
    const stranger = await register("sess2@example.com");
    const foreign = await call(
      "DELETE",
      `/api/v1/me/sessions/${secondId}`,
      undefined,
      bearer(stranger),
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("session_not_found");

    const one = await call("DELETE", `/api/v1/me/sessions/${secondId}`, undefined, bearer(first));
    expect(one.statusCode, one.body).toBe(200);
    expect((await call("GET", "/api/v1/me", undefined, bearer(second))).statusCode).toBe(401);
    expect((await call("GET", "/api/v1/me", undefined, bearer(third))).statusCode).toBe(200);

    const others = await call("POST", "/api/v1/me/sessions/revoke-others", {}, bearer(first));
    expect(others.json().data).toEqual({ revoked: 1 });
    expect((await call("GET", "/api/v1/me", undefined, bearer(third))).statusCode).toBe(401);
    expect((await call("GET", "/api/v1/me", undefined, bearer(first))).statusCode).toBe(200);
  });

  it("asks a wallet user with 2FA on for a code with a new signature", async () => {
    const walletSignIn = async (totp?: string) => {
      ip += 1;
      const nonce = await call(
        "GET",
        `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
      );
      const message: string = nonce.json().data.message;
      return call("POST", "/api/v1/auth/wallet/login", {
        address: wallet.address,
        message,
        signature: await wallet.signMessage({ message }),
        walletType: 2,
        ...(totp === undefined ? {} : { totpCode: totp }),
      });
    };
    const first = await walletSignIn();
    expect(first.statusCode, first.body).toBe(200);
    const token: string = first.json().data.token;
    // A wallet user has no password: enrolment and turning off need none.
    const enrol = await call("POST", "/api/v1/me/two-factor/enrol", {}, bearer(token));
    expect(enrol.statusCode, enrol.body).toBe(200);
    const { secret } = enrol.json().data;
    await call(
      "POST",
      "/api/v1/me/two-factor/confirm",
      { code: totpCode(secret, nowMs) },
      bearer(token),
    );
    const noCode = await walletSignIn();
    expect(noCode.json().error).toBe("two_factor_required");
    nowMs += 30_000;
    const withCode = await walletSignIn(totpCode(secret, nowMs));
    expect(withCode.statusCode, withCode.body).toBe(200);
    const wrong = await walletSignIn("999999");
    expect(wrong.json().error).toBe("two_factor_invalid");
  });

  it("refuses malformed input", async () => {
    const token = await register("tfa6@example.com");
    for (const code of ["12345", "1234567", "abcdef", "", "١٢٣٤٥٦", "123456\n"]) {
      const response = await call("POST", "/api/v1/me/two-factor/confirm", { code }, bearer(token));
      expect(response.statusCode, code).toBe(400);
    }
    for (const sessionId of ["x", "0".repeat(25), "../../etc", "G".repeat(24)]) {
      const response = await call(
        "DELETE",
        `/api/v1/me/sessions/${encodeURIComponent(sessionId)}`,
        undefined,
        bearer(token),
      );
      expect(response.statusCode, sessionId).toBe(400);
    }
    const extra = await call("POST", "/api/v1/auth/login", {
      account: "tfa6@example.com",
      password: "secret123",
      totpCode: "x".repeat(200),
    });
    expect(extra.statusCode).toBe(400);
    for (const url of ["/api/v1/me/two-factor", "/api/v1/me/sessions"]) {
      expect((await call("GET", url)).statusCode).toBe(401);
      expect((await call("GET", url, undefined, bearer(operatorToken))).statusCode).toBe(401);
    }
  });
});
