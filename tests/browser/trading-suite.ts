// Shared scaffolding of the browser tests that trade (Coin-Coin, Assets): one real server with
// an operator token and no captcha, one Chromium, a fresh browser context per test, and helpers
// to register, sign in and fund users through the API. `server` and `page` are live bindings.
import { readFileSync } from "node:fs";
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

const root = path.resolve(import.meta.dirname, "../..");
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export function texts(locale: string) {
  return JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), "utf8"));
}

export const operatorToken = "operator-token-for-browser-tests";
/** The suite server's withdrawal-address lock. */
export const withdrawAddressLockMs = 3_000;
export let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
export let page: Page;

/** Registers the suite's hooks; call once at the top of a test file (`env`: extra settings). */
export function useTradingSuite(env: Record<string, string> = {}) {
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        env: {
          OPERATOR_TOKEN: operatorToken,
          CAPTCHA: "off",
          PASSWORD_COST: "12",
          // Saved withdrawal addresses wait 3 s instead of 24 h, so a test can pass the lock.
          WITHDRAW_ADDRESS_LOCK_MS: String(withdrawAddressLockMs),
          BANK_ACCOUNT_NUMBER: "DE89 3704 0044 0532 0130 00",
          BANK_ACCOUNT_NAME: "Candor Test Ltd",
          BANK_NAME: "Example Bank",
          // Test deposits come from the one bootstrap token; the two-operator rule for manual
          // adjustments (USDT:10000 by default) is tested in admin and operator tests.
          ADJUSTMENT_TWO_APPROVALS_ABOVE: "none",
          ...env,
        },
        startTimeoutMs: 170_000,
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

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

export async function api<T>(method: string, url: string, given?: unknown, token?: string) {
  // Every mutating operator call carries a reason (issue 17); the suite gives one when absent.
  const body = operatorPayload(method, url, given).payload;
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Envelope<T> };
}

export interface SessionData {
  token: string;
  user: { id: string; username: string; nickname: string; isVirtual: boolean };
}

let phoneCounter = 0;
/** A new user by phone, confirmed by the texted code from the outbox (the captcha is off here). */
export async function newUser(inviteCode?: string): Promise<SessionData> {
  phoneCounter += 1;
  const account = `+4670${Date.now() % 1_000_000}${phoneCounter}`.slice(0, 14);
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

export async function credit(ownerId: string, assetId: string, amount: string) {
  const answer = await api(
    "POST",
    "/api/v1/operator/deposits",
    {
      id: `browser-test-${ownerId}-${assetId}-${Date.now()}`,
      ownerId,
      assetId,
      amount,
      reference: "browser test deposit",
    },
    operatorToken,
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}
