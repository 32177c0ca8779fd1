import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  credit,
  expectAccessible,
  newUser,
  open,
  page,
  poll,
  signIn,
  texts,
  useSharedTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * The Assets screen against a real server (issue 8): a user funded by an operator deposit sees
 * the balance, the statement link opens the statement, and the page passes axe.
 */
useSharedTradingSuite();

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
