import { describe, expect, it } from "vitest";
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
 * Proof of liabilities in the app (issue 24): a funded user checks in the browser that their
 * balance is in the published root, and a proof altered on its way from the server fails.
 */
useTradingSuite();

describe("proof of liabilities", () => {
  it("verifies a user's inclusion in the browser, in German, and passes axe", async () => {
    const t = texts("de");
    const session = await newUser();
    await credit(session.user.id, "USDT", "1234.5");
    const published = await api(
      "POST",
      "/api/v1/operator/proof/liabilities",
      undefined,
      operatorToken,
    );
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    await open("/proof", "de");
    await signIn(session);
    await page.getByTestId("proof-root").waitFor();
    await page.getByTestId("proof-check").click();
    const verified = page.getByTestId("proof-verified");
    await verified.waitFor();
    await poll(() => verified.textContent()).toContain(t.proof.included);
    await poll(() => verified.textContent()).toContain("1.234,5");
    await expectAccessible("proof de");
  });

  it("refuses a proof whose amounts were changed on the way", async () => {
    const session = await newUser();
    await credit(session.user.id, "USDT", "10");
    await api("POST", "/api/v1/operator/proof/liabilities", undefined, operatorToken);
    await open("/proof");
    await signIn(session);
    // The server (or anyone in between) claims a bigger balance: the browser's check catches it.
    await page.route("**/api/v1/proof/liabilities/me", async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.proof.leaf.values = body.data.proof.leaf.values.map((v: string) =>
        v === "0" ? v : `${v}0`,
      );
      await route.fulfill({ response, json: body });
    });
    await page.getByTestId("proof-check").click();
    await page.getByTestId("proof-failed").waitFor();
    await poll(() => page.getByTestId("proof-failed").textContent()).toContain(
      "root_hash_mismatch",
    );
    await page.unroute("**/api/v1/proof/liabilities/me");
  });
});
