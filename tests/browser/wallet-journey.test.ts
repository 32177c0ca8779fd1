import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  expectAccessible,
  newUser,
  open,
  operatorToken,
  page,
  poll,
  server,
  signIn,
  texts,
  useTradingSuite,
  withdrawAddressLockMs,
} from "./trading-suite.ts";

/**
 * Issue 16's journeys against one real server on the local chain (CHAIN_MODE=local: an
 * in-process EVM with a valueless test token, 2 confirmations, polled every 300 ms):
 *
 * 1. Crypto: deposit on the chain → credited after its confirmations → transfer to the contract
 *    wallet → quick exchange → a second user receives an internal transfer → withdrawal to a
 *    saved address once its lock passed → approved → paid on chain from the hot wallet →
 *    completed when the chain confirms it.
 * 2. Bank: bank deposit with a proof → operator credit → into the fiat account → Buy at a quote
 *    → bind a bank card → withdrawal to it → approved → paid (bank reference) → completed.
 */
useTradingSuite({ CHAIN_MODE: "local", CHAIN_CONFIRMATIONS: "2", CHAIN_POLL_MS: "300" });

const shot = (name: string) =>
  page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

/** Blocks on the local chain: each mint is one block (to an address nobody watches). */
async function mineBlocks(count: number) {
  for (let i = 0; i < count; i++) {
    const minted = await api(
      "POST",
      "/api/v1/operator/local-chain/mint",
      { address: "0x000000000000000000000000000000000000dEaD", amount: "1" },
      operatorToken,
    );
    expect(minted.status, JSON.stringify(minted.json)).toBe(200);
  }
}

async function operatorStep(id: string, step: string, body?: object) {
  const answer = await api(
    "POST",
    `/api/v1/operator/withdrawals/${id}/${step}`,
    body,
    operatorToken,
  );
  expect(answer.status, `${step}: ${JSON.stringify(answer.json)}`).toBe(200);
}

async function pendingWithdrawalOf(userId: string) {
  const pending = await api<{ items: { withdrawalId: string; userId: string }[] }>(
    "GET",
    "/api/v1/operator/withdrawals",
    undefined,
    operatorToken,
  );
  return pending.json.data.items.find((w) => w.userId === userId)!.withdrawalId;
}

async function transferOwn(token: string, source: string, target: string, amount: string) {
  await page.goto(`${server.url}/#/assets/transfer`);
  await page.locator("#transfer-title").waitFor();
  // The records the user has so far, once the page shows them all (counted while the list was
  // still loading, or from a cached list, "one more" would be met by the old records).
  const records = await api<{ items: unknown[] }>(
    "GET",
    "/api/v1/wallet/transfers",
    undefined,
    token,
  );
  const before = records.json.data.items.length;
  await poll(() => page.getByTestId("transfer-record").count()).toBe(before);
  await page.getByTestId("transfer-source").selectOption(source);
  await page.getByTestId("transfer-target").selectOption(target);
  await page.getByTestId("transfer-asset").selectOption("USDT");
  await page.getByTestId("transfer-amount").locator("input").fill(amount);
  await page.getByTestId("transfer-own-submit").click();
  await poll(() => page.getByTestId("transfer-record").count()).toBe(before + 1);
}

describe("wallet journeys on the local chain", () => {
  const t = texts("en");

  it("deposit on chain → transfer → exchange → send to a friend → withdraw on chain", async () => {
    for (const [asset, amount] of [
      ["BTC", "5"],
      ["USDT", "100000"],
    ] as const) {
      const funded = await api(
        "POST",
        "/api/v1/operator/house/deposits",
        { id: `journey-house-${asset}-${Date.now()}`, assetId: asset, amount, reference: "ops" },
        operatorToken,
      );
      expect(funded.status, JSON.stringify(funded.json)).toBe(200);
    }
    const user = await newUser();
    const friend = await newUser();
    await open("/assets/recharge");
    await signIn(user);
    const address = (await page.getByTestId("deposit-address").first().textContent())!.trim();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await page.getByTestId("deposit-address-qr").first().waitFor();
    await page.getByTestId("deposit-address-copy").first().waitFor();

    // Someone sends 100 test USDT to the deposit address; it waits for 2 confirmations.
    const minted = await api(
      "POST",
      "/api/v1/operator/local-chain/mint",
      { address, amount: "100" },
      operatorToken,
    );
    expect(minted.status, JSON.stringify(minted.json)).toBe(200);
    await poll(() => page.getByTestId("chain-deposit-state").first().getAttribute("data-state"), {
      timeout: 30_000,
    }).toMatch(/confirming|credited/);
    await mineBlocks(2);
    await poll(
      async () => {
        await page.reload();
        return page.getByTestId("chain-deposit-state").first().getAttribute("data-state");
      },
      { timeout: 30_000 },
    ).toBe("credited");
    await shot("journey-1-deposit-credited");

    await transferOwn(user.token, "fund", "contract", "20");

    await page.goto(`${server.url}/#/assets/exchange`);
    await page.getByTestId("exchange-disclosure").waitFor();
    await page.getByTestId("exchange-source").selectOption("USDT");
    await page.getByTestId("exchange-target").selectOption("BTC");
    await page.getByTestId("exchange-amount").locator("input").fill("30");
    await page.getByTestId("exchange-quote").click();
    await page.getByTestId("exchange-quote-card").waitFor();
    await poll(() => page.getByTestId("exchange-receive").textContent()).toMatch(/[1-9]/);
    await page.getByTestId("exchange-accept").click();
    await poll(() => page.getByTestId("exchange-record").count()).toBe(1);
    await shot("journey-2-exchanged");

    // The friend receives an internal transfer.
    await page.goto(`${server.url}/#/assets/transfer`);
    await page.getByRole("tab", { name: t.wallet.transfer.toUser }).click();
    await page.getByTestId("transfer-recipient-id").locator("input").fill(friend.user.id);
    await page.getByTestId("transfer-recipient-check").click();
    await poll(() => page.getByTestId("transfer-recipient-name").textContent()).toMatch(/\*/);
    await page.getByTestId("transfer-user-asset").selectOption("USDT");
    await page.getByTestId("transfer-user-amount").locator("input").fill("5");
    await page.getByTestId("transfer-trade-password").locator("input").fill("correct horse 1");
    await page.getByTestId("transfer-confirm").click();
    await page.getByTestId("transfer-user-submit").click();
    await poll(async () => {
      const received = await api<{ items: { direction: string; amount: string }[] }>(
        "GET",
        "/api/v1/wallet/transfers",
        undefined,
        friend.token,
      );
      return received.json.data.items[0];
    }).toMatchObject({ direction: "in", amount: "5" });

    // A saved address, usable once its lock (3 s in the suite) has passed.
    await page.goto(`${server.url}/#/assets/addresses`);
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
    await page.getByTestId("withdraw-amount").locator("input").fill("20");
    await poll(() => page.getByTestId("withdraw-total").textContent()).toContain("25");
    await page.getByTestId("withdraw-trade-password").locator("input").fill("correct horse 1");
    await page.getByTestId("withdraw-submit").click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.states.pending,
    );

    const id = await pendingWithdrawalOf(user.user.id);
    await operatorStep(id, "approve");
    await operatorStep(id, "broadcast");
    await mineBlocks(3);
    await poll(
      async () => {
        await page.reload();
        return page.getByTestId("withdrawal-status").first().textContent();
      },
      { timeout: 30_000 },
    ).toBe(t.wallet.withdraw.states.completed);

    await expectAccessible("withdrawal completed");
    await shot("journey-3-withdrawal-confirmed");
    const detail = await api<{
      txHash: string;
      steps: { status: string; operatorId: string | null }[];
    }>("GET", `/api/v1/wallet/withdrawals/${id}`, undefined, user.token);
    expect(detail.json.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Completed by the chain watcher, not by a person.
    expect(detail.json.data.steps.at(-1)).toEqual(
      expect.objectContaining({ status: "completed", operatorId: null }),
    );
  }, 240_000);

  it("bank deposit → credited → Buy from the fiat account → withdraw to a bank card", async () => {
    const user = await newUser();
    const photo = path.join(mkdtempSync(path.join(tmpdir(), "candor-proof-")), "receipt.jpg");
    await sharp({ create: { width: 200, height: 120, channels: 3, background: "#369" } })
      .jpeg()
      .toFile(photo);
    await open("/");
    await signIn(user);
    // Buy is on the home screen.
    await page.getByRole("link", { name: t.home.entries.buy }).click();
    await page.locator("#buy-title").waitFor();
    await page.getByTestId("buy-deposit-link").click();
    await page.locator("#bank-deposit-title").waitFor();
    await page.getByTestId("bank-deposit-amount").locator("input").fill("200");
    await page.getByTestId("bank-deposit-file").setInputFiles(photo);
    await page.getByTestId("bank-deposit-preview").waitFor();
    await page.getByTestId("bank-deposit-submit").click();
    await poll(() => page.getByTestId("bank-deposit-submitted").textContent()).toContain(
      t.wallet.bankDeposit.submitted,
    );
    const pending = await api<{ items: { depositId: string; ownerId: string }[] }>(
      "GET",
      "/api/v1/operator/bank-deposits",
      undefined,
      operatorToken,
    );
    const request = pending.json.data.items.find((d) => d.ownerId === user.user.id)!;
    const credited = await api(
      "POST",
      `/api/v1/operator/bank-deposits/${request.depositId}/credit`,
      {},
      operatorToken,
    );
    expect(credited.status, JSON.stringify(credited.json)).toBe(200);

    await transferOwn(user.token, "fund", "fiat", "200");
    await page.goto(`${server.url}/#/buy`);
    await poll(() => page.getByTestId("buy-available").textContent()).toContain("200");
    await page.getByTestId("buy-asset").selectOption("BTC");
    await page.getByTestId("buy-amount").locator("input").fill("50");
    await page.getByTestId("buy-quote").click();
    await page.getByTestId("buy-quote-card").waitFor();
    await poll(() => page.getByTestId("buy-receive").textContent()).toMatch(/[1-9]/);
    await expectAccessible("buy quote");
    await shot("journey-4-buy-quote");
    // A quote lives 10 s, about what the checks above take on a loaded machine, and its payment
    // waits in the fund wallet until it is accepted or expires (then it comes back). Let this
    // one run out and its payment come back, then ask again and accept the fresh quote at once.
    // (The old card goes when the new quote is asked for.)
    await poll(() => page.getByTestId("buy-expiry").textContent()).toBe(t.wallet.exchange.expired);
    await poll(async () => {
      const accounts = await api<{
        wallets: { wallet: string; items: { asset: string; available: string }[] }[];
      }>("GET", "/api/v1/wallet/accounts", undefined, user.token);
      const fiat = accounts.json.data.wallets.find((w) => w.wallet === "fiat");
      return fiat?.items.find((i) => i.asset === "USDT")?.available;
    }).toBe("200");
    const [asked] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === "POST" &&
          new URL(response.url()).pathname === "/api/v1/wallet/buy/quotes",
      ),
      page.getByTestId("buy-quote").click(),
    ]);
    const fresh = ((await asked.json()) as { data: { tickId: string } }).data;
    await poll(() => page.getByTestId("buy-tick").textContent()).toBe(fresh.tickId);
    await page.getByTestId("buy-accept").click();
    await poll(() => page.getByTestId("buy-available").textContent()).toContain("150");

    await page.goto(`${server.url}/#/assets/bank-cards`);
    await page.getByTestId("empty-state").waitFor();
    await page.getByTestId("bank-card-holder").locator("input").fill("Ana Silva");
    await page.getByTestId("bank-card-bank").locator("input").fill("Banco Exemplo");
    await page.getByTestId("bank-card-branch").locator("input").fill("Lisboa");
    await page.getByTestId("bank-card-number").locator("input").fill("4000 1234 5678 9010");
    await page.getByTestId("bank-card-save").click();
    await poll(() => page.getByTestId("bank-card-masked").first().textContent()).toBe("•••• 9010");
    await expectAccessible("bank cards");
    await shot("journey-5-bank-card");

    await page.goto(`${server.url}/#/assets/withdraw`);
    await page.getByTestId("withdraw-to-bank").click();
    await page.getByTestId("withdraw-card").waitFor();
    await page.getByTestId("bank-withdraw-amount").locator("input").fill("100");
    await poll(() => page.getByTestId("bank-withdraw-total").textContent()).toContain("101");
    await page.getByTestId("bank-withdraw-trade-password").locator("input").fill("correct horse 1");
    await page.getByTestId("bank-withdraw-submit").click();
    await page.getByRole("button", { name: t.common.confirm }).click();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.states.pending,
    );
    const id = await pendingWithdrawalOf(user.user.id);
    await operatorStep(id, "approve");
    await operatorStep(id, "paid", { bankReference: "SEPA-0001", reason: "paid by bank transfer" });
    await page.reload();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.paid,
    );
    // The row says what the bank card received, not an address.
    const row = page.getByTestId("withdrawal-record").first();
    await poll(() => row.textContent()).toContain(t.wallet.withdraw.receivedCard);
    expect(await row.textContent()).not.toContain(t.wallet.withdraw.received);
    await operatorStep(id, "complete");
    await page.reload();
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      t.wallet.withdraw.states.completed,
    );
    await shot("journey-6-bank-withdrawal-completed");
    await page.goto(`${server.url}/#/assets/account/fiat`);
    await poll(() => page.locator("body").textContent()).toContain("SEPA-0001");
  }, 180_000);
});
