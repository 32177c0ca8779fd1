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
 * Collateralised loans (issue 22) in German, in demo mode: a new demo user exchanges demo USDT
 * for BTC, opens the Loans page from the Trade tab, sees the LTV, liquidation price, interest
 * and amount due before confirming, borrows from the (demo) lending pool, and repays early on
 * My loans, where the early-repayment fee is shown.
 */
useSharedTradingSuite();
describe("Loans in de (demo)", () => {
  it("borrows against BTC with the costs shown first, then repays and frees the collateral", async () => {
    const t = texts("de");
    await open("/trade", "de");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    const token = demo.json.data.token;
    // Demo collateral: demo BTC bought with demo USDT through the quick exchange.
    let btc = "";
    await poll(
      async () => {
        const quote = await api<{ quoteId: string }>(
          "POST",
          "/api/v1/wallet/exchange/quotes",
          {
            requestId: crypto.randomUUID(),
            sourceAsset: "USDT",
            targetAsset: "BTC",
            sourceAmount: "5000",
          },
          token,
        );
        if (quote.status !== 200) return quote.status;
        const accepted = await api<{ targetAmount: string }>(
          "POST",
          `/api/v1/wallet/exchange/quotes/${quote.json.data.quoteId}/accept`,
          {},
          token,
        );
        if (accepted.status === 200) btc = accepted.json.data.targetAmount;
        return accepted.status;
      },
      { timeout: 60_000 },
    ).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByTestId("trade-loans").click();
    await page.getByTestId("loan-terms").waitFor();
    await poll(() => page.getByTestId("loan-terms").textContent(), { timeout: 30_000 }).toMatch(
      /BTCUSDT/,
    );
    await page.getByTestId("loan-amount").locator("input").fill("1000");
    // Nine tenths of it as collateral; the rest is added to the loan later.
    const [whole, fraction = ""] = btc.split(".");
    const units = (BigInt(whole! + fraction.padEnd(8, "0")) * 9n) / 10n;
    const collateral = `${units / 100_000_000n}.${String(units % 100_000_000n).padStart(8, "0")}`;
    await page.getByTestId("loan-collateral").locator("input").fill(collateral);
    // Before confirming: LTV, liquidation price, interest for the term and the amount due.
    await poll(() => page.getByTestId("loan-ltv").textContent(), { timeout: 30_000 }).toMatch(
      /^\d+(,\d+)?\s?%$/,
    );
    expect(await page.getByTestId("loan-liquidation-price").textContent()).toMatch(/\d/);
    expect(await page.getByTestId("loan-interest").textContent()).toContain("2,1 USDT");
    expect(await page.getByTestId("loan-due").textContent()).toContain("1.002,1 USDT");
    expect(await page.locator("body").textContent()).toContain(
      t.loans.terms.grace.replace("{{days}}", "3"),
    );
    await expectAccessible("loans de");
    await page.screenshot({ path: path.join(artifactsDir, "loans-de.png"), fullPage: true });
    await page.getByTestId("loan-agreement").click();
    await page.getByTestId("loan-borrow").click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(() => page.evaluate(() => location.hash)).toBe("#/loans/mine");
    const card = page.getByTestId("loan-card").first();
    await poll(() => card.getByTestId("loan-status").textContent()).toBe(t.loans.status.active);
    // Early repayment on day 0: half the interest of all 7 days (0.3 USDT a day → 1.05).
    expect(await card.getByTestId("loan-early-fee").textContent()).toContain("1,05 USDT");
    expect(await card.getByTestId("loan-repay-now").textContent()).toContain("1.001,05 USDT");
    await card.getByTestId("loan-add-collateral-amount").locator("input").fill("0.001");
    await card.getByTestId("loan-add-collateral").click();
    const more = units + 100_000n;
    const shown = `${more / 100_000_000n},${String(more % 100_000_000n)
      .padStart(8, "0")
      .replace(/0+$/, "")}`;
    await poll(() => card.getByTestId("loan-collateral-amount").textContent()).toBe(shown);
    await page.screenshot({ path: path.join(artifactsDir, "my-loans-de.png"), fullPage: true });
    await card.getByTestId("loan-repay").click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(() => card.getByTestId("loan-status").textContent()).toBe(t.loans.status.repaid);
    await expectAccessible("my loans de");
  });
});
