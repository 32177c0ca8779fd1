import { describe, expect, it } from "vitest";
import {
  api,
  expectAccessible,
  open,
  operatorToken,
  page,
  poll,
  signIn,
  useTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * Seconds contracts on the simulated market (issue 20): from the Trade tab to the Options page,
 * buy up after the first-use disclosure, watch the countdown, see the result with both tape
 * ticks, and follow the settlement tick to the public tape. A 5-second product keeps it short.
 */
useTradingSuite();
describe("Options (seconds contracts)", () => {
  it("buys up, counts down, shows the result with both tick ids and opens the tape", async () => {
    const configured = await api(
      "PUT",
      "/api/v1/operator/seconds/products",
      {
        instrumentId: "BTCUSDT",
        periodS: 5,
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
    await open("/trade");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByTestId("trade-options").click();
    await poll(() => page.getByTestId("last-price").textContent(), { timeout: 30_000 }).toMatch(
      /\d/,
    );
    await page.getByText("5 sec · 85%").click();
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
    const sheet = page.getByTestId("result-sheet");
    await sheet.waitFor({ timeout: 40_000 });
    const openTick = await sheet.getByTestId("open-tick").textContent();
    const settleTick = sheet.getByTestId("settle-tick");
    const settleTickId = await settleTick.textContent();
    expect(openTick).toMatch(/\S/);
    expect(settleTickId).toMatch(/\S/);
    expect(settleTickId).not.toBe(openTick);
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
  });
});
