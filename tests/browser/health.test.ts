import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { artifactsDir, mobileViewport } from "../harness.ts";
import { connectSharedSuite, type SharedServer } from "./shared-suite.ts";

let server: SharedServer;
let browser: Browser;
let page: Page;

// The run's shared server and Chromium (global-setup.ts): nothing here changes what others see.
beforeAll(async () => {
  ({ server, browser } = await connectSharedSuite());
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async (context) => {
  if (context.task.result?.state === "fail" && page) {
    await page.screenshot({ path: path.join(artifactsDir, `${context.task.name}.png`) });
  }
  await page?.context().close();
});

it("shows the server's health on the settings page", async () => {
  const context = await browser.newContext({ viewport: mobileViewport, locale: "en-US" });
  page = await context.newPage();
  await page.goto(`${server.url}/#/settings`);
  await expect.poll(() => page.getByTestId("health-status").textContent()).toBe("Running");
  expect(await page.getByText("Embedded (PGlite)").count()).toBe(1);
  await page.screenshot({ path: path.join(artifactsDir, "health-en.png") });
});

it("switches language and remembers it after a reload", async () => {
  const context = await browser.newContext({ viewport: mobileViewport, locale: "en-US" });
  page = await context.newPage();
  await page.goto(`${server.url}/#/settings`);
  await page.getByTestId("health-status").waitFor();
  await page.getByTestId("language-select").selectOption("de");
  await expect.poll(() => page.getByTestId("health-status").textContent()).toBe("In Betrieb");
  await page.reload();
  await expect.poll(() => page.getByTestId("health-status").textContent()).toBe("In Betrieb");
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
});
