import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  credit,
  expectAccessible,
  newUser,
  operatorToken,
  open,
  page,
  poll,
  signIn,
  texts,
  useSharedTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * Savings (issue 22): a new demo user, in German, opens Savings from the Trade tab, reads the
 * plan with its reserve, subscribes after the risk text, and sees the subscription in progress
 * with the interest reserved in full.
 */
useSharedTradingSuite();
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
    await subscription.waitFor();
    await poll(() => subscription.getByTestId("subscription-state").textContent()).toBe(
      de.savings.state.in_progress,
    );
    expect(await subscription.getByTestId("remaining-days").textContent()).toBe("7");
    await expectAccessible("savings subscriptions (de)");
    await page.screenshot({ path: path.join(artifactsDir, "savings-demo-de.png"), fullPage: true });
    // The plan now shows this promise in its reserve. (Exact: this is the only file on the
    // shared server that subscribes to savings or funds their yield.)
    const plans = await api<{ items: { planId: string; reserved: string }[] }>(
      "GET",
      "/api/v1/savings/plans?mode=demo",
    );
    expect(plans.json.data.items.find((p) => p.planId === "usdt-flex-7")?.reserved).toBe("0.14");
  });

  it("real money in French: a mining product, once the operator funded the yield account", async () => {
    const fr = texts("fr");
    const user = await newUser();
    await credit(user.user.id, "USDT", "1000");
    const funded = await api(
      "POST",
      "/api/v1/operator/savings/yield",
      {
        id: `browser-yield-${Date.now()}`,
        mode: "real",
        asset: "USDT",
        amount: "100",
        reference: "wire",
      },
      operatorToken,
    );
    expect(funded.status, JSON.stringify(funded.json)).toBe(200);
    await open("/savings", "fr");
    await signIn(user);
    await page.getByText(fr.savings.tabs.mining, { exact: true }).click();
    const card = page.getByTestId("plan-card").filter({ hasText: "Example mining product" });
    await card.waitFor();
    await card.getByTestId("hardware").waitFor();
    expect(await page.getByTestId("risk-text").last().textContent()).toContain(
      fr.savings.risk.mining,
    );
    await card.getByTestId("plan-subscribe").click();
    const sheet = page.getByTestId("subscribe-sheet");
    await sheet.getByTestId("subscribe-amount").locator("input").fill("500");
    // 500 USDT × 0.05 % × 90 days = 22.5 USDT, reserved from the operator's funded yield.
    await poll(() => sheet.getByTestId("subscribe-expected").textContent()).toContain("22,5");
    await sheet.getByTestId("subscribe-understood").click();
    await sheet.getByTestId("subscribe-confirm").click();
    const subscription = page.getByTestId("subscription-card").first();
    await subscription.waitFor();
    await poll(() => subscription.getByTestId("subscription-state").textContent()).toBe(
      fr.savings.state.in_progress,
    );
    expect(await subscription.textContent()).toContain(fr.savings.sub.nftRecord);
    const plans = await api<{
      items: { planId: string; reserved: string; yieldAvailable: string }[];
    }>("GET", "/api/v1/savings/plans?mode=real");
    expect(plans.json.data.items.find((p) => p.planId === "miner-s19")).toMatchObject({
      reserved: "22.5",
      yieldAvailable: "77.5",
    });
  });
});
