import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  artifactsDir,
  launchBrowser,
  mobileViewport,
  removeDataDir,
  startServer,
  type ServerProcess,
} from "../harness.ts";

/**
 * The Assets screen against a real server (issue 8): a user funded by an operator deposit sees
 * the balance, the statement link opens the statement, and the page passes axe.
 */
const root = path.resolve(import.meta.dirname, "../..");
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

function texts(locale: string) {
  return JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), "utf8"));
}

const operatorToken = "operator-token-for-assets-tests";
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      env: { OPERATOR_TOKEN: operatorToken, CAPTCHA: "off", PASSWORD_COST: "12" },
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

async function open(hash: string, locale: string) {
  context = await browser.newContext({ viewport: mobileViewport, locale });
  page = await context.newPage();
  await page.addInitScript((value) => localStorage.setItem("candor.locale", value), locale);
  await page.goto(`${server.url}/#${hash}`);
  return page;
}

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

async function expectAccessible(screen: string) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: string): Promise<AxeResult> } }).axe;
    const result = await axe.run("html");
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(violations, screen).toEqual([]);
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(method: string, url: string, body?: unknown, token?: string) {
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

interface SessionData {
  token: string;
  user: { id: string; username: string; nickname: string; isVirtual: boolean };
}

let phoneCounter = 0;
async function newUser(): Promise<SessionData> {
  phoneCounter += 1;
  const account = `+4671${Date.now() % 1_000_000}${phoneCounter}`.slice(0, 14);
  const answer = await api<SessionData>("POST", "/api/v1/auth/register", {
    account,
    password: "correct horse 1",
    passwordConfirm: "correct horse 1",
    agreement: true,
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.data;
}

async function signIn(session: SessionData, demo = false) {
  await page.evaluate(
    ({ token, user, demo }) => {
      const entry = (value: unknown) =>
        JSON.stringify({ value, startMs: Date.now(), lifetimeSeconds: 604_800 });
      localStorage.setItem("candor.token", entry(token));
      localStorage.setItem(
        "candor.userInfo",
        entry({ id: user.id, username: user.username, is_virtual: demo ? 1 : 0 }),
      );
    },
    { token: session.token, user: session.user, demo },
  );
  await page.reload();
}

async function credit(ownerId: string, assetId: string, amount: string) {
  const answer = await api(
    "POST",
    "/api/v1/operator/deposits",
    {
      id: `assets-test-${ownerId}-${assetId}-${Date.now()}`,
      ownerId,
      assetId,
      amount,
      reference: "assets browser test deposit",
    },
    operatorToken,
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

describe.each([["en"], ["de"]])("Assets in %s", (locale) => {
  const t = texts(locale);

  it("asks to log in when signed out", async () => {
    await open("/assets", locale);
    await poll(() => page.getByText(t.auth.notLoggedIn).count()).toBeGreaterThan(0);
  });

  it("shows the funded balance, links to the statement and passes axe", async () => {
    const session = await newUser();
    await credit(session.user.id, "USDT", "1234.5");
    await open("/assets", locale);
    await signIn(session);
    const row = page.getByTestId("asset-row-USDT");
    await row.waitFor();
    // 1234.5 in the locale's digits: "1,234.5" in English, "1.234,5" in German.
    const shown = locale === "de" ? "1.234,5" : "1,234.5";
    await poll(() => row.textContent()).toContain(shown);
    await poll(() => page.getByTestId("assets-deposit-note").textContent()).toBe(
      t.assets.depositNote,
    );
    await expectAccessible(`assets ${locale}`);
    await page.screenshot({
      path: path.join(artifactsDir, `assets-${locale}.png`),
      fullPage: true,
    });
    await page.getByTestId("assets-statement-link").click();
    await poll(() => page.evaluate(() => window.location.hash)).toContain("/assets/statement");
    await page.getByRole("heading", { name: t.coinCoin.statement.title }).waitFor();
    await poll(() => page.getByTestId("statement-line").count()).toBeGreaterThan(0);
  });

  it("gives a demo user demo funds, marked as demo", async () => {
    await open("/assets", locale);
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await poll(() => page.getByTestId("assets-mode").textContent()).toContain(t.mode.demoBadge);
    await page.getByTestId("asset-balances").waitFor();
    // Axe before the tap: the transient success toast (antd-mobile) is not part of this page.
    await expectAccessible(`assets demo ${locale}`);
    await page.getByTestId("assets-demo-funds").click();
    await poll(() => page.getByTestId("asset-row-USDT").textContent()).toMatch(/[1-9]/);
  });
});
