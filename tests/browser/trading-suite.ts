// Shared scaffolding of the browser tests that trade (Coin-Coin, Assets): a real server with
// an operator token and no captcha, Chromium, a fresh browser context per test, and helpers
// to register, sign in and fund users through the API. `server` and `page` are live bindings.
// `useSharedTradingSuite` uses the server and Chromium that the run shares among such files
// (global-setup.ts); `useTradingSuite` starts a server (with settings of its own) for one file.
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import {
  artifactsDir,
  launchBrowser,
  mobileViewport,
  removeDataDir,
  startServer,
  type ServerProcess,
} from "../harness.ts";
import { operatorPayload } from "../../apps/server/src/testing/operator-reason.ts";
import { connectSharedSuite, type SharedServer } from "./shared-suite.ts";
import { operatorToken, suiteEnv, withdrawAddressLockMs } from "./suite-env.ts";

export { operatorToken, withdrawAddressLockMs };

const root = path.resolve(import.meta.dirname, "../..");
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export function texts(locale: string) {
  return JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), "utf8"));
}

/** The suite's server: this file's own (`useTradingSuite`) or the shared one. */
export let server: SharedServer & { process?: ServerProcess["process"] };
let ownServer: ServerProcess | undefined;
let browser: Browser;
let context: BrowserContext | undefined;
export let page: Page;

/**
 * Registers the suite's hooks with a server of this file's own; call once at the top of a test
 * file (`env`: extra settings). For files that change what other files would see (settings,
 * named operators, lists they read whole) or need settings of their own.
 */
export function useTradingSuite(env: Record<string, string> = {}) {
  beforeAll(async () => {
    [ownServer, browser] = await Promise.all([
      startServer({ env: { ...suiteEnv, ...env }, startTimeoutMs: 170_000 }),
      launchBrowser(),
    ]);
    server = ownServer;
  });

  afterAll(async () => {
    await browser?.close();
    await ownServer?.stop();
    if (ownServer) removeDataDir(ownServer.dataDir);
  });

  registerCleanUp();
}

/**
 * Registers the suite's hooks on the run's shared server and Chromium (global-setup.ts). Only
 * for files whose tests work with users of their own and change nothing another file checks:
 * another file may run on the same server before, after or at the same time.
 */
export function useSharedTradingSuite() {
  beforeAll(async () => {
    ({ server, browser } = await connectSharedSuite());
  });

  afterAll(async () => {
    // Disconnects this file; the shared Chromium stays for the others.
    await browser?.close();
  });

  registerCleanUp();
}

function registerCleanUp() {
  afterEach(async (test) => {
    if (test.task.result?.state === "fail") console.log(server.output().slice(-4000));
    if (test.task.result?.state === "fail" && page) {
      await page.screenshot({ path: path.join(artifactsDir, `failed-${test.task.name}.png`) });
    }
    await context?.close();
    context = undefined;
  });
}

export async function open(
  hash: string,
  locale = "en",
  viewport: { width: number; height: number } = mobileViewport,
) {
  context = await browser.newContext({ viewport, locale });
  page = await context.newPage();
  await page.addInitScript((value) => localStorage.setItem("candor.locale", value), locale);
  await page.goto(`${server.url}/#${hash}`);
  return page;
}

/** The current browser context and page, to come back to after `open` made another. */
export function currentScreen() {
  return { context: context!, page };
}

export function returnTo(screen: { context: BrowserContext; page: Page }) {
  context = screen.context;
  page = screen.page;
}

export const poll = <T>(read: () => Promise<T> | T, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 15_000, ...options });

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

export async function expectAccessible(screen: string, selector = "html") {
  // A toast (antd-mobile) fades out over a few hundred ms and is not part of the screen: axe
  // would measure its contrast half transparent, more often the busier the machine is.
  await poll(() => page.locator(".adm-toast-mask").count()).toBe(0);
  // Likewise a button that was just enabled fades in from its disabled opacity: measure after
  // every running transition has finished.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => null)),
    ),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (target) => {
    const axe = (window as unknown as { axe: { run(c: string): Promise<AxeResult> } }).axe;
    const result = await axe.run(target);
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, selector);
  expect(violations, screen).toEqual([]);
}

interface Envelope<T> {
  code: number;
  error?: string;
  message: string;
  data: T;
}

/**
 * The loopback address this file's API calls come from. On the shared server every file has
 * its own (127.x.y.z all reach 127.0.0.1 on Linux), so the per-address limits (10 registrations
 * an hour) count each file's users as they did with a server per file.
 */
const clientAddress = `127.${1 + randomInt(254)}.${randomInt(256)}.${1 + randomInt(254)}`;

export async function api<T>(method: string, url: string, given?: unknown, token?: string) {
  // Every mutating operator call carries a reason (issue 17); the suite gives one when absent.
  const body = operatorPayload(method, url, given).payload;
  const sent = body === undefined ? undefined : JSON.stringify(body);
  const { status, text } = await new Promise<{ status: number; text: string }>(
    (resolve, reject) => {
      const request = http.request(
        `${server.url}${url}`,
        {
          method,
          localAddress: clientAddress,
          headers: {
            ...(sent === undefined ? {} : { "content-type": "application/json" }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, text }));
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(sent);
    },
  );
  return { status, json: JSON.parse(text) as Envelope<T> };
}

export interface SessionData {
  token: string;
  user: { id: string; username: string; nickname: string; isVirtual: boolean };
}

let phoneCounter = 0;
/**
 * A new user by phone, confirmed by the texted code from the outbox (the captcha is off here).
 * The number is unique on a shared server too: this process, the time and a counter.
 */
export async function newUser(inviteCode?: string): Promise<SessionData> {
  phoneCounter = (phoneCounter + 1) % 100;
  const pid = String(process.pid % 1_000).padStart(3, "0");
  const ms = String(Date.now() % 1_000_000).padStart(6, "0");
  const account = `+4670${pid}${ms}${String(phoneCounter).padStart(2, "0")}`;
  const sent = await api("POST", "/api/v1/auth/phone-codes", {
    phone: account,
    purpose: "register",
  });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  const outbox = await api<{ emails: { text: string }[] }>(
    "GET",
    `/api/v1/operator/outbox?to=${encodeURIComponent(account)}&limit=1`,
    undefined,
    operatorToken,
  );
  const phoneCode = /\b(\d{6})\b/.exec(outbox.json.data.emails[0]!.text)![1]!;
  const answer = await api<SessionData>("POST", "/api/v1/auth/register", {
    account,
    password: "correct horse 1",
    passwordConfirm: "correct horse 1",
    phoneCode,
    agreement: true,
    ...(inviteCode ? { inviteCode } : {}),
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.data;
}

/**
 * Signs the browser in as a session, the way the app keeps it: the server's HttpOnly session
 * cookie, and the user cached for showing (spec §3).
 */
export async function signIn(session: SessionData, demo = false) {
  await context!.addCookies([
    { name: "candor_session", value: session.token, url: server.url, httpOnly: true },
  ]);
  await page.evaluate(
    ({ user, demo }) => {
      const entry = (value: unknown) =>
        JSON.stringify({ value, startMs: Date.now(), lifetimeSeconds: 604_800 });
      localStorage.setItem(
        "candor.userInfo",
        entry({ id: user.id, username: user.username, is_virtual: demo ? 1 : 0 }),
      );
    },
    { user: session.user, demo },
  );
  await page.reload();
}

let creditCounter = 0;
export async function credit(ownerId: string, assetId: string, amount: string) {
  // The id is the deposit's idempotency key: a counter keeps two credits of one asset to one
  // user in the same millisecond two deposits (the same id would be taken as a retry).
  creditCounter += 1;
  const answer = await api(
    "POST",
    "/api/v1/operator/deposits",
    {
      id: `browser-test-${ownerId}-${assetId}-${Date.now()}-${creditCounter}`,
      ownerId,
      assetId,
      amount,
      reference: "browser test deposit",
    },
    operatorToken,
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect((answer.json.data as { duplicate: boolean }).duplicate, "credited, not a retry").toBe(
    false,
  );
}
