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
  signIn,
  texts,
  useSharedTradingSuite,
} from "./trading-suite.ts";

/**
 * A bank deposit against a real server (issue 16): the user sees the operator's bank details,
 * submits an amount with a payment-proof photo (previewed first), the operator credits it
 * through the API, and the user sees it credited, in the history and in the statement.
 */
useSharedTradingSuite();

describe("bank deposit", () => {
  const t = texts("en");

  it("submits a request with a proof image; the operator credits it; the user sees it", async () => {
    const user = await newUser();
    const photo = path.join(mkdtempSync(path.join(tmpdir(), "candor-proof-")), "receipt.jpg");
    await sharp({ create: { width: 320, height: 200, channels: 3, background: "#2a6" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "GPS-SECRET" } })
      .toFile(photo);
    await open("/assets/bank-deposit");
    await signIn(user);
    await page.locator("#bank-deposit-title").waitFor();
    await poll(() => page.getByTestId("bank-account-number").textContent()).toBe(
      "DE89 3704 0044 0532 0130 00",
    );
    await page.getByTestId("bank-deposit-amount").locator("input").fill("150");
    await page.getByTestId("bank-deposit-file").setInputFiles(photo);
    await page.getByTestId("bank-deposit-preview").waitFor();
    await expectAccessible("bank deposit form");
    await page.screenshot({ path: path.join(artifactsDir, "bank-deposit.png"), fullPage: true });
    await page.getByTestId("bank-deposit-submit").click();
    await poll(() => page.getByTestId("bank-deposit-submitted").textContent()).toContain(
      t.wallet.bankDeposit.submitted,
    );
    await poll(() =>
      page.getByTestId("bank-deposit-state").first().getAttribute("data-state"),
    ).toBe("pending");

    const pending = await api<{ items: { depositId: string; ownerId: string; amount: string }[] }>(
      "GET",
      "/api/v1/operator/bank-deposits",
      undefined,
      operatorToken,
    );
    const request = pending.json.data.items.find((d) => d.ownerId === user.user.id)!;
    expect(request.amount).toBe("150");
    const credited = await api(
      "POST",
      `/api/v1/operator/bank-deposits/${request.depositId}/credit`,
      {},
      operatorToken,
    );
    expect(credited.status, JSON.stringify(credited.json)).toBe(200);

    await page.reload();
    await poll(() =>
      page.getByTestId("bank-deposit-state").first().getAttribute("data-state"),
    ).toBe("credited");
    await poll(() => page.getByTestId("bank-deposit-state").first().textContent()).toBe(
      t.wallet.bankDeposit.states.credited,
    );
    // The proof is served to its owner (session cookie), re-encoded: the thumbnail decodes.
    await poll(() =>
      page
        .getByTestId("bank-deposit-proof")
        .first()
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBe(320);
    await page.screenshot({
      path: path.join(artifactsDir, "bank-deposit-credited.png"),
      fullPage: true,
    });
    const statement = await api<{ items: { reason: string; amount: string; reference: string }[] }>(
      "GET",
      "/api/v1/spot/statement",
      undefined,
      user.token,
    );
    expect(statement.json.data.items[0]).toMatchObject({
      reason: "deposit",
      amount: "150",
      reference: `bank_deposit:${request.depositId}`,
    });
    // The history's posting number opens the statement, in the same signed-in page.
    await page.getByTestId("bank-deposit-statement-link").first().click();
    await poll(() => page.getByTestId("statement-line").first().textContent()).toContain(
      `bank_deposit:${request.depositId}`,
    );
  });
});
