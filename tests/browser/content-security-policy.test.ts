// Issue 14 item 5: the built web app runs under the server's Content-Security-Policy (no inline
// script, no inline style blocks): every screen renders and the browser reports no violation.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { artifactsDir, mobileViewport } from "../harness.ts";
import { connectSharedSuite, type SharedServer } from "./shared-suite.ts";

let server: SharedServer;
let browser: Browser;

// The run's shared server and Chromium (global-setup.ts): nothing here changes what others see.
beforeAll(async () => {
  ({ server, browser } = await connectSharedSuite());
});

afterAll(async () => {
  await browser?.close();
});

/** Opens a page that records every CSP violation (events and console reports). */
async function recordingPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: mobileViewport, locale: "en-US" });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportViolation(text: string): void }).reportViolation;
      report(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return { page, violations };
}

it("serves the app with the policy, and every screen renders without a violation", async () => {
  const { page, violations } = await recordingPage();
  const response = await page.goto(`${server.url}/`);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  for (const hash of [
    "/",
    "/quotation",
    "/trade",
    "/options",
    "/coin-coin",
    "/settings",
    "/notices",
    "/proof",
  ]) {
    await page.goto(`${server.url}/#${hash}`);
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#root *").count(), hash).toBeGreaterThan(5);
  }
  // antd-mobile's popups (the log-in prompt is a Dialog with a mask and animations).
  await page.goto(`${server.url}/#/assets`);
  await page.waitForLoadState("networkidle");
  // A demo session over the live WebSocket streams (connect-src 'self' covers ws: here).
  await page.goto(`${server.url}/#/login`);
  await page.waitForLoadState("networkidle");
  await page.getByTestId("demo-login").click();
  await page.getByTestId("demo-badge").waitFor();
  await page.goto(`${server.url}/#/coin-coin`);
  // Live prices over the WebSocket, and the chart's canvas.
  await expect.poll(() => page.getByTestId("last-price").textContent()).toMatch(/\d/);
  // The chart is a collapsible panel (issue 18): open it.
  await page.getByTestId("chart-toggle").click();
  await page.getByTestId("price-chart").locator("canvas").first().waitFor();
  await page.screenshot({ path: path.join(artifactsDir, "content-security-policy.png") });
  expect(violations).toEqual([]);
  await page.context().close();
});

it("a page that tries inline script is blocked (the policy is in force)", async () => {
  const { page, violations } = await recordingPage();
  await page.goto(`${server.url}/`);
  await page.waitForLoadState("networkidle");
  const ran = await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__inlineRan = true";
    document.body.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  await page.context().close();
});
