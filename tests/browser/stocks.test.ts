import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  expectAccessible,
  open,
  page,
  poll,
  signIn,
  texts,
  useSharedTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * Stocks (issue 21) in German, demo mode: a new demo user gets demo USD, opens Apple from the
 * stock list, reviews the cost (commission, stamp duty) before confirming, buys two shares at
 * the recorded quote, sees the fill with its tick id and the holding, and sells them again.
 * The shared server has STOCK_SESSIONS=always-open (suite-env.ts), so the test runs at any hour.
 */
useSharedTradingSuite();
describe("Stocks", () => {
  it("a new demo user buys and sells a stock in German", async () => {
    const de = texts("de");
    await open("/stocks", "de");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByRole("heading", { name: de.stocks.title }).waitFor();
    await page.getByTestId("stock-demo-funds").click();
    await page.getByText(de.stocks.demoFundsDone).waitFor();
    await page.getByTestId("stock-AAPL").click();
    await poll(() => page.getByTestId("stock-quote").textContent(), { timeout: 30_000 }).toMatch(
      /\d/,
    );
    expect(await page.getByTestId("stock-session").textContent()).toContain(de.stocks.session.open);
    await page.getByTestId("stock-lots").locator("input").fill("2");
    await page.getByTestId("stock-review").click();
    const review = page.getByTestId("stock-review-sheet");
    await review.waitFor();
    expect(await review.textContent()).toContain(de.stocks.cost.commission);
    expect(await review.textContent()).toContain(de.stocks.cost.stampDuty);
    await page.screenshot({ path: path.join(artifactsDir, "stocks-review-de.png") });
    await page.getByTestId("stock-confirm").click();
    const result = page.getByTestId("stock-result");
    await poll(() => result.textContent()).toContain(de.stocks.order.filled);
    const tickId = await result.getByTestId("stock-fill-tick").textContent();
    expect(tickId).toMatch(/\S/);
    await page.getByTestId("stock-result-close").click();
    const holding = page.getByTestId("holding-AAPL");
    await poll(() => holding.getByTestId("holding-quantity").textContent()).toBe("2");
    await expectAccessible("stock detail with a holding");
    // Sell both shares again.
    await page.getByTestId("stock-side").getByText(de.stocks.order.sell).click();
    await page.getByTestId("stock-lots").locator("input").fill("2");
    await page.getByTestId("stock-review").click();
    await page.getByTestId("stock-review-sheet").waitFor();
    await page.getByTestId("stock-confirm").click();
    await poll(() => page.getByTestId("stock-result").textContent()).toContain(
      de.stocks.order.filled,
    );
    await page.getByTestId("stock-result-close").click();
    await poll(() => page.getByTestId("holding-AAPL").count()).toBe(0);
    // Both fills are in the deals list, each with its tick.
    await page.goto(page.url().replace(/#.*$/, "#/stocks/orders"));
    await page.getByText(de.stocks.orders.fills).click();
    await poll(() => page.locator("[data-testid^='stock-fill-']").count()).toBe(2);
    await page.screenshot({ path: path.join(artifactsDir, "stocks-fills-de.png"), fullPage: true });
  });

  it("an HK buy shows stamp duty; a stop-loss sells on the next tick, citing it", async () => {
    const de = texts("de");
    await open("/stocks/0700.HK", "de");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    await signIn(demo.json.data, true);
    const funds = await api("POST", "/api/v1/stocks/demo-funds", undefined, demo.json.data.token);
    expect(funds.status, JSON.stringify(funds.json)).toBe(200);
    await poll(() => page.getByTestId("stock-quote").textContent(), { timeout: 30_000 }).toMatch(
      /\d/,
    );
    expect(await page.getByTestId("stock-shares").textContent()).toContain("100");
    await page.getByTestId("stock-review").click();
    const duty = page.getByTestId("stock-review-sheet").getByTestId("cost-stamp-duty");
    await poll(() => duty.textContent()).toMatch(/[1-9]\d* HKD/);
    await page.screenshot({ path: path.join(artifactsDir, "stocks-hk-duty-de.png") });
    await page.getByTestId("stock-confirm").click();
    await poll(() => page.getByTestId("stock-result").textContent()).toContain(
      de.stocks.order.filled,
    );
    await page.getByTestId("stock-result-close").click();
    // A stop-loss above the market: the next recorded tick triggers a market sell.
    const editor = page.getByTestId("tpsl-0700.HK");
    await editor.getByTestId("sl-input").locator("input").fill("9999");
    await editor.getByTestId("tpsl-save").click();
    // The next tick of the stock's tape: seconds apart, more on a loaded machine.
    await poll(() => page.getByTestId("holding-0700.HK").count(), { timeout: 45_000 }).toBe(0);
    await page.goto(page.url().replace(/#.*$/, "#/stocks/orders"));
    await page.getByText(de.stocks.orders.fills).click();
    const stop = page.locator("[data-testid^='stock-fill-']").first();
    await poll(() => stop.textContent()).toContain(de.stocks.origin.stop_loss);
    expect(await stop.getByRole("link").textContent()).toMatch(/\S/);
  }, 120_000);
});
