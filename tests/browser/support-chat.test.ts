import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../../apps/server/src/modules/auth/totp.ts";
import {
  artifactsDir,
  launchBrowser,
  mobileViewport,
  removeDataDir,
  startServer,
  type ServerProcess,
} from "../harness.ts";

/**
 * Issue 23's chat scenario with two browsers: a user (phone layout) and a support operator (the
 * back office, signed in as a named operator of the `support` role) exchange messages live over
 * the WebSocket; the unread badge and the desk's unread counts follow; then the server restarts
 * on the same port, both pages reconnect on their own, the history is all there and the next
 * answer arrives live again.
 */

const operatorToken = "operator-token-support-chat-0123";
const serverEnv = {
  OPERATOR_TOKEN: operatorToken,
  CAPTCHA: "off",
  PASSWORD_COST: "12",
  MARKET_BACKFILL_DAYS: "1",
};
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
let userPage: Page;
let deskPage: Page;
/** The first admin's session token (the outbox is admin's once the bootstrap token retires). */
let adminToken = "";

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** No serious or critical axe violations on the page (after transitions have finished). */
async function expectAccessible(page: Page, screen: string) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => null)),
    ),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(c: string): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run("html");
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(violations, screen).toEqual([]);
}

const poll = <T>(read: () => Promise<T> | T, timeout = 15_000) =>
  expect.poll(read, { timeout, interval: 200 });

async function api<T>(method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: T; error?: string };
  expect(response.status, `${method} ${url}: ${JSON.stringify(json)}`).toBe(200);
  return json.data;
}

/** A user registered by phone with the texted code from the outbox (bootstrap token). */
async function newUser() {
  const account = `+4670${Date.now() % 10_000_000}`.slice(0, 14);
  await api("POST", "/api/v1/auth/phone-codes", { phone: account, purpose: "register" });
  const outbox = await api<{ emails: { text: string }[] }>(
    "GET",
    `/api/v1/operator/outbox?to=${encodeURIComponent(account)}&limit=1`,
    undefined,
    operatorToken,
  );
  const phoneCode = /\b(\d{6})\b/.exec(outbox.emails[0]!.text)![1]!;
  return api<{ token: string; user: { id: string; username: string } }>(
    "POST",
    "/api/v1/auth/register",
    {
      account,
      password: "correct horse 1",
      passwordConfirm: "correct horse 1",
      phoneCode,
      agreement: true,
    },
  );
}

interface Enrolment {
  totpSecret: string;
  operator: { id: string };
}

/**
 * A named operator of role `support`, signed in: the first admin (bootstrap token) creates it.
 * Each operator confirms its authenticator with this step's code and signs in with the next
 * step's (accepted as clock drift), so no test waits for a step to pass.
 */
async function supportOperator() {
  const password = "operator password 1";
  const code = (secret: string, aheadSteps: number) =>
    totpCode(secret, Date.now() + aheadSteps * 30_000);
  const enrolAndSignIn = async (email: string, enrolment: Enrolment) => {
    await api("POST", "/api/v1/operator/totp/confirm", {
      email,
      password,
      code: code(enrolment.totpSecret, 0),
    });
    return api<{
      token: string;
      expiresAt: string;
      operator: { id: string; email: string; displayName: string; role: string };
    }>("POST", "/api/v1/operator/sign-in", {
      email,
      password,
      code: code(enrolment.totpSecret, 1),
    });
  };
  const adminEmail = "admin@support-chat.test";
  const admin = await enrolAndSignIn(
    adminEmail,
    await api<Enrolment>(
      "POST",
      "/api/v1/operator/bootstrap",
      { email: adminEmail, displayName: "Ada Admin", password },
      operatorToken,
    ),
  );
  const supportEmail = "sam@support-chat.test";
  const created = await api<Enrolment>(
    "POST",
    "/api/v1/operator/accounts",
    {
      email: supportEmail,
      displayName: "Sam Support",
      password,
      role: "support",
      reason: "support desk for the chat test",
    },
    admin.token,
  );
  adminToken = admin.token;
  return enrolAndSignIn(supportEmail, created);
}

async function newPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: "en" });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem("candor.locale", "en"));
  return { context, page };
}

/** Sends a message from the user's #/support page. */
async function userSends(text: string) {
  await userPage.getByRole("textbox", { name: "Type your message" }).fill(text);
  await userPage.getByTestId("support-send").click();
  await poll(() => userPage.getByTestId("support-message").last().textContent()).toContain(text);
}

/** Sends an answer from the open conversation on the desk. */
async function deskAnswers(text: string) {
  await deskPage.getByTestId("admin-support-input").fill(text);
  await deskPage.getByTestId("admin-support-send").click();
  await poll(() => deskPage.getByTestId("admin-support-message").last().textContent()).toContain(
    text,
  );
}

/** Sends a 72 × 48 JPEG from the open conversation on the desk. */
async function deskSendsImage() {
  const buffer = await sharp({
    create: { width: 72, height: 48, channels: 3, background: { r: 200, g: 120, b: 20 } },
  })
    .jpeg()
    .toBuffer();
  await deskPage
    .getByTestId("admin-support-image-input")
    .setInputFiles({ name: "steps.jpg", mimeType: "image/jpeg", buffer });
}

const badge = () => userPage.getByTestId("support-unread");

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ env: serverEnv, startTimeoutMs: 170_000 }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server.dataDir);
});

afterEach(async (test) => {
  if (test.task.result?.state !== "fail") return;
  console.log(server.output().slice(-4000));
  for (const [name, page] of [
    ["user", userPage],
    ["desk", deskPage],
  ] as const) {
    await page
      ?.screenshot({ path: path.join(artifactsDir, `failed-support-chat-${name}.png`) })
      .catch(() => undefined);
  }
});

describe("support chat", () => {
  it("exchanges messages live between a user and a support operator, with unread counts, across a server restart", async () => {
    // Users first: the bootstrap token (outbox) retires once a named operator exists.
    const user = await newUser();
    const operator = await supportOperator();
    expect(operator.operator.role).toBe("support");

    // The user, signed in the way the app keeps it (cookie + cached user), on the settings page.
    ({ page: userPage } = await newPage(mobileViewport));
    await userPage
      .context()
      .addCookies([{ name: "candor_session", value: user.token, url: server.url, httpOnly: true }]);
    await userPage.goto(`${server.url}/#/settings`);
    await userPage.evaluate((u) => {
      const entry = JSON.stringify({
        value: { id: u.id, username: u.username, is_virtual: 0 },
        startMs: Date.now(),
        lifetimeSeconds: 604_800,
      });
      localStorage.setItem("candor.userInfo", entry);
    }, user.user);
    await userPage.reload();
    await userPage.getByTestId("support-entry").waitFor();
    expect(await badge().count()).toBe(0);

    // The operator's back office, on the support desk: nothing yet.
    ({ page: deskPage } = await newPage({ width: 1280, height: 900 }));
    await deskPage.addInitScript(
      (session) => sessionStorage.setItem("candor.operatorSession", session),
      JSON.stringify(operator),
    );
    await deskPage.goto(`${server.url}/#/admin/support`);
    await deskPage.getByTestId("admin-menu-support").waitFor();
    await deskPage.getByTestId("admin-empty").waitFor();

    // The user writes; the desk's list shows it live with one unread message.
    await userPage.getByTestId("support-entry").click();
    await userPage.getByTestId("support-empty").waitFor();
    await userSends("Hello, my deposit has not arrived.");
    const item = deskPage.getByTestId("admin-support-conversation");
    await poll(() => item.getAttribute("data-unread")).toBe("1");
    await expect(deskPage.getByTestId("admin-support-item-unread").textContent()).resolves.toBe(
      "1",
    );

    // Opening it shows the user's context and marks it read.
    await item.locator("a").click();
    await deskPage.getByTestId("admin-support-context").waitFor();
    await poll(() => item.getAttribute("data-unread")).toBe("0");
    await expect(deskPage.getByTestId("admin-support-context").textContent()).resolves.toContain(
      "Real money",
    );

    // The user goes elsewhere; the answer raises the badge there, live.
    await userPage.goto(`${server.url}/#/settings`);
    await userPage.getByTestId("support-entry").waitFor();
    await deskAnswers("We are checking it now.");
    await poll(() => badge().textContent()).toBe("1");

    // Opening the chat shows the answer and reads it: the badge is gone afterwards.
    await userPage.getByTestId("support-entry").click();
    await poll(() => userPage.getByTestId("support-message").last().textContent()).toContain(
      "We are checking it now.",
    );
    await poll(async () => {
      const unread = await api<{ unread: number }>(
        "GET",
        "/api/v1/support/unread",
        undefined,
        user.token,
      );
      return unread.unread;
    }).toBe(0);

    // A second message from the user arrives at the open conversation on the desk live.
    await userSends("Thank you. Transfer reference 4711.");
    await poll(() => deskPage.getByTestId("admin-support-message").last().textContent()).toContain(
      "Transfer reference 4711",
    );

    await expectAccessible(userPage, "user's support chat");
    await expectAccessible(deskPage, "support desk");

    // The server restarts on the same port with the same data; both pages stay open.
    const port = new URL(server.url).port;
    const dataDir = server.dataDir;
    await server.stop();
    server = await startServer({
      dataDir,
      env: { ...serverEnv, PORT: port },
      startTimeoutMs: 170_000,
    });
    expect(new URL(server.url).port).toBe(port);

    // The desk answers once its socket is back (the answer goes through HTTP either way); the
    // user's page, reconnected by itself, shows it live with the whole history before it.
    await deskAnswers("Found it: credited after the restart.");
    await poll(
      () => userPage.getByTestId("support-message").last().textContent(),
      60_000,
    ).toContain("Found it: credited after the restart.");
    expect(await userPage.getByTestId("support-message").allTextContents()).toEqual([
      expect.stringContaining("Hello, my deposit has not arrived."),
      expect.stringContaining("We are checking it now."),
      expect.stringContaining("Transfer reference 4711"),
      expect.stringContaining("Found it: credited after the restart."),
    ]);

    // And the user's next message reaches the desk live over the reconnected socket.
    await userSends("Thanks, all good now.");
    await poll(
      () => deskPage.getByTestId("admin-support-message").last().textContent(),
      60_000,
    ).toContain("Thanks, all good now.");
    // A reload of the desk still has the full history (the database, not the socket).
    await deskPage.reload();
    await poll(() => deskPage.getByTestId("admin-support-message").count()).toBe(5);
  }, 400_000);

  it("carries images both ways, the user's to the desk and support's to the user", async () => {
    const png = await sharp({
      create: { width: 60, height: 40, channels: 3, background: { r: 30, g: 160, b: 90 } },
    })
      .png()
      .toBuffer();
    const before = await userPage.getByTestId("support-message").count();
    await userPage
      .getByTestId("support-image")
      .setInputFiles({ name: "screen.png", mimeType: "image/png", buffer: png });
    await poll(() => userPage.getByTestId("support-message").count()).toBe(before + 1);
    const own = userPage.getByTestId("support-message").last().locator("img");
    await poll(() => own.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(60);
    const atDesk = deskPage.getByTestId("admin-support-message").last().locator("img");
    await poll(() => atDesk.evaluate((img: HTMLImageElement) => img.naturalWidth), 30_000).toBe(60);

    // Support answers with an image of its own: it arrives live and shows on the user's page.
    await deskSendsImage();
    await poll(() => userPage.getByTestId("support-message").count(), 30_000).toBe(before + 2);
    const fromSupport = userPage.getByTestId("support-message").last();
    await expect(fromSupport.getAttribute("data-side")).resolves.toBe("operator");
    await poll(() =>
      fromSupport
        .getByTestId("support-message-image")
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(72);
    await expectAccessible(userPage, "user's support chat with support's image");
  });

  it("lets a signed-out visitor write with an e-mail and get the answer live and by e-mail", async () => {
    const { page: visitorPage } = await newPage(mobileViewport);
    await visitorPage.goto(`${server.url}/#/support`);
    const email = `visitor-${Date.now()}@example.com`;
    await visitorPage.getByRole("textbox", { name: "E-mail address" }).fill(email);
    await visitorPage.getByTestId("support-start").click();
    await visitorPage.getByTestId("support-visitor-note").waitFor();
    await visitorPage
      .getByRole("textbox", { name: "Type your message" })
      .fill("Can I open an account from Sweden?");
    await visitorPage.getByTestId("support-send").click();
    await poll(() => visitorPage.getByTestId("support-message").count()).toBe(1);

    const item = deskPage.getByTestId("admin-support-conversation").filter({ hasText: email });
    await poll(() => item.getAttribute("data-unread"), 30_000).toBe("1");
    await item.locator("a").click();
    await poll(() => deskPage.getByTestId("admin-support-message").last().textContent()).toContain(
      "Can I open an account from Sweden?",
    );
    await deskAnswers("Yes: choose Sweden as your country when you register.");

    // Live on the visitor's page, and in the e-mail sent to the address they gave.
    await poll(
      () => visitorPage.getByTestId("support-message").last().textContent(),
      30_000,
    ).toContain("Yes: choose Sweden as your country when you register.");
    // The answer is pushed live before its e-mail is written (the reply awaits the mailer
    // afterwards), so the outbox may lag the page by a moment.
    await poll(async () => {
      const outbox = await api<{ emails: { to: string; text: string }[] }>(
        "GET",
        `/api/v1/operator/outbox?to=${encodeURIComponent(email)}&limit=5`,
        undefined,
        adminToken,
      );
      return outbox.emails[0]?.text ?? "";
    }).toContain("Yes: choose Sweden as your country when you register.");

    // The browser keeps the conversation: a reload shows it again.
    await visitorPage.reload();
    await poll(() => visitorPage.getByTestId("support-message").count()).toBe(2);

    // An image from support shows on the visitor's page too (fetched with the conversation's
    // token, which travels in a header).
    await deskSendsImage();
    await poll(
      () =>
        visitorPage
          .getByTestId("support-message-image")
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      30_000,
    ).toBe(72);
  });
});
