import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  expectAccessible,
  newUser,
  open,
  operatorToken,
  page,
  poll,
  signIn,
  texts,
  type SessionData,
  useSharedTradingSuite,
} from "./trading-suite.ts";

/**
 * Issue 23's side page and home sections: the home header opens the side page, whose shortcuts
 * each open their page (signed out it offers log-in and registration instead of the account
 * ones); the home page shows the session mode's current deposit-bonus activity and the invite
 * banner, in Japanese, for a real and a demo session; the stock screen shows its symbol's news.
 */
useSharedTradingSuite();

const hash = () => new URL(page.url()).hash;

/** Defines an activity open now in `mode` and funds its bonus (the suite's bootstrap token). */
async function defineActivity(mode: "real" | "demo", activityId: string, bonus: string) {
  const defined = await api(
    "PUT",
    "/api/v1/operator/activities",
    {
      activityId,
      mode,
      asset: "USDT",
      minDeposit: "100",
      bonus,
      capacity: 4,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      reason: "browser test campaign",
    },
    operatorToken,
  );
  expect(defined.status, JSON.stringify(defined.json)).toBe(200);
  const funded = await api(
    "POST",
    "/api/v1/operator/activities/fund",
    {
      id: `fund-${activityId}`,
      mode,
      asset: "USDT",
      amount: bonus,
      ...(mode === "real" ? { reference: `bank-${activityId}` } : {}),
      reason: "browser test campaign",
    },
    operatorToken,
  );
  expect(funded.status, JSON.stringify(funded.json)).toBe(200);
}

describe("side page and home sections", () => {
  const jp = texts("jp");

  it("opens the side page from the home header; each shortcut opens its page (jp)", async () => {
    // Signed out: log-in and registration, the shortcuts anyone may open, the invite banner
    // leads to registration.
    await open("/", "jp");
    await page.getByTestId("home-invite").waitFor();
    expect(await page.getByTestId("home-invite").textContent()).toContain(
      jp.invite.bannerSignedOut,
    );
    await page.getByTestId("nav-side").click();
    await poll(hash).toBe("#/side");
    await page.getByTestId("side-signed-out").waitFor();
    expect(await page.getByTestId("side-security").count()).toBe(0);
    expect(await page.locator(".nav-bar-title").textContent()).toBe("");
    await expectAccessible("side page signed out");
    await page.getByTestId("side-news").click();
    await poll(hash).toBe("#/news");
    await page.goto(page.url().replace(/#.*$/, "#/"));
    await page.getByTestId("home-invite").click();
    await poll(hash).toBe("#/register");

    const user = await newUser();
    await open("/", "jp");
    await signIn(user);
    await page.getByTestId("nav-side").click();
    await page.getByTestId("side-account").waitFor();
    expect(await page.getByTestId("side-account").textContent()).toContain(
      jp.side.userId.replace("{{id}}", user.user.id),
    );
    expect(await page.getByTestId("side-account").textContent()).toContain(jp.mode.real);
    await expectAccessible("side page signed in");
    await page.screenshot({ path: path.join(artifactsDir, "side-jp.png"), fullPage: true });
    const shortcuts: [string, string][] = [
      ["security", "#/security"],
      ["identity", "#/identity"],
      ["invite", "#/invite"],
      ["vip", "#/vip"],
      ["activity", "#/activity"],
      ["statement", "#/assets/statement"],
      ["notices", "#/notices"],
      ["news", "#/news"],
      ["settings", "#/settings"],
      ["support", "#/support"],
    ];
    for (const [key, target] of shortcuts) {
      await page.goto(page.url().replace(/#.*$/, "#/side"));
      const entry = page.getByTestId(`side-${key}`);
      expect(await entry.textContent(), key).toContain(jp.side.shortcuts[key]);
      await entry.click();
      await poll(hash).toBe(target);
    }
    // The language is chosen on the side page itself.
    await page.goto(page.url().replace(/#.*$/, "#/side"));
    await page.getByTestId("side-language").selectOption("de");
    await poll(() => page.getByTestId("side-support").textContent()).toContain(
      texts("de").side.shortcuts.support,
    );
  }, 120_000);

  it("shows the current activity and the invite banner on home, real and demo (jp)", async () => {
    const stamp = Date.now();
    await defineActivity("real", `home-real-${stamp}`, "7");
    await defineActivity("demo", `home-demo-${stamp}`, "9");

    const user = await newUser();
    await open("/", "jp");
    await signIn(user);
    await page.getByTestId("home-activities").waitFor();
    const real = page.getByTestId("home-activity").filter({ hasText: "7 USDT" });
    await real.waitFor();
    expect(await real.textContent()).toContain(jp.activity.state.bookable);
    // Demo activities are not shown to a real session.
    expect(await page.getByTestId("home-activity").filter({ hasText: "9 USDT" }).count()).toBe(0);
    expect(await page.getByTestId("home-invite").textContent()).toContain(jp.invite.bannerTitle);
    expect(await page.getByTestId("home-invite").textContent()).toContain(jp.invite.bannerText);
    await expectAccessible("home with activity and invite banner");
    await page.screenshot({ path: path.join(artifactsDir, "home-jp.png"), fullPage: true });
    await real.click();
    await poll(hash).toBe("#/activity");
    await page.goto(page.url().replace(/#.*$/, "#/"));
    await page.getByTestId("home-invite").click();
    await poll(hash).toBe("#/invite");

    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await open("/", "jp");
    await signIn(demo.json.data, true);
    const demoActivity = page.getByTestId("home-activity").filter({ hasText: "9 USDT" });
    await demoActivity.waitFor();
    expect(await demoActivity.textContent()).toContain(jp.activity.state.bookable);
    expect(await page.getByTestId("home-activity").filter({ hasText: "7 USDT" }).count()).toBe(0);
  }, 120_000);

  it("shows the news about a stock on its screen, and says when there is none (jp)", async () => {
    const published = await api(
      "POST",
      "/api/v1/operator/news",
      {
        category: "stocks",
        symbol: "AAPL",
        texts: {
          en: { title: "Apple results", body: "Quarterly figures." },
          jp: { title: "アップル決算", body: "四半期の数字。" },
        },
      },
      operatorToken,
    );
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    await open("/stocks/AAPL", "jp");
    await poll(() => page.getByTestId("stock-news").textContent()).toContain("アップル決算");
    expect(await page.getByTestId("stock-news-none").count()).toBe(0);
    await open("/stocks/MSFT", "jp");
    await poll(() => page.getByTestId("stock-news-none").textContent()).toBe(jp.stocks.noNews);
  }, 60_000);
});
