import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeDataDir, startServer, type ServerProcess } from "./harness.ts";

/**
 * The whole sign-in story against a real server process, as `npm start` runs it: the same
 * calls as the curl walk-through in docs/auth.md.
 */
const operatorToken = "operator-token-e2e-0123456789";
let server: ServerProcess;

// The test reads nested fields freely; the contract tests check their shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Envelope = { code: number; message: string; data: any; error?: string };

beforeAll(async () => {
  server = await startServer({
    env: { OPERATOR_TOKEN: operatorToken, CAPTCHA: "off", PASSWORD_COST: "12" },
  });
}, 90_000);
afterAll(async () => {
  await server?.stop("SIGTERM");
  if (server) removeDataDir(server.dataDir);
});

async function api(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  lang = "en",
): Promise<{ status: number; json: Envelope }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      "x-lang": lang,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

it("registers by e-mail code, logs in, changes passwords, signs in by wallet and as demo, logs out", async () => {
  const email = "e2e@example.com";
  expect(
    (await api("POST", "/api/v1/auth/email-codes", { email, purpose: "register" })).status,
  ).toBe(200);
  const outbox = await api("GET", `/api/v1/operator/outbox?to=${email}`, undefined, operatorToken);
  const emailCode = /\b(\d{6})\b/.exec(outbox.json.data.emails[0].text)![1];

  const registered = await api("POST", "/api/v1/auth/register", {
    account: email,
    password: "first1234",
    passwordConfirm: "first1234",
    emailCode,
    agreement: true,
  });
  expect(registered.status).toBe(200);

  const login = await api("POST", "/api/v1/auth/login", { account: email, password: "first1234" });
  const token: string = login.json.data.token;
  const me = await api("GET", "/api/v1/me", undefined, token);
  expect(me.json.data).toMatchObject({ username: email, emailVerified: true, isVirtual: false });

  const changed = await api(
    "POST",
    "/api/v1/me/password",
    { currentPassword: "first1234", password: "second1234", passwordConfirm: "second1234" },
    token,
  );
  expect(changed.status).toBe(200);
  expect((await api("GET", "/api/v1/me", undefined, token)).status).toBe(401);
  const newToken: string = changed.json.data.token;
  const trade = await api(
    "PUT",
    "/api/v1/me/trade-password",
    {
      tradePassword: "trade1234",
      tradePasswordConfirm: "trade1234",
      currentTradePassword: "first1234",
    },
    newToken,
  );
  expect(trade.status).toBe(200);
  const verified = await api(
    "POST",
    "/api/v1/me/trade-password/verify",
    { tradePassword: "trade1234" },
    newToken,
  );
  expect(verified.json.data).toEqual({ valid: true });

  const wallet = privateKeyToAccount(
    "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  );
  const nonce = await api("GET", `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=1`);
  const message: string = nonce.json.data.message;
  const walletLogin = await api("POST", "/api/v1/auth/wallet/login", {
    address: wallet.address,
    message,
    signature: await wallet.signMessage({ message }),
    walletType: 2,
  });
  expect(walletLogin.json.data.user).toMatchObject({ kind: "wallet", username: wallet.address });

  const demo = await api("POST", "/api/v1/auth/demo", {});
  expect(demo.json.data.user).toMatchObject({ isVirtual: true, demoOnly: true });
  const refused = await api("PUT", "/api/v1/me/mode", { mode: "real" }, demo.json.data.token, "pt");
  expect(refused.json).toMatchObject({
    code: 403,
    error: "demo_not_allowed",
    message: "Contas simuladas não permitem esta operação",
  });

  for (const session of [newToken, walletLogin.json.data.token, demo.json.data.token]) {
    expect((await api("POST", "/api/v1/auth/logout", {}, session)).status).toBe(200);
    expect((await api("GET", "/api/v1/me", undefined, session)).status).toBe(401);
  }

  const docs = await (await fetch(`${server.url}/api/docs`)).text();
  for (const path of ["/api/v1/auth/register", "/api/v1/auth/wallet/login", "/api/v1/me/mode"]) {
    expect(docs).toContain(path);
  }
}, 60_000);
