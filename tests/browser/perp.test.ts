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
  useTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

interface Market {
  marketId: string;
  markPrice: string | null;
  bestAsk: string | null;
  bestBid: string | null;
}

/** A new demo user with `amount` USDT moved to the contract wallet; its session. */
async function demoTrader(amount: string): Promise<SessionData> {
  const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
  expect(demo.status).toBe(200);
  const moved = await api(
    "POST",
    "/api/v1/wallet/transfers/internal",
    {
      requestId: `perp-transfer-${demo.json.data.user.id}`,
      asset: "USDT",
      amount,
      sourceWallet: "fund",
      targetWallet: "contract",
    },
    demo.json.data.token,
  );
  expect(moved.status, JSON.stringify(moved.json)).toBe(200);
  return demo.json.data;
}

/** The BTC perpetual's mark and book top (the labelled market maker quotes around the mark). */
async function btcPerp(mode = "demo"): Promise<Market | undefined> {
  const answer = await api<{ items: Market[] }>("GET", `/api/v1/perp/markets?mode=${mode}`);
  return answer.json.data.items.find((m) => m.marketId === "BTC-PERP");
}

/**
 * Perpetual contracts (issue 19) in German: a new demo user moves money to the contract wallet,
 * reads the risk disclosure, sees the book, opens a leveraged long at market and its
 * liquidation price, sets take-profit and stop-loss, reverses it and closes all — every step
 * confirmed in a sheet. In Spanish, a new real-money user (the operator funded the market
 * maker's real inventory and contract wallet, so it quotes the real book) opens and closes a
 * 10× long, each step confirmed with the trade password. Then of two demo users' 50× isolated
 * positions (a long and a short) one is liquidated by a move on the simulated tape, and the
 * history shows the tick that did it.
 */
// ETH's seeded simulated tape jumps up to 4 % either way every second on average (test-only
// MARKET_TEST_JUMPS): the crash that liquidates comes from the recorded tape, never an endpoint.
useTradingSuite({ MARKET_TEST_JUMPS: "ETHUSDT:86400:400" });
describe("Trade tab (perpetuals)", () => {
  it(
    "transfers to the contract wallet, opens a 20× long, sets TP/SL, reverses and closes all (de)",
    { timeout: 180_000 },
    async () => {
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
      // The book: the labelled market maker's levels on both sides.
      await poll(() => page.getByTestId("perp-depth-ask").count()).toBeGreaterThan(0);
      await poll(() => page.getByTestId("perp-depth-bid").count()).toBeGreaterThan(0);

      // Isolated margin: the position alone backs itself, so it has a liquidation price.
      await page
        .getByTestId("perp-margin-mode")
        .getByText(t.perp.marginMode.isolated, { exact: true })
        .click();
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
      await position.waitFor();
      expect(await position.getByTestId("perp-position-contracts").textContent()).toBe("5");
      expect(await position.textContent()).toContain(t.perp.side.long);
      expect(await position.textContent()).toContain("20×");
      await poll(() => position.getByTestId("perp-liquidation-price").textContent()).toMatch(/\d/);
      await poll(() => page.getByTestId("perp-trade-row").count()).toBeGreaterThan(0);
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

      // Reverse in one action: the long of 5 becomes a short of 5.
      await position.getByTestId("perp-reverse").click();
      await page.getByTestId("perp-reverse-sheet-submit").click();
      await poll(() => position.textContent(), { timeout: 15_000 }).toContain(t.perp.side.short);
      expect(await position.getByTestId("perp-position-contracts").textContent()).toBe("5");

      // Past the reverse's toast, and clear of the fixed tab bar the book pushed it under.
      await page.locator(".adm-toast-wrap").waitFor({ state: "detached", timeout: 15_000 });
      const closeAll = page.getByTestId("perp-close-all");
      await closeAll.evaluate((button) => button.scrollIntoView({ block: "center" }));
      await closeAll.click();
      await page.getByTestId("perp-closeAll-sheet-submit").click();
      await page.getByTestId("perp-no-positions").waitFor();
      await poll(() => page.getByTestId("perp-history-order").count()).toBeGreaterThanOrEqual(3);
      await page.screenshot({
        path: path.join(artifactsDir, "perp-closed-de.png"),
        fullPage: true,
      });

      // A resting bid 2 % under the mark, made smaller in the size dialog: it stays open with
      // the new size, as the API says too.
      const bid = String((BigInt((await btcPerp())!.markPrice!.split(".")[0]!) * 98n) / 100n);
      const placed = await api<{ status: string }>(
        "POST",
        "/api/v1/perp/orders",
        {
          clientOrderId: `perp-amend-${Date.now()}`,
          marketId: "BTC-PERP",
          side: "buy",
          orderType: "limit",
          price: bid,
          contracts: 3,
        },
        demo.json.data.token,
      );
      expect(placed.json.data.status, JSON.stringify(placed.json)).toBe("open");
      const resting = page.getByTestId("perp-open-order");
      await poll(() => resting.textContent(), { timeout: 15_000 }).toContain("0/3");
      await resting.getByTestId("perp-order-amend").click();
      await page.getByText(t.coinCoin.order.amendTitle).waitFor();
      await page.getByTestId("perp-amend-contracts").locator("input").fill("2");
      await page.getByRole("button", { name: t.common.confirm }).click();
      await poll(() => resting.textContent(), { timeout: 15_000 }).toContain("0/2");
      const listed = await api<{ items: { contracts: number }[] }>(
        "GET",
        "/api/v1/perp/orders/open",
        undefined,
        demo.json.data.token,
      );
      expect(listed.json.data.items.map((o) => o.contracts)).toEqual([2]);
    },
  );

  it("a new real-money user opens a 10× long and closes it with the trade password (es)", async () => {
    const t = texts("es");
    const ok = (answer: { status: number; json: unknown }) =>
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    // The operator funds the labelled market maker's real inventory, then its real contract
    // wallet: only then does it quote the real books (money it was given, never minted). The
    // market maker starts quoting the ~10 real USDT spot books as soon as the inventory lands,
    // each book holding up to 20 % of what is still available (0.8^10 ≈ 11 % stays free), so
    // the inventory is twenty times the amount moved to the contract wallet next.
    const stamp = Date.now();
    ok(
      await api(
        "POST",
        "/api/v1/operator/market-maker/funding",
        {
          id: `real-perp-mm-${stamp}`,
          assetId: "USDT",
          amount: "20000000",
          reference: "browser test bank transfer",
          reason: "inventory for the real perpetual books",
        },
        operatorToken,
      ),
    );
    ok(
      await api(
        "POST",
        "/api/v1/operator/market-maker/perp-funding",
        {
          id: `real-perp-mm-contract-${stamp}`,
          assetId: "USDT",
          amount: "1000000",
          reference: "browser test bank transfer",
          reason: "margin for real perpetual quotes",
        },
        operatorToken,
      ),
    );
    const user = await newUser();
    expect(user.user.isVirtual).toBe(false);
    await credit(user.user.id, "USDT", "1000");
    // The trade password starts as the login password (spec §5); the user sets its own.
    const tradePassword = "trade horse 7";
    ok(
      await api(
        "PUT",
        "/api/v1/me/trade-password",
        {
          tradePassword,
          tradePasswordConfirm: tradePassword,
          currentTradePassword: "correct horse 1",
        },
        user.token,
      ),
    );
    ok(
      await api(
        "POST",
        "/api/v1/wallet/transfers/internal",
        {
          requestId: `real-perp-transfer-${stamp}`,
          asset: "USDT",
          amount: "500",
          sourceWallet: "fund",
          targetWallet: "contract",
        },
        user.token,
      ),
    );
    await poll(async () => (await btcPerp("real"))?.bestAsk ?? null, { timeout: 45_000 }).toMatch(
      /\d/,
    );

    await open("/trade", "es");
    await signIn(user);
    await page.getByTestId("perp-page").waitFor();
    await poll(() => page.getByTestId("perp-wallet").textContent()).toMatch(/500/);
    await poll(() => page.getByTestId("perp-depth-ask").count()).toBeGreaterThan(0);
    await page
      .getByTestId("perp-margin-mode")
      .getByText(t.perp.marginMode.isolated, { exact: true })
      .click();
    await page.getByTestId("perp-leverage").getByText("10×", { exact: true }).click();
    await page.getByTestId("perp-contracts").locator("input").fill("2");
    await poll(() => page.getByTestId("perp-estimate-liquidation").textContent()).toMatch(/\d/);
    await page.getByTestId("perp-buy").click();
    await page.getByTestId("perp-disclosure-sheet").waitFor();
    await page.getByTestId("perp-disclosure-accept").click();
    const confirm = page.getByTestId("perp-confirm");
    await confirm.waitFor();
    // Real money: the sheet asks for the trade password.
    const secret = confirm.getByTestId("perp-trade-password");
    expect(await secret.count()).toBe(1);
    expect(await secret.locator("input").getAttribute("placeholder")).toBe(t.perp.passwordHint);
    await secret.locator("input").fill(tradePassword);
    await page.getByTestId("perp-confirm-submit").click();

    const position = page.getByTestId("perp-position-BTC-PERP");
    await position.waitFor();
    expect(await position.getByTestId("perp-position-contracts").textContent()).toBe("2");
    expect(await position.textContent()).toContain(t.perp.side.long);
    expect(await position.textContent()).toContain("10×");
    await poll(() => position.getByTestId("perp-liquidation-price").textContent()).toMatch(/\d/);
    // The user's real position, as the API reports it (not the demo book).
    const held = await api<{ items: { marketId: string; contracts: string }[] }>(
      "GET",
      "/api/v1/perp/positions",
      undefined,
      user.token,
    );
    expect(held.json.data.items.find((p) => p.marketId === "BTC-PERP")?.contracts).toBe("2");

    await page.locator(".adm-toast-wrap").waitFor({ state: "detached", timeout: 15_000 });
    await position.getByTestId("perp-close").click();
    const sheet = page.getByTestId("perp-close-sheet");
    await sheet.waitFor();
    await sheet.getByTestId("perp-trade-password").locator("input").fill(tradePassword);
    await page.getByTestId("perp-close-sheet-submit").click();
    await page.getByTestId("perp-no-positions").waitFor();
    await poll(() => page.getByTestId("perp-history-order").count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({
      path: path.join(artifactsDir, "perp-real-closed-es.png"),
      fullPage: true,
    });
  }, 90_000);

  it("places a stop-market on the perpetual form; the mark fires it and the history shows its tick (en)", async () => {
    const t = texts("en");
    const trader = await demoTrader("100");
    const token = trader.token;
    await poll(async () => (await btcPerp())?.bestAsk ?? null, { timeout: 45_000 }).toMatch(/\d/);
    // BTC-PERP prices have one decimal (step 0.1): work in tenths.
    const tenths = (price: string) => {
      const [whole, fraction = ""] = price.split(".");
      return BigInt(whole!) * 10n + BigInt((fraction + "0")[0]!);
    };
    const text = (value: bigint) => `${value / 10n}.${value % 10n}`;

    await open("/trade", "en");
    await signIn(trader, true);
    await page.getByTestId("perp-page").waitFor();
    await poll(() => page.getByTestId("perp-mark-price").textContent()).toMatch(/\d/);
    await page
      .getByTestId("perp-order-type")
      .getByText(t.perp.orderType.stop_market, { exact: true })
      .click();
    // A buy stop 0.05 % above the mark (BTC's tape moves about 0.01 % a second). The trigger is
    // read from the mark just before the order; if the mark passed it while the form was filled,
    // the server refuses the order (the sheet stays open with the reason) and it is placed again
    // from the new mark.
    const triggers: string[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const mark = tenths((await btcPerp())!.markPrice!);
      const trigger = text(mark + (mark * 5n) / 10_000n);
      await page.getByTestId("perp-trigger-price").locator("input").fill(trigger);
      await page.getByTestId("perp-contracts").locator("input").fill("1");
      await page.getByTestId("perp-buy").click();
      if (attempt === 0) {
        await page.getByTestId("perp-disclosure-sheet").waitFor();
        await page.getByTestId("perp-disclosure-accept").click();
      }
      const confirm = page.getByTestId("perp-confirm");
      await confirm.waitFor();
      expect(await confirm.getByTestId("perp-confirm-trigger").textContent()).toBe(trigger);
      await page.getByTestId("perp-confirm-submit").click();
      const closed = await confirm.waitFor({ state: "hidden", timeout: 15_000 }).then(
        () => true,
        () => false,
      );
      if (closed) {
        triggers.push(trigger);
        break;
      }
      // (An order accepted just now closes the sheet by itself: then there is no button.)
      await confirm
        .getByRole("button", { name: t.common.cancel })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      await confirm.waitFor({ state: "hidden" });
    }
    expect(triggers, "the buy stop was placed").toHaveLength(1);
    const trigger = triggers[0]!;
    // The waiting order shows its trigger, unless the mark already fired it (then it has moved
    // to the history, checked below).
    type Forced = { kind: string; tickIds: string[] };
    const forced = async () =>
      (await api<{ items: Forced[] }>("GET", "/api/v1/perp/liquidations", undefined, token)).json
        .data.items;
    const fired = async () => (await forced()).find((e) => e.kind === "stop_order") ?? null;
    // The list prints prices without trailing zeros ("91234", not the typed "91234.0").
    const shown = trigger.replace(/\.0$/, "");
    const waiting = page.getByTestId("perp-conditional-order").filter({
      has: page.getByTestId("perp-conditional-trigger").getByText(shown, { exact: true }),
    });
    // Gone from the list once fired, whether the order it placed was taken or refused.
    const firedOrRefused = async () =>
      (await forced()).some((e) => e.kind === "stop_order" || e.kind === "conditional_rejected");
    await poll(async () => (await waiting.count()) > 0 || (await firedOrRefused())).toBe(true);

    // A sell stop 0.02 % below, through the API: the tape's next move either way fires one.
    for (let attempt = 0; attempt < 4; attempt++) {
      const now = tenths((await btcPerp())!.markPrice!);
      const placed = await api(
        "POST",
        "/api/v1/perp/conditional-orders",
        {
          clientOrderId: `stop-below-${Date.now()}`,
          marketId: "BTC-PERP",
          side: "sell",
          kind: "stop",
          orderType: "market",
          triggerPrice: text(now - (now * 2n) / 10_000n),
          contracts: 1,
        },
        token,
      );
      if (placed.status === 200) break;
    }
    // Usually within seconds; a quiet tape can take a minute to move that far either way.
    await poll(async () => (await fired()) !== null, { timeout: 90_000 }).toBe(true);
    const event = (await fired())!;
    expect(event.tickIds.length).toBeGreaterThan(0);
    await page.getByTestId("perp-history-tabs").getByText(t.perp.history.forced).click();
    // The other stop may fire too after the API read: look in every row of that kind, not only
    // the newest.
    const rows = page.getByTestId("perp-forced-stop_order");
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain(t.perp.forced.stop_order);
    await poll(() => rows.getByTestId("perp-tick-link").allTextContents()).toEqual(
      expect.arrayContaining([event.tickIds[0]!]),
    );
    await page.screenshot({
      path: path.join(artifactsDir, "perp-stop-fired-en.png"),
      fullPage: true,
    });
    // The stop that did not fire is cancelled: the history keeps it, saying who cancelled it.
    const pending = await api<{ items: { orderId: string }[] }>(
      "GET",
      "/api/v1/perp/conditional-orders",
      undefined,
      token,
    );
    let cancelledCount = 0;
    for (const { orderId } of pending.json.data.items) {
      const cancelled = await api(
        "DELETE",
        `/api/v1/perp/conditional-orders/${orderId}`,
        undefined,
        token,
      );
      // (It may have fired since the read: then it is not found.)
      expect([200, 404], JSON.stringify(cancelled.json)).toContain(cancelled.status);
      if (cancelled.status === 200) cancelledCount++;
    }
    if (cancelledCount > 0) {
      await poll(() =>
        page.getByTestId("perp-forced-conditional_cancelled").allTextContents(),
      ).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            `${t.perp.forced.conditional_cancelled}.* · ${t.perp.forced.reason}: ${t.perp.forced.cancelReason.user}$`,
          ),
        ]),
      );
    }
  }, 210_000);

  it("places an OCO pair on the form (a limit take-profit, a market stop); cancelling one leg ends the other, and the history says why (fr)", async () => {
    const t = texts("fr");
    const trader = await demoTrader("100");
    const token = trader.token;
    await poll(async () => (await btcPerp())?.markPrice ?? null, { timeout: 45_000 }).toMatch(/\d/);
    await open("/trade", "fr");
    await signIn(trader, true);
    await page.getByTestId("perp-page").waitFor();
    await page
      .getByTestId("perp-order-type")
      .getByText(t.perp.orderType.oco, { exact: true })
      .click();
    await page.getByTestId("perp-oco-hint").waitFor();
    // A sell pair 5 % either side of the mark (whole prices are on the 0.1 step): the tape does
    // not reach either during the test.
    const mark = BigInt((await btcPerp())!.markPrice!.split(".")[0]!);
    const takeProfit = String((mark * 105n) / 100n);
    const stop = String((mark * 95n) / 100n);
    const takeProfitLimit = String((mark * 104n) / 100n);
    await page.getByTestId("perp-oco-take-profit").locator("input").fill(takeProfit);
    await page.getByTestId("perp-oco-stop").locator("input").fill(stop);
    await page.getByTestId("perp-oco-take-profit-limit").locator("input").fill(takeProfitLimit);
    await page.getByTestId("perp-contracts").locator("input").fill("1");
    await page.getByTestId("perp-sell").click();
    const disclosure = page.getByTestId("perp-disclosure-accept");
    const confirm = page.getByTestId("perp-confirm");
    await Promise.race([disclosure.waitFor(), confirm.waitFor()]);
    if (await disclosure.isVisible()) await disclosure.click();
    await confirm.waitFor();
    expect(await confirm.getByTestId("perp-confirm-take-profit").textContent()).toBe(takeProfit);
    expect(await confirm.getByTestId("perp-confirm-stop").textContent()).toBe(stop);
    expect(await confirm.getByTestId("perp-confirm-take-profit-order").textContent()).toBe(
      `${t.perp.orderType.limit} · ${takeProfitLimit}`,
    );
    expect(await confirm.getByTestId("perp-confirm-stop-order").textContent()).toBe(
      t.perp.orderType.market,
    );
    await page.getByTestId("perp-confirm-submit").click();
    await confirm.waitFor({ state: "hidden", timeout: 15_000 });

    // Both legs wait, each naming the other.
    const legs = page.getByTestId("perp-conditional-order");
    await poll(() => legs.count()).toBe(2);
    const listed = await api<{
      items: {
        orderId: string;
        ocoOrderId: string | null;
        kind: string;
        orderType: string;
        price: string | null;
      }[];
    }>("GET", "/api/v1/perp/conditional-orders", undefined, token);
    const [first, second] = listed.json.data.items;
    expect([first!.ocoOrderId, second!.ocoOrderId]).toEqual([second!.orderId, first!.orderId]);
    // The take-profit fires a limit order at its price; the stop a market order.
    const legOf = (kind: string) => listed.json.data.items.find((leg) => leg.kind === kind)!;
    expect(legOf("take_profit").orderType).toBe("limit");
    expect(legOf("take_profit").price).toMatch(new RegExp(`^${takeProfitLimit}(\\.0+)?$`));
    expect([legOf("stop").orderType, legOf("stop").price]).toEqual(["market", null]);
    expect(await legs.first().getByTestId("perp-conditional-oco").textContent()).toBe(
      t.perp.conditional.oco.replace("{{id}}", second!.orderId),
    );
    await expectAccessible("perpetual OCO pair");

    // Cancelling the first leg ends both; the history gives each its reason.
    await legs.first().getByTestId("perp-conditional-cancel").click();
    await poll(() => legs.count()).toBe(0);
    await page.getByTestId("perp-history-tabs").getByText(t.perp.history.forced).click();
    const reasons = page.getByTestId("perp-forced-conditional_cancelled");
    await poll(() => reasons.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(`${t.perp.forced.reason}: ${t.perp.forced.cancelReason.oco}$`),
        expect.stringMatching(`${t.perp.forced.reason}: ${t.perp.forced.cancelReason.user}$`),
      ]),
    );
    await page.screenshot({ path: path.join(artifactsDir, "perp-oco-fr.png"), fullPage: true });
  }, 120_000);

  it("liquidates a demo user's 50× position on a simulated crash and shows the tick (en)", async () => {
    const t = texts("en");
    const ethAsk = async () => {
      const answer = await api<{ items: Market[] }>("GET", "/api/v1/perp/markets?mode=demo");
      return answer.json.data.items.find((m) => m.marketId === "ETH-PERP")?.bestAsk ?? null;
    };
    await poll(ethAsk, { timeout: 45_000 }).toMatch(/\d/);
    /** A new demo user with a 50× isolated ETH position on `side`, and its forced events. */
    const trader = async (side: "buy" | "sell") => {
      const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
      expect(demo.status).toBe(200);
      const token = demo.json.data.token;
      const call = async (method: string, url: string, body?: unknown) => {
        const answer = await api<Record<string, unknown>>(method, url, body, token);
        expect(answer.status, `${url}: ${JSON.stringify(answer.json)}`).toBe(200);
        return answer.json.data;
      };
      await call("POST", "/api/v1/wallet/transfers/internal", {
        requestId: `crash-transfer-${side}-${Date.now()}`,
        asset: "USDT",
        amount: "100",
        sourceWallet: "fund",
        targetWallet: "contract",
      });
      await call("PUT", "/api/v1/perp/markets/ETH-PERP/margin-mode", { marginMode: "isolated" });
      await call("PUT", "/api/v1/perp/markets/ETH-PERP/leverage", { leverage: 50 });
      const opened = await call("POST", "/api/v1/perp/orders", {
        clientOrderId: `crash-${side}-${Date.now()}`,
        marketId: "ETH-PERP",
        side,
        orderType: "market",
        contracts: 20,
      });
      expect(opened.filledContracts, JSON.stringify(opened)).toBeGreaterThan(0);
      type Forced = { kind: string; marketId: string; tickIds: string[] };
      const forced = async () => {
        const answer = await api<{ items: Forced[] }>(
          "GET",
          "/api/v1/perp/liquidations",
          undefined,
          token,
        );
        return (
          answer.json.data.items.find((e) =>
            ["liquidation", "insurance_takeover"].includes(e.kind),
          ) ?? null
        );
      };
      return { session: demo.json.data, forced };
    };
    // A long and a short: the tape moves on its own, and a move of about 2 % either way
    // liquidates one of them (into the book when orders are left beyond its bankruptcy price,
    // else the insurance fund takes it over), which the tape decides.
    const traders = [await trader("buy"), await trader("sell")];
    const firstForced = async () => {
      for (const one of traders) {
        const event = await one.forced();
        if (event) return { session: one.session, event };
      }
      return null;
    };
    await poll(async () => (await firstForced()) !== null, { timeout: 150_000 }).toBe(true);
    const { session, event: liquidation } = (await firstForced())!;
    expect(liquidation.marketId).toBe("ETH-PERP");
    expect(liquidation.tickIds.length).toBeGreaterThan(0);

    await open("/trade", "en");
    await signIn(session, true);
    await page.getByTestId("perp-page").waitFor();
    await page.getByTestId("perp-history-tabs").getByText(t.perp.history.forced).click();
    // The tape may force the position again (the rest of it) after the API read: look in
    // every row of that kind, not only the newest.
    const rows = page.getByTestId(`perp-forced-${liquidation.kind}`);
    await rows.first().waitFor();
    const links = await rows.getByTestId("perp-tick-link").allTextContents();
    expect(links).toEqual(expect.arrayContaining([liquidation.tickIds[0]!]));
    await page.screenshot({
      path: path.join(artifactsDir, "perp-liquidated-en.png"),
      fullPage: true,
    });
  }, 240_000);
});
