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
  texts,
  useTradingSuite,
} from "./trading-suite.ts";

/**
 * Issue 23, invitations, in French: the inviter's page shows the id, code, link and QR code;
 * the link opens registration with the code filled in; a friend registered with the code shows
 * up, masked, in the inviter's records. Then the operator sets a spot rebate share, the friend
 * trades, and the inviter sees the rebate paid out of the friend's fee (total and record).
 */
useTradingSuite();

describe("invitations", () => {
  const fr = texts("fr");

  it("shows my code and link, prefills registration and lists the invited friend (fr)", async () => {
    const inviter = await newUser();
    const me = await api<{ inviteCode: string; link: string }>(
      "GET",
      "/api/v1/invitations/me",
      undefined,
      inviter.token,
    );
    const { inviteCode, link } = me.json.data;
    const friend = await newUser(inviteCode);

    await open("/invite", "fr");
    await signIn(inviter);
    await page.locator("#invite-title").waitFor();
    expect(await page.locator("#invite-title").textContent()).toBe(fr.invite.title);
    expect(await page.getByTestId("invite-code").textContent()).toBe(inviteCode);
    expect(await page.getByTestId("invite-link").textContent()).toBe(link);
    expect(link).toContain(`#/register?invite=${inviteCode}`);
    await poll(() => page.getByTestId("invite-count").textContent()).toBe("1");
    expect(await page.getByTestId("invite-records").textContent()).toMatch(/\+46\*{4}\d\d/);
    expect(await page.getByTestId("invite-records").textContent()).not.toContain("--");
    expect(await page.getByRole("img", { name: fr.invite.qrAlt }).count()).toBe(1);
    expect(await page.getByTestId("invite-rebate-shares").textContent()).toBe(
      fr.invite.rebatesNone,
    );
    await expectAccessible("invite page");
    await page.screenshot({ path: path.join(artifactsDir, "invite.png"), fullPage: true });

    await open(`/register?invite=${inviteCode}`, "fr");
    await poll(() => page.getByTestId("invite-code-input").locator("input").inputValue()).toBe(
      inviteCode,
    );

    // The operator sets a spot share; the friend buys at market; the inviter sees the rebate.
    const shares = await api(
      "PUT",
      "/api/v1/operator/referral/rebates",
      { mode: "real", product: "spot", rebateBps: 5_000, reason: "browser test programme" },
      operatorToken,
    );
    expect(shares.status, JSON.stringify(shares.json)).toBe(200);
    // The friend buys from a seller at the last price (a limit sell rests there first).
    const seller = await newUser();
    await credit(friend.user.id, "USDT", "1000");
    await credit(seller.user.id, "BTC", "1");
    const ticker = await api<{ last: string }>("GET", "/api/v1/market/instruments/BTCUSDT/ticker");
    const [whole, fraction = ""] = ticker.json.data.last.split(".");
    const price = `${whole}.${(fraction + "00").slice(0, 2)}`;
    const limit = (side: "buy" | "sell", session: typeof friend) =>
      api(
        "POST",
        "/api/v1/spot/orders",
        {
          clientOrderId: `invite-${side}-${Date.now()}`,
          instrumentId: "BTCUSDT",
          side,
          type: "limit",
          price,
          quantity: "0.001",
          tradePassword: "correct horse 1",
        },
        session.token,
      );
    const sold = await limit("sell", seller);
    expect(sold.status, JSON.stringify(sold.json)).toBe(200);
    const bought = await limit("buy", friend);
    expect(bought.status, JSON.stringify(bought.json)).toBe(200);
    await poll(
      async () => {
        // Slowly: the endpoint allows 60 calls a minute per user.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const after = await api<{ rebateRecords: unknown[] }>(
          "GET",
          "/api/v1/invitations/me",
          undefined,
          inviter.token,
        );
        return after.json.data?.rebateRecords.length ?? JSON.stringify(after.json);
      },
      { timeout: 30_000 },
    ).toBe(1);
    await open("/invite", "fr");
    await signIn(inviter);
    await poll(() => page.getByTestId("invite-rebate-records").count()).toBe(1);
    expect(await page.getByTestId("invite-rebate-records").textContent()).toMatch(/\+46\*{4}\d\d/);
    expect(await page.getByTestId("invite-rebate-records").textContent()).toContain(
      fr.invite.product.spot,
    );
    expect(await page.getByTestId("invite-rebate-totals").textContent()).toContain("BTC");
    expect(await page.getByTestId("invite-rebate-shares").textContent()).toContain("50");
    await expectAccessible("invite page with rebates");
  }, 150_000);

  it("reserves a deposit-bonus activity after reading its terms, and the deposit pays it (de)", async () => {
    const de = texts("de");
    const user = await newUser();
    const activityId = `browser-${Date.now()}`;
    const defined = await api(
      "PUT",
      "/api/v1/operator/activities",
      {
        activityId,
        mode: "real",
        asset: "USDT",
        minDeposit: "100",
        bonus: "5",
        capacity: 3,
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        reason: "browser test campaign",
      },
      operatorToken,
    );
    expect(defined.status, JSON.stringify(defined.json)).toBe(200);
    const funded = await api(
      "POST",
      "/api/v1/operator/activities/fund",
      {
        id: `fund-${activityId}`,
        mode: "real",
        asset: "USDT",
        amount: "5",
        reference: `bank-${activityId}`,
        reason: "browser test campaign",
      },
      operatorToken,
    );
    expect(funded.status, JSON.stringify(funded.json)).toBe(200);
    await open("/activity", "de");
    await signIn(user);
    await page.locator("#activity-title").waitFor();
    const card = page.getByTestId("activity-card").filter({ hasText: de.activity.state.bookable });
    await card.getByRole("button", { name: de.activity.reserve }).click();
    // The terms are shown again before anything is reserved.
    await page.getByTestId("activity-confirm-terms").waitFor();
    expect(await page.getByTestId("activity-confirm-terms").textContent()).toContain("100");
    await page.getByRole("button", { name: de.activity.reserve }).last().click();
    await page.getByTestId("activity-reserved").waitFor();
    await credit(user.user.id, "USDT", "100");
    await open("/activity", "de");
    await signIn(user);
    await poll(() => page.getByTestId("activity-ended").first().textContent()).toContain(
      de.activity.paid,
    );
    await expectAccessible("activity page");
  }, 120_000);
});
