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
  useTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * Savings (issue 22): a new demo user, in German, opens Savings from the Trade tab, reads the
 * plan with its reserve, subscribes after the risk text, and sees the subscription in progress
 * with the interest reserved in full.
 */
useTradingSuite();
describe("Savings", () => {
  it("a new demo user subscribes in German and sees it in progress", async () => {
    const de = texts("de");
    await open("/trade", "de");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByTestId("trade-savings").click();
    const card = page.getByTestId("plan-card").filter({ hasText: "USDT 7 days" });
    await card.waitFor();
    expect(await card.getByTestId("sold-out").count()).toBe(0); // demo yield is funded
    await expect
      .soft(await page.getByTestId("risk-text").first().textContent())
      .toContain(de.savings.risk.solvency);
    await card.getByTestId("plan-subscribe").click();
    const sheet = page.getByTestId("subscribe-sheet");
    await sheet.waitFor();
    await sheet.getByTestId("subscribe-amount").locator("input").fill("100");
    // 100 USDT × 0.02 % × 7 days = 0.14 USDT, reserved in full at subscription.
    await poll(() => sheet.getByTestId("subscribe-expected").textContent()).toContain("0,14");
    await sheet.getByTestId("subscribe-understood").click();
    await sheet.getByTestId("subscribe-confirm").click();
    const subscription = page.getByTestId("subscription-card").first();
    await subscription.waitFor({ timeout: 15_000 });
    await poll(() => subscription.getByTestId("subscription-state").textContent()).toBe(
      de.savings.state.in_progress,
    );
    expect(await subscription.getByTestId("remaining-days").textContent()).toBe("7");
    await expectAccessible("savings subscriptions (de)");
    await page.screenshot({ path: path.join(artifactsDir, "savings-demo-de.png"), fullPage: true });
    // The plan now shows this promise in its reserve.
    const plans = await api<{ items: { planId: string; reserved: string }[] }>(
      "GET",
      "/api/v1/savings/plans?mode=demo",
    );
    expect(plans.json.data.items.find((p) => p.planId === "usdt-flex-7")?.reserved).toBe("0.14");
  });
});
