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

interface Market {
  marketId: string;
  markPrice: string | null;
  bestAsk: string | null;
  bestBid: string | null;
}

/** The BTC perpetual's mark and book top (the labelled market maker quotes around the mark). */
async function btcPerp(): Promise<Market | undefined> {
  const answer = await api<{ items: Market[] }>("GET", "/api/v1/perp/markets?mode=demo");
  return answer.json.data.items.find((m) => m.marketId === "BTC-PERP");
}

/**
 * Perpetual contracts (issue 19) in German: a new demo user moves money to the contract wallet,
 * reads the risk disclosure, opens a leveraged long at market, sets take-profit and stop-loss,
 * and closes the position — every step confirmed in a sheet.
 */
useTradingSuite();
describe("Trade tab (perpetuals)", () => {
  it("transfers to the contract wallet, opens a 20× long, sets TP/SL and closes it (de)", async () => {
    const t = texts("de");
    await open("/assets/transfer", "de");
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.locator("#transfer-title").waitFor();
    await page.getByTestId("transfer-source").selectOption("fund");
    await page.getByTestId("transfer-target").selectOption("contract");
    await page.getByTestId("transfer-asset").selectOption("USDT");
    await page.getByTestId("transfer-amount").locator("input").fill("500");
    await page.getByTestId("transfer-own-submit").click();
    await poll(() => page.getByTestId("transfer-record").count()).toBe(1);

    // The market maker quotes once the perpetual has a mark from the tape.
    await poll(async () => (await btcPerp())?.bestAsk ?? null, { timeout: 45_000 }).toMatch(/\d/);
    await page.evaluate(() => (location.hash = "#/trade"));
    await page.getByTestId("perp-page").waitFor();
    await page.getByText(t.perp.title, { exact: true }).first().waitFor();
    await poll(() => page.getByTestId("perp-mark-price").textContent()).toMatch(/\d/);
    await poll(() => page.getByTestId("perp-wallet").textContent()).toMatch(/500/);

    await page.getByTestId("perp-leverage").getByText("20×", { exact: true }).click();
    await page.getByTestId("perp-contracts").locator("input").fill("5");
    await poll(() => page.getByTestId("perp-estimate-liquidation").textContent()).toMatch(/\d/);
    await page.getByTestId("perp-buy").click();
    await page.getByTestId("perp-disclosure-sheet").waitFor();
    await page.getByTestId("perp-disclosure-accept").click();
    const confirm = page.getByTestId("perp-confirm");
    await confirm.waitFor();
    expect(await confirm.getByTestId("perp-trade-password").count()).toBe(0); // demo money
    expect(await confirm.getByTestId("perp-confirm-liquidation").textContent()).toMatch(/\d/);
    await page.getByTestId("perp-confirm-submit").click();

    const position = page.getByTestId("perp-position-BTC-PERP");
    await position.waitFor({ timeout: 15_000 });
    expect(await position.getByTestId("perp-position-contracts").textContent()).toBe("5");
    expect(await position.textContent()).toContain(t.perp.side.long);
    expect(await position.textContent()).toContain("20×");
    await expectAccessible("perpetual position");
    await page.screenshot({
      path: path.join(artifactsDir, "perp-position-de.png"),
      fullPage: true,
    });

    // Take-profit far above and stop-loss far below the mark (whole prices are on the step).
    const mark = (await btcPerp())!.markPrice!;
    const whole = BigInt(mark.split(".")[0]!);
    const takeProfit = String(whole * 2n);
    const stopLoss = String(whole / 2n);
    await position.getByTestId("perp-tpsl").click();
    await page.getByTestId("perp-take-profit").locator("input").fill(takeProfit);
    await page.getByTestId("perp-stop-loss").locator("input").fill(stopLoss);
    await page.getByTestId("perp-tpsl-sheet-submit").click();
    await poll(() => position.getByTestId("perp-position-tpsl").textContent()).toContain(
      takeProfit,
    );
    expect(await position.getByTestId("perp-position-tpsl").textContent()).toContain(stopLoss);

    await position.getByTestId("perp-close").click();
    await page.getByTestId("perp-close-sheet-submit").click();
    await page.getByTestId("perp-no-positions").waitFor({ timeout: 15_000 });
    await poll(() => page.getByTestId("perp-history-order").count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: path.join(artifactsDir, "perp-closed-de.png"), fullPage: true });
  });
});
