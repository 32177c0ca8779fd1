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
  useSharedTradingSuite,
} from "./trading-suite.ts";

/**
 * Transfers and quick exchange against a real server (issue 16): a funded user moves money
 * between own wallets, sends some to a second user after checking the masked name, and swaps
 * USDT for BTC at a quote citing its tape tick against the operator-funded house.
 */
useSharedTradingSuite();

describe("wallet: transfer and quick exchange", () => {
  const t = texts("en");

  it("moves between own wallets and to another user, who receives it", async () => {
    const sender = await newUser();
    const recipient = await newUser();
    await credit(sender.user.id, "USDT", "500");
    await open("/assets/transfer");
    await signIn(sender);
    await page.locator("#transfer-title").waitFor();
    await page.getByTestId("transfer-source").selectOption("fund");
    await page.getByTestId("transfer-target").selectOption("contract");
    await page.getByTestId("transfer-asset").selectOption("USDT");
    await page.getByTestId("transfer-amount").locator("input").fill("120");
    await page.getByTestId("transfer-own-submit").click();
    await poll(() => page.getByTestId("transfer-record").count()).toBe(1);
    await expectAccessible("transfer own");

    await page.getByRole("tab", { name: t.wallet.transfer.toUser }).click();
    await page.getByTestId("transfer-recipient-id").locator("input").fill(recipient.user.id);
    await page.getByTestId("transfer-recipient-check").click();
    await poll(() => page.getByTestId("transfer-recipient-name").textContent()).toMatch(/\*/);
    await page.getByTestId("transfer-user-asset").selectOption("USDT");
    await page.getByTestId("transfer-user-amount").locator("input").fill("25");
    await page.getByTestId("transfer-trade-password").locator("input").fill("correct horse 1");
    await page.getByText(t.wallet.transfer.irreversible).waitFor();
    // The button stays disabled until the user confirms it cannot be undone.
    expect(await page.getByTestId("transfer-user-submit").isDisabled()).toBe(true);
    await page.getByTestId("transfer-confirm").click();
    await expectAccessible("transfer to user");
    await page.screenshot({ path: path.join(artifactsDir, "wallet-transfer.png"), fullPage: true });
    await page.getByTestId("transfer-user-submit").click();
    await poll(() => page.getByTestId("transfer-record").count()).toBe(2);
    await poll(() => page.getByTestId("transfer-record").first().textContent()).toContain("25");

    const received = await api<{ items: { direction: string; amount: string }[] }>(
      "GET",
      "/api/v1/wallet/transfers",
      undefined,
      recipient.token,
    );
    expect(received.json.data.items[0]).toMatchObject({ direction: "in", amount: "25" });
    const accounts = await api<{
      wallets: { wallet: string; items: { asset: string; available: string }[] }[];
    }>("GET", "/api/v1/wallet/accounts", undefined, sender.token);
    const usdt = (wallet: string) =>
      accounts.json.data.wallets
        .find((w) => w.wallet === wallet)!
        .items.find((i) => i.asset === "USDT")!.available;
    expect([usdt("fund"), usdt("contract")]).toEqual(["355", "120"]);
  });

  it("swaps at a quote that cites its tick, against the funded house", async () => {
    for (const [asset, amount] of [
      ["BTC", "5"],
      ["USDT", "100000"],
    ] as const) {
      const funded = await api(
        "POST",
        "/api/v1/operator/house/deposits",
        { id: `browser-house-${asset}-${Date.now()}`, assetId: asset, amount, reference: "ops" },
        operatorToken,
      );
      expect(funded.status, JSON.stringify(funded.json)).toBe(200);
    }
    const user = await newUser();
    await credit(user.user.id, "USDT", "1000");
    await open("/assets/exchange");
    await signIn(user);
    await page.getByTestId("exchange-disclosure").waitFor();
    await page.getByTestId("exchange-source").selectOption("USDT");
    await page.getByTestId("exchange-target").selectOption("BTC");
    await page.getByTestId("exchange-amount").locator("input").fill("100");
    await page.getByTestId("exchange-quote").click();
    await page.getByTestId("exchange-quote-card").waitFor();
    await poll(() => page.getByTestId("exchange-tick").textContent()).toMatch(/\S/);
    await poll(() => page.getByTestId("exchange-receive").textContent()).toMatch(/[1-9]/);
    await expectAccessible("exchange quote");
    await page.screenshot({ path: path.join(artifactsDir, "wallet-exchange.png"), fullPage: true });
    // A quote lives 10 s, about what the checks above take on a loaded machine: ask again and
    // accept the fresh quote at once. (The old card goes when the new quote is asked for.)
    const [asked] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === "POST" &&
          new URL(response.url()).pathname === "/api/v1/wallet/exchange/quotes",
      ),
      page.getByTestId("exchange-quote").click(),
    ]);
    const fresh = ((await asked.json()) as { data: { tickId: string } }).data;
    await poll(() => page.getByTestId("exchange-tick").textContent()).toBe(fresh.tickId);
    await page.getByTestId("exchange-accept").click();
    await poll(() => page.getByTestId("exchange-record").count()).toBe(1);
    const records = await api<{ items: { sourceAmount: string; tickId: string }[] }>(
      "GET",
      "/api/v1/wallet/exchanges",
      undefined,
      user.token,
    );
    expect(records.json.data.items[0]!.sourceAmount).toBe("100");
    expect(records.json.data.items[0]!.tickId).toBe(fresh.tickId);
  });

  it("keeps a withdrawal address book: add, see when usable, delete after confirming", async () => {
    const user = await newUser();
    await open("/assets/addresses");
    await signIn(user);
    await page.getByTestId("addresses-empty").waitFor();
    await page.getByTestId("address-network").selectOption("bsc");
    await page
      .getByTestId("address-input")
      .locator("input")
      .fill("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
    await page.getByTestId("address-remark").locator("input").fill("hardware wallet");
    await page.getByTestId("address-save").click();
    await poll(() => page.getByTestId("address-item").count()).toBe(1);
    await poll(() => page.getByTestId("address-item").textContent()).toContain("hardware wallet");
    await expectAccessible("address book");
    await page.screenshot({
      path: path.join(artifactsDir, "wallet-addresses.png"),
      fullPage: true,
    });
    await page.getByTestId("address-delete").click();
    await page.getByText(t.wallet.addresses.deleteConfirm).waitFor();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await page.getByTestId("addresses-empty").waitFor();
  });
});
