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

const root = path.resolve(import.meta.dirname, "../..");
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** The web app's texts of a locale, to check what the screen shows. */
function texts(locale: string) {
  return JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), "utf8"));
}

const operatorToken = "operator-token-web-0123456789";
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    // The captcha is on: the browser solves its proof of work as a user's would (a small cost
    // keeps it quick). The outbox (read with the operator token) holds the e-mailed codes.
    startServer({
      env: {
        OPERATOR_TOKEN: operatorToken,
        CAPTCHA: "required",
        CAPTCHA_COST: "50000",
        PASSWORD_COST: "12",
        // One day of simulated history starts the server in seconds even on a busy machine.
        MARKET_BACKFILL_DAYS: "1",
      },
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
  if (test.task.result?.state === "fail" && page) {
    await page.screenshot({
      path: path.join(artifactsDir, `failed-${test.task.suite?.name ?? ""} ${test.task.name}.png`),
    });
  }
  await context?.close();
  context = undefined;
});

async function open(hash = "/", locale = "en-US") {
  context = await browser.newContext({ viewport: mobileViewport, locale });
  page = await context.newPage();
  await page.goto(`${server.url}/#${hash}`);
  return page;
}

/** The input whose accessible name is `label` (antd-mobile labels point at the item too). */
const input = (label: string) => page.locator(`input[aria-label="${label}"]`);

const hashPath = () => page.evaluate(() => window.location.hash.slice(1).split("?")[0]);

/**
 * Polls for up to 15 s (as the suite's other files): pages load lazily and the server answers
 * over real HTTP, on a loaded CI machine too.
 */
const poll = <T>(read: () => Promise<T> | T, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 15_000, ...options });

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

/**
 * axe-core on the current screen (or on `context`, e.g. an open dialog, whose background is
 * covered and inert): no serious or critical violation.
 */
async function expectAccessible(screen: string, context = "html") {
  // Toasts fade out; axe would measure their text halfway transparent.
  await page.waitForFunction(() => !document.querySelector(".adm-toast-mask"), undefined, {
    timeout: 15_000,
  });
  // Likewise a dialog fading in or a button fading to enabled: measure once every running
  // transition has finished, however long a loaded machine takes to run it.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => null)),
    ),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(c: string): Promise<AxeResult> } }).axe;
    const result = await axe.run(selector);
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, context);
  expect(violations, screen).toEqual([]);
}

describe.each([
  ["en", "English"],
  ["de", "Deutsch"],
  ["ru", "Русский"],
])("in %s", (locale) => {
  const t = texts(locale);

  it("changes language in settings, then shows home, quotes and settings translated", async () => {
    await open("/settings");
    await page.getByTestId("language-select").waitFor();
    await page.getByTestId("language-select").selectOption(locale);
    await poll(() => page.locator("#settings-title").textContent()).toBe(t.settings.title);
    await expectAccessible(`settings ${locale}`);
    await page.screenshot({ path: path.join(artifactsDir, `settings-${locale}.png`) });

    // Settings was the only page: back goes home (spec §2). Home shows the welcome notice.
    await page.getByTestId("nav-back").click();
    await poll(() => page.getByTestId("home-title").textContent()).toBe(t.home.title);
    await poll(() => page.getByTestId("notices-strip").textContent()).toContain(
      locale === "en"
        ? "Welcome to Candor"
        : locale === "de"
          ? "Willkommen bei Candor"
          : "Добро пожаловать в Candor",
    );
    await page.getByText(t.home.overview).waitFor();
    await expectAccessible(`home ${locale}`);
    await page.screenshot({ path: path.join(artifactsDir, `home-${locale}.png`) });

    await page.getByText(t.home.entries.quotation, { exact: true }).first().click();
    await poll(() => page.locator("#quotation-title").textContent()).toBe(t.markets.title);
    // Either real instruments from the market API or an honest error: never made-up rows.
    await expect
      .poll(
        async () =>
          (await page.getByTestId("instrument-row").count()) > 0 ||
          (await page.getByTestId("error-state").count()) > 0,
      )
      .toBe(true);
    if ((await page.getByTestId("error-state").count()) > 0) {
      expect(await page.getByTestId("instrument-row").count()).toBe(0);
    } else {
      // The embedded feed is the simulator, and the screen says so.
      await page.getByTestId("simulated-label").waitFor();
      expect(await page.getByTestId("simulated-label").textContent()).toBe(t.markets.simulated);
    }
    await expectAccessible(`quotation ${locale}`);
    await page.screenshot({ path: path.join(artifactsDir, `quotation-${locale}.png`) });
  });

  it("registers with an e-mailed code, logs out and in, changes language, switches to demo, logs out", async () => {
    const email = `web-${locale.toLowerCase()}@example.com`;
    const password = `Passw0rd-${locale}`;
    const en = texts("en");
    await open("/");
    await page.getByTestId("notices-strip").waitFor();

    // Register: home → login → register; the code comes from the server's outbox.
    await page.getByText(en.home.signIn).click();
    await page.getByRole("link", { name: en.auth.login.toRegister, exact: true }).click();
    await page.locator("#register-title").waitFor();
    await input(en.auth.fields.email).fill(email);
    await page.getByTestId("send-code").click();
    await page.getByText(en.auth.fields.codeSent).waitFor();
    const outbox = await fetch(`${server.url}/api/v1/operator/outbox?to=${email}`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    }).then((r) => r.json() as Promise<{ data: { emails: { text: string }[] } }>);
    const code = /\b(\d{6})\b/.exec(outbox.data.emails[0]!.text)![1]!;
    await input(en.auth.fields.code).fill(code);
    await input(en.auth.fields.password).fill(password);
    await input(en.auth.fields.passwordConfirm).fill(password);
    await page.getByTestId("agreement").click();
    await page.getByRole("button", { name: en.auth.register.submit }).click();
    // Signed in, back on the last page outside the login flow: home.
    await poll(hashPath).toBe("/");
    await page.getByText(en.home.signIn).waitFor({ state: "detached" });

    // Log out from settings, then log in with the new password.
    await page.getByText(en.home.entries.settings, { exact: true }).click();
    await page.getByTestId("profile-name").waitFor();
    expect(await page.getByTestId("profile-name").textContent()).not.toBe("");
    await page.getByRole("button", { name: en.settings.logout }).click();
    await page.getByRole("button", { name: en.common.confirm }).click();
    await poll(hashPath).toBe("/");
    // Five wrong passwords lock the account behind a captcha; the app solves it by itself.
    for (let i = 0; i < 5; i++) {
      const wrong = await fetch(`${server.url}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: email, password: `wrong-${i}-password` }),
      }).then((r) => r.json() as Promise<{ error: string }>);
      expect(wrong.error).toBe("invalid_credentials");
    }
    await page.getByText(en.home.signIn).click();
    await input(en.auth.fields.account).fill(email);
    await input(en.auth.fields.password).fill(password);
    await page.getByRole("button", { name: en.auth.login.submit }).first().click();
    await poll(hashPath).toBe("/");
    // The session is an HttpOnly cookie; nothing a script can read holds its token.
    const sessionCookie = (await page.context().cookies()).find(
      (cookie) => cookie.name === "candor_session",
    );
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(sessionCookie!.value);
    expect(await page.evaluate(() => document.cookie)).not.toContain("candor_session");

    // Change the nickname, then the language; home is translated.
    await page.getByText(en.home.entries.settings, { exact: true }).click();
    await page.getByTestId("nickname-item").click();
    await input(en.settings.nickname).fill(`Trader ${locale}`);
    await page.getByTestId("nickname-save").click();
    await poll(() => page.getByTestId("nickname-item").textContent()).toContain(`Trader ${locale}`);
    await page.getByTestId("language-select").selectOption(locale);
    await poll(() => page.locator("#settings-title").textContent()).toBe(t.settings.title);
    await page.getByTestId("nav-back").click();
    await poll(() => page.getByTestId("home-title").textContent()).toBe(t.home.title);
    expect(await page.getByTestId("demo-badge").count()).toBe(0);

    // Switch to demo: the badge shows on every screen.
    await page.getByText(t.home.entries.settings, { exact: true }).click();
    await page.getByTestId("mode-switch").click();
    await page.getByTestId("demo-badge").waitFor();
    expect(await page.getByTestId("demo-badge").textContent()).toBe(t.mode.demoBadge);
    await expectAccessible(`settings demo ${locale}`);
    await page.screenshot({ path: path.join(artifactsDir, `settings-demo-${locale}.png`) });
    await page.getByTestId("nav-back").click();
    await page.getByTestId("home-title").waitFor();
    await page.getByTestId("demo-badge").waitFor();
    await page.getByText(t.home.entries.quotation, { exact: true }).click();
    await page.locator("#quotation-title").waitFor();
    await page.getByTestId("demo-badge").waitFor();

    // Log out: the badge and the session are gone.
    await page.getByTestId("nav-back").click();
    await page.getByText(t.home.entries.settings, { exact: true }).click();
    await page.getByRole("button", { name: t.settings.logout }).click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(hashPath).toBe("/");
    await page.getByText(t.home.signIn).waitFor();
    expect(await page.getByTestId("demo-badge").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("candor.token"))).toBeNull();
  });

  it("asks to confirm the agreement before registering, in the same language", async () => {
    await open("/settings");
    await page.getByTestId("language-select").selectOption(locale);
    await page.goto(`${server.url}/#/register`);
    await expect
      .poll(() => page.locator("#register-title").textContent())
      .toBe(t.auth.register.title);
    await input(t.auth.fields.email).fill("someone@example.com");
    await input(t.auth.fields.code).fill("123456");
    await input(t.auth.fields.password).fill("correct horse 1");
    await input(t.auth.fields.passwordConfirm).fill("correct horse 1");
    await page.getByRole("button", { name: t.auth.register.submit }).click();
    await page.getByText(t.auth.register.confirmAgreement).waitFor();
    await expectAccessible(`register ${locale}`);
  });
});

describe("navigation rules (spec §2)", () => {
  it("redirects the spec's paths to readable routes", async () => {
    await open("/pages/assets/shezhi");
    await poll(hashPath).toBe("/settings");
    await page.goto(`${server.url}/#/pages/index/quotation?tab=stock`);
    await expect
      .poll(() => page.evaluate(() => window.location.hash))
      .toBe("#/quotation?tab=stock");
    await page.goto(`${server.url}/#/pages/login/login`);
    await poll(hashPath).toBe("/login");
  });

  it("goes home on back from the only page", async () => {
    await open("/quotation");
    await page.locator("#quotation-title").waitFor();
    await page.getByTestId("nav-back").click();
    await poll(hashPath).toBe("/");
  });

  it("goes back from login to the previous page outside the login flow", async () => {
    await open("/");
    await page.getByTestId("notices-strip").waitFor();
    await page.evaluate(() => (window.location.hash = "#/quotation"));
    await poll(hashPath).toBe("/quotation");
    await page.evaluate(() => (window.location.hash = "#/login"));
    await page.locator("#login-title").waitFor();
    await page.getByRole("link", { name: "Create an account", exact: true }).click();
    await page.locator("#register-title").waitFor();
    await page.getByText("I already have an account").click();
    await page.locator("#login-title").waitFor();
    await page.getByTestId("nav-back").click();
    await poll(hashPath).toBe("/quotation");
  });

  it("returns to a top-level page already in the history instead of stacking it", async () => {
    await open("/");
    await page.getByTestId("home-title").waitFor();
    const lengthBefore = await page.evaluate(() => window.history.length);
    await page.getByText("Coin-Coin", { exact: true }).click();
    await poll(hashPath).toBe("/coin-coin");
    // The shell has taken the new page (the active tab follows the router's location).
    await page.locator(".adm-tab-bar-item-active", { hasText: "Coin-Coin" }).waitFor();
    await page.getByText("Home", { exact: true }).click();
    await poll(hashPath).toBe("/");
    // Home was found one step back: the history did not grow a second home entry.
    expect(await page.evaluate(() => window.history.length)).toBe(lengthBefore + 1);
    expect(await page.evaluate(() => (window.history.state as { idx: number }).idx)).toBe(0);
  });

  it("asks to log in on a protected page and goes to login when accepted", async () => {
    await open("/");
    await page.getByTestId("home-title").waitFor();
    await page.getByText("Assets", { exact: true }).click();
    await page.getByText("You are not logged in, do you want to log in?").waitFor();
    // The dialog and its mask fade in (react-spring, not CSS animations): check contrast once
    // both are opaque, however long a loaded machine takes, not after a fixed 500 ms.
    await poll(() =>
      page.evaluate(() =>
        [
          ...document.querySelectorAll(
            ".adm-dialog .adm-center-popup-wrap > div, .adm-dialog .adm-mask",
          ),
        ]
          .map((element) => getComputedStyle(element).opacity)
          .join(),
      ),
    ).toBe("1,1");
    await expectAccessible("login prompt", ".adm-dialog");
    await page.getByRole("button", { name: "Log in" }).click();
    await poll(hashPath).toBe("/login");
  });

  it("goes back when the log-in prompt is declined", async () => {
    await open("/");
    await page.getByTestId("home-title").waitFor();
    await page.getByText("Assets", { exact: true }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await poll(hashPath).toBe("/");
  });
});

describe("sign-in screens", () => {
  it("offers the wallet info page when no wallet is injected, and e-mail login stays", async () => {
    await open("/wallet");
    await page.getByTestId("no-wallet").waitFor();
    await expectAccessible("wallet");
    await page.getByRole("link", { name: "What is a wallet?" }).click();
    await poll(hashPath).toBe("/wallet/info");
    await page.getByText("Your recovery phrase (seed phrase) or private key.").waitFor();
    await page.getByRole("link", { name: "Log in with e-mail instead" }).click();
    await poll(hashPath).toBe("/login");
    await expectAccessible("login");
  });

  it("shows the server's message as a toast when login fails", async () => {
    await open("/login");
    await input("Account").fill("nobody@example.com");
    await input("Password").fill("wrong password");
    await page.getByRole("button", { name: "Log in" }).first().click();
    // The server's refusal is said in a text toast (a "Please wait..." loading toast may still be
    // showing beside it, so the text toast is picked by its class and message).
    await page
      .locator(".adm-toast-main-text", { hasText: "The account or password is incorrect" })
      .waitFor();
    expect(await hashPath()).toBe("/login");
  });

  it("shows the demo badge on every screen while a demo user is signed in", async () => {
    await open("/");
    // A real demo session (a made-up token is signed out by the first 401, racing the check),
    // cached as a demo sign-in leaves it (spec §3: userInfo.is_virtual = 1).
    const answer = await fetch(`${server.url}/api/v1/auth/demo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as {
      data: { token: string; user: { id: string; username: string } };
    };
    await context!.addCookies([
      { name: "candor_session", value: data.token, url: server.url, httpOnly: true },
    ]);
    await page.evaluate((user) => {
      const entry = (value: unknown) =>
        JSON.stringify({ value, startMs: Date.now(), lifetimeSeconds: 604_800 });
      localStorage.setItem("candor.userInfo", entry({ ...user, is_virtual: 1 }));
    }, data.user);
    await page.reload();
    for (const hash of ["/", "/quotation", "/settings", "/notices", "/coin-coin"]) {
      await page.goto(`${server.url}/#${hash}`);
      await page.getByTestId("demo-badge").waitFor();
    }
    await page.screenshot({ path: path.join(artifactsDir, "demo-badge-cached.png") });
  });

  it("drops a cached session older than 7 days", async () => {
    await open("/");
    await page.evaluate(() => {
      const old = (value: unknown) =>
        JSON.stringify({ value, startMs: Date.now() - 8 * 86_400_000, lifetimeSeconds: 604_800 });
      localStorage.setItem("candor.token", old("t"));
      localStorage.setItem("candor.userInfo", old({ id: "1", username: "u", is_virtual: 1 }));
    });
    await page.goto(`${server.url}/#/settings`);
    await page.getByText("You are not logged in.").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("candor.token"))).toBeNull();
  });
});
