import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  credit,
  expectAccessible,
  newUser,
  open,
  operatorToken,
  page,
  poll,
  signIn,
  useSharedTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/** A short BTCUSDT product (operator configuration; later purchases only). */
async function configureShortProduct(periodS: number) {
  const configured = await api(
    "PUT",
    "/api/v1/operator/seconds/products",
    {
      instrumentId: "BTCUSDT",
      periodS,
      asset: "USDT",
      payoutBps: 8_500,
      stakeMin: "1",
      stakeMax: "100",
      exposureMax: "10000",
      graceS: 30,
      open: true,
    },
    operatorToken,
  );
  expect(configured.status, JSON.stringify(configured.json)).toBe(200);
}

/**
 * Seconds contracts on the simulated market (issue 20): from the Trade tab to the Options page,
 * buy up after the first-use disclosure, watch the countdown, see the result with both tape
 * ticks, and follow the settlement tick to the public tape; then the same in real money. Short
 * products keep it short: 15 s where the running contract's screen is checked with axe (a
 * 5-second contract can settle during the check on a slow machine, its result sheet fading in
 * over the page being measured), 5 s where nothing is checked before the result.
 */
useSharedTradingSuite();
describe("Options (seconds contracts)", () => {
  it("buys up, counts down, shows the result with both tick ids and opens the tape", async () => {
    await configureShortProduct(15);
    await open("/trade");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByTestId("trade-options").click();
    await poll(() => page.getByTestId("last-price").textContent(), { timeout: 30_000 }).toMatch(
      /\d/,
    );
    await page.getByText("15 sec · 85%", { exact: true }).click();
    await page.getByTestId("stake-input").locator("input").fill("10");
    await page.getByTestId("buy-up").click();
    await page.getByTestId("disclosure-sheet").waitFor();
    await page.getByTestId("disclosure-accept").click();
    await page.getByTestId("confirm-sheet").waitFor();
    expect(await page.getByTestId("trade-password").count()).toBe(0); // demo money
    await page.getByTestId("confirm-purchase").click();
    await page.getByTestId("countdown").waitFor();
    expect(await page.getByTestId("countdown-seconds").textContent()).toMatch(
      /\d sec left|Waiting/,
    );
    await expectAccessible("options in trade");
    await page.screenshot({ path: path.join(artifactsDir, "options-demo-en.png"), fullPage: true });
    const sheet = page.getByTestId("result-sheet");
    await sheet.waitFor({ timeout: 40_000 });
    const openTick = await sheet.getByTestId("open-tick").textContent();
    const settleTick = sheet.getByTestId("settle-tick");
    const settleTickId = await settleTick.textContent();
    expect(openTick).toMatch(/\S/);
    expect(settleTickId).toMatch(/\S/);
    expect(settleTickId).not.toBe(openTick);
    await page.screenshot({ path: path.join(artifactsDir, "options-result-en.png") });
    expect(await sheet.getByTestId("contract-outcome").textContent()).toMatch(
      /Won|Lost|Equal price/,
    );
    await settleTick.click();
    await poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toBe(
      `#/tape/BTCUSDT/${settleTickId}`,
    );
    await poll(() => page.locator("body").textContent(), { timeout: 15_000 }).toContain(
      settleTickId!,
    );
  }, 90_000);

  it("real money: the trade password, the house's reservation, a result citing both ticks", async () => {
    await configureShortProduct(5);
    const user = await newUser();
    await credit(user.user.id, "USDT", "50");
    const funded = await api(
      "POST",
      "/api/v1/operator/house/deposits",
      { id: `browser-house-${Date.now()}`, assetId: "USDT", amount: "1000", reference: "test" },
      operatorToken,
    );
    expect(funded.status, JSON.stringify(funded.json)).toBe(200);
    await open("/options");
    await signIn(user);
    await poll(() => page.getByTestId("last-price").textContent(), { timeout: 30_000 }).toMatch(
      /\d/,
    );
    await page.getByText("5 sec · 85%", { exact: true }).click();
    await page.getByTestId("stake-input").locator("input").fill("5");
    await page.getByTestId("buy-down").click();
    await page.getByTestId("disclosure-accept").click();
    await page.getByTestId("trade-password").locator("input").fill("correct horse 1");
    await page.getByTestId("confirm-purchase").click();
    await page.getByTestId("countdown").waitFor();
    const sheet = page.getByTestId("result-sheet");
    await sheet.waitFor({ timeout: 40_000 });
    expect(await sheet.getByTestId("open-tick").textContent()).toMatch(/\S/);
    expect(await sheet.getByTestId("settle-tick").textContent()).toMatch(/\S/);
  });
});
