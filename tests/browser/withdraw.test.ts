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
  server,
  signIn,
  texts,
  useSharedTradingSuite,
  withdrawAddressLockMs,
} from "./trading-suite.ts";

/**
 * A withdrawal end to end against a real server (issue 16): the user saves an address, waits
 * out its lock (3 s in the suite), withdraws with the fee shown, the operator approves, marks
 * it sent and completes it over the API, and the user sees it completed and in the statement.
 */
useSharedTradingSuite();

describe("wallet: withdraw to a saved address", () => {
  const t = texts("en");

  it("add address → lock passes → withdraw → operator approves, sends, completes", async () => {
    const user = await newUser();
    await credit(user.user.id, "USDT", "500");
    await open("/assets/withdraw");
    await signIn(user);
    await page.locator("#withdraw-title").waitFor();
    // No saved address yet: "No address, go edit" leads to the address book.
    await page.getByTestId("withdraw-no-address").getByRole("link").click();
    await page.getByTestId("addresses-empty").waitFor();
    await page.getByTestId("address-network").selectOption("ethereum");
    await page
      .getByTestId("address-input")
      .locator("input")
      .fill("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
    await page.getByTestId("address-save").click();
    await poll(() => page.getByTestId("address-item").count()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, withdrawAddressLockMs + 500));

    await page.goto(`${server.url}/#/assets/withdraw`);
    await page.reload();
    await page.getByTestId("withdraw-address").waitFor();
    await page.getByTestId("withdraw-asset").selectOption("USDT");
    await page.getByTestId("withdraw-network").selectOption("ethereum");
    await page.getByTestId("withdraw-amount").locator("input").fill("100");
    await poll(() => page.getByTestId("withdraw-fee").textContent()).toContain("5");
    await poll(() => page.getByTestId("withdraw-total").textContent()).toContain("105");
    await page.getByTestId("withdraw-trade-password").locator("input").fill("correct horse 1");
    await expectAccessible("withdraw");
    await page.screenshot({ path: path.join(artifactsDir, "wallet-withdraw.png"), fullPage: true });
    await page.getByTestId("withdraw-submit").click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.states.pending,
    );

    const pending = await api<{ items: { withdrawalId: string; userId: string }[] }>(
      "GET",
      "/api/v1/operator/withdrawals",
      undefined,
      operatorToken,
    );
    const id = pending.json.data.items.find((w) => w.userId === user.user.id)!.withdrawalId;
    const txHash = `0x${"5e".repeat(32)}`;
    for (const [step, body] of [
      ["approve", undefined],
      ["sent", { txHash }],
      ["complete", undefined],
    ] as const) {
      const answer = await api(
        "POST",
        `/api/v1/operator/withdrawals/${id}/${step}`,
        body,
        operatorToken,
      );
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    }

    await page.reload();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.states.completed,
    );
    await poll(() => page.getByTestId("withdrawal-steps").first().textContent()).toContain(
      t.wallet.withdraw.states.sent,
    );
    await page.screenshot({
      path: path.join(artifactsDir, "wallet-withdrawal-completed.png"),
      fullPage: true,
    });
    await page.goto(`${server.url}/#/assets/statement`);
    await poll(() => page.getByTestId("statement-line").allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringContaining(t.coinCoin.statement.reasons.withdrawal_fee),
        expect.stringContaining(t.coinCoin.statement.reasons.withdrawal),
      ]),
    );
  });
});
