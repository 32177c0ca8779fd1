import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDecimal as fromUnits, parseDecimal } from "@candor/decimal";
import { artifactsDir } from "../harness.ts";
import {
  api,
  credit,
  currentScreen,
  expectAccessible,
  newUser,
  open,
  page,
  poll,
  returnTo,
  server,
  signIn,
  texts,
  useSharedTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/** A price as units of its scale, read by the one codec as the order form reads typed text. */
function toUnits(text: string, scale: number): bigint | undefined {
  const result = parseDecimal(text, scale, { extraZeros: "accept" });
  return result.ok ? result.value : undefined;
}

/**
 * The Coin-Coin (spot) screen against a real server (issue 8): market data from the REST API
 * and the socket, the order form, orders and fills when the orders API answers.
 */
useSharedTradingSuite();
describe.each([
  ["en", "en"],
  ["de", "de"],
])("Coin-Coin in %s", (locale) => {
  const t = texts(locale);

  it("shows the pair, live price, chart, order book and recent trades", async () => {
    await open("/coin-coin", locale);
    await poll(() => page.getByTestId("pair-symbol").textContent()).toBe("BTC/USDT");
    // The ticker arrives by REST and then the socket: a real price, never a placeholder.
    await poll(() => page.getByTestId("last-price").textContent()).toMatch(/\d/);
    // The chart is a collapsible panel under the form and the book (issue 18).
    await page.getByTestId("chart-toggle").click();
    await page.getByTestId("price-chart").locator("canvas").first().waitFor();
    // The kernel's book of the pair: its levels, or "No orders in the book" — never made-up rows.
    await poll(async () => {
      const levels = await page.getByTestId("order-book").count();
      const empty = await page.getByTestId("book-empty").count();
      return levels + empty;
    }).toBe(1);
    await page.getByRole("tab", { name: t.coinCoin.trades.title }).click();
    await poll(async () => {
      const rows = await page.getByTestId("trade-row").count();
      const empty = await page.getByTestId("empty-state").count();
      return rows > 0 || empty > 0;
    }).toBe(true);
    await page.getByRole("tab", { name: t.coinCoin.book.title }).click();
    // Signed out: the form asks to log in instead of showing made-up balances.
    await page.getByTestId("login-to-trade").waitFor();
    await expectAccessible(`coin-coin ${locale}`);
    await page.screenshot({
      path: path.join(artifactsDir, `coin-coin-${locale}.png`),
      fullPage: true,
    });
  });

  it("picks another pair through the search sheet", async () => {
    await open("/coin-coin", locale);
    await page.getByTestId("pair-button").click();
    await page.getByTestId("pair-search").locator("input").fill("ETH");
    await page.getByTestId("pair-option").filter({ hasText: "ETH/USDT" }).first().click();
    await poll(() => page.getByTestId("pair-symbol").textContent()).toBe("ETH/USDT");
    await poll(() => page.evaluate(() => window.location.hash)).toContain("pair=ETHUSDT");
  });
});

// ---- Orders (need the orders API of apps/server/src/modules/spot and the engine in main.ts) ----

async function spotReady(): Promise<boolean> {
  const response = await fetch(`${server.url}/api/v1/spot/markets`);
  return response.status === 200;
}

/** Fills the order form and goes through the confirmation sheet with the trade password. */
async function placeLimit(
  locale: string,
  side: "buy" | "sell",
  price: string,
  quantity: string,
  onSheet?: () => Promise<void>,
) {
  const t = texts(locale);
  const tab = (side === "buy" ? t.coinCoin.form.buy : t.coinCoin.form.sell).replace(
    "{{asset}}",
    "BTC",
  );
  await page.getByRole("tab", { name: tab }).click();
  await page.getByTestId("order-price").locator("input").fill(price);
  await page.getByTestId("order-quantity").locator("input").fill(quantity);
  await page.getByTestId("order-submit").click();
  await page.getByTestId("confirm-sheet").waitFor();
  await onSheet?.();
  if ((await page.getByTestId("trade-password").count()) > 0) {
    await page.getByTestId("trade-password").locator("input").fill("correct horse 1");
  }
  await page.getByTestId("confirm-order").click();
}

/**
 * A price inside the spread when there is room (so the order rests and the next buyer meets
 * it first), else the best ask, else the last price.
 */
async function restingAskPrice(): Promise<string> {
  const depth = await api<{ bids: [string, string][]; asks: [string, string][] }>(
    "GET",
    "/api/v1/market/instruments/BTCUSDT/depth?mode=real&levels=1",
  );
  const ticker = await api<{ last: string }>("GET", "/api/v1/market/instruments/BTCUSDT/ticker");
  const bestBid = depth.json.data.bids[0]?.[0];
  const bestAsk = depth.json.data.asks[0]?.[0];
  if (!bestBid || !bestAsk) return fromUnits(toUnits(ticker.json.data.last, 2) ?? 1n, 2);
  const bid = toUnits(bestBid, 2)!;
  const ask = toUnits(bestAsk, 2)!;
  return fromUnits(ask - bid > 1n ? ask - 1n : ask, 2);
}

/**
 * On an order's detail page: every fill shows the tape tick id the API gives for it (or says
 * that none was recorded yet), and links to the public tape when the API gives the sequence.
 */
async function expectFillsAsTheApiSays(session: SessionData, locale: string) {
  await page.getByTestId("fill-row").first().waitFor();
  const orderId = await page.evaluate(() => window.location.hash.split("/").pop()!);
  const detail = await api<{ fills: { tickId: string | null; sequence?: string }[] }>(
    "GET",
    `/api/v1/spot/orders/${orderId}`,
    undefined,
    session.token,
  );
  const fills = detail.json.data.fills;
  expect(fills.length).toBeGreaterThan(0);
  await poll(() => page.getByTestId("fill-row").count()).toBe(fills.length);
  const shown = await page.getByTestId("fill-tick").allTextContents();
  expect(shown).toEqual(fills.map((fill) => fill.tickId ?? texts(locale).coinCoin.fill.noTick));
  expect(await page.getByTestId("fill-tape-link").count()).toBe(
    fills.filter((fill) => fill.sequence).length,
  );
}

async function openHistoryDetail() {
  await page.getByRole("tab", { name: texts("en").coinCoin.order.history }).click();
  await page.getByTestId("order-history").getByTestId("order-detail-link").first().click();
}

describe("orders on the Coin-Coin screen", () => {
  it("user A sells through the UI, user B buys through the UI, both see the fill and its tick", async () => {
    await open("/coin-coin", "en");
    if (!(await spotReady())) {
      // No orders API on this server yet: the screen says so instead of pretending.
      const seller = await newUser();
      await signIn(seller);
      await page.getByTestId("trading-unavailable").waitFor();
      await page.screenshot({ path: path.join(artifactsDir, "coin-coin-no-orders-api.png") });
      return;
    }
    const seller = await newUser();
    const buyer = await newUser();
    await credit(seller.user.id, "BTC", "1");
    await credit(buyer.user.id, "USDT", "100000");
    const price = await restingAskPrice();

    await signIn(seller);
    await poll(() => page.getByTestId("balance-BTC").textContent()).toContain("1");
    await placeLimit("en", "sell", price, "0.01");
    await poll(() => page.getByTestId("open-orders").getByTestId("order-card").count()).toBe(1);
    const sellerScreen = currentScreen();

    // B in German, in a second browser context.
    await open("/coin-coin", "de");
    await signIn(buyer);
    await poll(() => page.getByTestId("balance-USDT").textContent()).toMatch(/100/);
    await placeLimit("de", "buy", price, "0.01");
    await page.getByRole("tab", { name: texts("de").coinCoin.order.history }).click();
    await poll(() =>
      page.getByTestId("order-history").getByTestId("order-card").count(),
    ).toBeGreaterThan(0);
    await page.getByTestId("order-history").getByTestId("order-detail-link").first().click();
    await expectFillsAsTheApiSays(buyer, "de");
    await expectAccessible("order detail de");
    await page.screenshot({
      path: path.join(artifactsDir, "coin-coin-fill-de.png"),
      fullPage: true,
    });
    await page.context().close();

    // A sees the same fill.
    returnTo(sellerScreen);
    await page.reload();
    await openHistoryDetail();
    await expectFillsAsTheApiSays(seller, "en");
    await page.screenshot({
      path: path.join(artifactsDir, "coin-coin-fill-en.png"),
      fullPage: true,
    });
  });

  it("changes an open order's size in the dialog, then cancels it after confirming", async () => {
    await open("/coin-coin", "en");
    if (!(await spotReady())) return;
    const user = await newUser();
    await credit(user.user.id, "USDT", "1000");
    await signIn(user);
    // Far below the market: rests (and the form warns about the price first).
    const ticker = await api<{ last: string }>("GET", "/api/v1/market/instruments/BTCUSDT/ticker");
    const low = fromUnits((toUnits(ticker.json.data.last.split(".")[0]!, 0)! * 96n) / 100n, 0);
    await page.getByTestId("order-price").locator("input").fill(low);
    await page.getByTestId("order-quantity").locator("input").fill("0.001");
    await page.getByTestId("order-submit").click();
    await page.getByTestId("confirm-sheet").waitFor();
    if ((await page.getByTestId("trade-password").count()) > 0) {
      await page.getByTestId("trade-password").locator("input").fill("correct horse 1");
    }
    await page.getByTestId("confirm-order").click();
    await poll(() => page.getByTestId("open-orders").getByTestId("order-card").count()).toBe(1);
    // A smaller size, typed with a decimal comma: the card and the API show it.
    await page.getByTestId("order-amend").click();
    await page.getByText("Change the order size").waitFor();
    await page.getByTestId("amend-quantity").locator("input").fill("0,0005");
    await page.getByRole("button", { name: "Confirm" }).click();
    await poll(() => page.getByTestId("order-card-quantity").textContent()).toMatch(/^0\.00050*$/);
    const listed = await api<{ items: { quantity: string }[] }>(
      "GET",
      "/api/v1/spot/orders/open?instrumentId=BTCUSDT",
      undefined,
      user.token,
    );
    expect(listed.json.data.items.map((o) => toUnits(o.quantity, 8))).toEqual([50_000n]);
    await page.getByTestId("order-cancel").click();
    await page.getByText("Confirm order cancellation?").waitFor();
    await page.getByRole("button", { name: "Confirm" }).click();
    await poll(() => page.getByTestId("open-orders").count()).toBe(0);
  });

  it("places stop-limit orders either side of the price and sees one fire on the recorded tape, with its tick", async () => {
    await open("/coin-coin", "en");
    if (!(await spotReady())) return;
    const t = texts("en");
    const user = await newUser();
    await credit(user.user.id, "USDT", "10000");
    await credit(user.user.id, "BTC", "1");
    await signIn(user);
    await poll(() => page.getByTestId("balance-BTC").textContent()).toContain("1");
    await page.getByRole("tab", { name: t.coinCoin.order.conditional }).click();
    // Distinct order ids, pending or finished: an order that fires between the two reads is
    // in both lists and counts once.
    const listed = async () => {
      const ids = new Set<string>();
      for (const status of ["pending", "finished"]) {
        const answer = await api<{ items: { orderId: string }[] }>(
          "GET",
          `/api/v1/spot/conditional-orders?status=${status}`,
          undefined,
          user.token,
        );
        for (const item of answer.json.data.items) ids.add(item.orderId);
      }
      return ids.size;
    };
    // A buy stop 0.03 % above the last tick and a sell stop 0.03 % below it (BTC's tape moves
    // about 0.01 % a second, so one fires within seconds; which one is the tape's choice). The
    // trigger is read from the tape just before each order; if the tape already passed it while
    // the form was filled, the server refuses the order and it is placed again from the new price.
    for (const side of ["buy", "sell"] as const) {
      const before = await listed();
      for (let attempt = 0; attempt < 4 && (await listed()) === before; attempt++) {
        const ticker = await api<{ last: string }>(
          "GET",
          "/api/v1/market/instruments/BTCUSDT/ticker",
        );
        const last = toUnits(ticker.json.data.last, 2)!;
        const away = (last * 3n) / 10_000n;
        const trigger = side === "buy" ? last + away : last - away;
        const limit = side === "buy" ? (trigger * 1_005n) / 1_000n : (trigger * 995n) / 1_000n;
        const tab = (side === "buy" ? t.coinCoin.form.buy : t.coinCoin.form.sell).replace(
          "{{asset}}",
          "BTC",
        );
        await page.getByRole("tab", { name: tab }).click();
        await page.getByTestId("order-type").getByText(t.coinCoin.form.types.stop_limit).click();
        await page.getByTestId("order-trigger-price").locator("input").fill(fromUnits(trigger, 2));
        await page.getByTestId("order-price").locator("input").fill(fromUnits(limit, 2));
        await page.getByTestId("order-quantity").locator("input").fill("0.001");
        await page.getByTestId("order-submit").click();
        await page.getByTestId("confirm-sheet").waitFor();
        if ((await page.getByTestId("trade-password").count()) > 0) {
          await page.getByTestId("trade-password").locator("input").fill("correct horse 1");
        }
        await page.getByTestId("confirm-order").click();
        // Accepted: the sheet closes. Refused (the tape passed the trigger meanwhile): it stays
        // open with the reason in a toast; cancel it and place again from the new price.
        const sheet = page.getByTestId("confirm-sheet");
        const closed = await sheet.waitFor({ state: "hidden", timeout: 15_000 }).then(
          () => true,
          () => false,
        );
        if (!closed) {
          // (An order accepted just now closes the sheet by itself: then there is no button.)
          await sheet
            .getByRole("button", { name: t.common.cancel })
            .click({ timeout: 5_000 })
            .catch(() => undefined);
          await sheet.waitFor({ state: "hidden" });
        }
        await expect
          .poll(listed, { timeout: 10_000 })
          .toBeGreaterThan(before)
          .catch(() => undefined);
      }
      expect(await listed()).toBe(before + 1);
    }
    // One of them fires on a tick of the recorded tape: the card says so and names the tick.
    const fired = page
      .getByTestId("conditional-orders")
      .getByTestId("conditional-card")
      .filter({ has: page.getByTestId("conditional-tick") })
      .first();
    // Usually within seconds; a quiet tape can take a minute to move 0.03 % either way.
    await fired.waitFor({ timeout: 90_000 });
    await poll(() => fired.getByTestId("conditional-status").textContent()).toBe(
      t.coinCoin.order.conditionalStatus.triggered,
    );
    const orderId = await fired.getAttribute("data-order-id");
    const finished = await api<{
      items: {
        orderId: string;
        side: string;
        triggerPrice: string;
        tickId: string;
        tickPrice: string;
      }[];
    }>("GET", "/api/v1/spot/conditional-orders?status=finished", undefined, user.token);
    const order = finished.json.data.items.find((o) => o.orderId === orderId)!;
    expect(order.tickId).toBeTruthy();
    expect(await fired.getByTestId("conditional-tick").textContent()).toContain(order.tickId);
    // The tick is on the public tape at the price the card shows, and it reached the trigger.
    const tickUrl = `/api/v1/tape/tick?instrumentId=BTCUSDT&tickId=${encodeURIComponent(order.tickId)}&around=0`;
    await poll(async () => (await api("GET", tickUrl)).status).toBe(200);
    const tick = await api<{ tick: { tickId: string; price: string } }>("GET", tickUrl);
    expect(toUnits(tick.json.data.tick.price, 8)).toBe(toUnits(order.tickPrice, 8));
    const reached =
      order.side === "buy"
        ? toUnits(order.tickPrice, 8)! >= toUnits(order.triggerPrice, 8)!
        : toUnits(order.tickPrice, 8)! <= toUnits(order.triggerPrice, 8)!;
    expect(reached).toBe(true);
    await page.screenshot({
      path: path.join(artifactsDir, "coin-coin-stop-fired-en.png"),
      fullPage: true,
    });
    // Leave nothing in the shared server's real book: the other stop would fire later and its
    // order (like the fired one's, if it rests) would meet orders of whatever runs next.
    const pending = await api<{ items: { orderId: string }[] }>(
      "GET",
      "/api/v1/spot/conditional-orders?status=pending",
      undefined,
      user.token,
    );
    for (const { orderId: pendingId } of pending.json.data.items) {
      await api("DELETE", `/api/v1/spot/conditional-orders/${pendingId}`, undefined, user.token);
      // The finished card says who cancelled it, in words.
      const card = page.getByTestId("conditional-orders").locator(`[data-order-id="${pendingId}"]`);
      await poll(() =>
        card
          .getByTestId("conditional-reason")
          .textContent({ timeout: 1_000 })
          .catch(() => null),
      ).toBe(t.coinCoin.order.cancelReason.user);
    }
    const cancelled = await api("POST", "/api/v1/spot/orders/cancel-all", {}, user.token);
    expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200);
  }, 150_000);

  it("lets a demo user get demo funds and trade on the demo books", async () => {
    await open("/coin-coin", "en");
    if (!(await spotReady())) return;
    const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
    expect(demo.status).toBe(200);
    await signIn(demo.json.data, true);
    await page.getByTestId("demo-badge").waitFor();
    await page.getByTestId("demo-funds").click();
    await poll(() => page.getByTestId("balance-USDT").textContent()).toMatch(/[1-9]/);
    // Issue 18: on a 390×844 phone the order button is within the first screen, the price is
    // already filled in from the book, and the book shows bars and fixed decimals on every row.
    await page.evaluate(() => window.scrollTo(0, 0));
    const submit = await page.getByTestId("order-submit").boundingBox();
    expect(submit).not.toBeNull();
    expect(submit!.y + submit!.height).toBeLessThanOrEqual(844);
    await poll(() => page.getByTestId("order-price").locator("input").inputValue()).toMatch(
      /^\d+(\.\d+)?$/,
    );
    const rows = page.getByTestId("order-book").getByTestId("depth-price");
    await poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(4);
    const rowPrices = await rows.allTextContents();
    const decimals = new Set(rowPrices.map((text) => text.split(".")[1]?.length ?? 0));
    expect(decimals.size, rowPrices.join(" ")).toBe(1);
    const ticker = await api<{ last: string }>("GET", "/api/v1/market/instruments/BTCUSDT/ticker");
    const low = fromUnits((toUnits(ticker.json.data.last.split(".")[0]!, 0)! * 97n) / 100n, 0);
    // Demo money needs no trade password (issue 18): the sheet has no password field, and the
    // first demo order is placed straight away.
    await placeLimit("en", "buy", low, "0.001", async () => {
      expect(await page.getByTestId("trade-password").count()).toBe(0);
    });
    await poll(() => page.getByTestId("open-orders").getByTestId("order-card").count()).toBe(1);
    await expectAccessible("coin-coin demo");
    await page.screenshot({
      path: path.join(artifactsDir, "coin-coin-demo-en.png"),
      fullPage: true,
    });
  });
});
