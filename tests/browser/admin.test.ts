import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { totpCode } from "../../apps/server/src/modules/auth/totp.ts";
import { artifactsDir } from "../harness.ts";
import {
  api,
  credit,
  currentScreen,
  expectAccessible,
  newUser,
  open,
  operatorToken,
  page,
  poll,
  returnTo,
  server,
  type SessionData,
  signIn,
  texts,
  useTradingSuite,
  withdrawAddressLockMs,
} from "./trading-suite.ts";

/**
 * Issue 17's browser scenario, through the back office (#/admin) as operators use it: the first
 * admin is created with the bootstrap token and signs in with password and authenticator code;
 * a user submits identity details, the operator refuses them with a reason from the list, the
 * user sees it, resubmits and is passed; a withdrawal above the two-person limit is approved by
 * one operator and co-approved by a second, different one (created in the back office), then
 * sent and completed, and the user's own history shows both operators' ids.
 */
useTradingSuite({ WITHDRAW_TWO_APPROVALS_ABOVE: "USDT:50" });

const desktop = { width: 1280, height: 900 };
const en = texts("en");
const admin = (await import("../../apps/web/src/locales/admin/en.json", { with: { type: "json" } }))
  .default;

interface Operator {
  id: string;
  email: string;
  password: string;
  secret: string;
  /** The TOTP step last used: a code is accepted once per step (replay protection). */
  lastStep: number;
}

const stepMs = 30_000;

/** A code of a step this operator has not used yet (waits for the next step when needed). */
async function freshCode(operator: Operator): Promise<string> {
  if (Math.floor(Date.now() / stepMs) <= operator.lastStep) {
    await new Promise((resolve) => setTimeout(resolve, stepMs - (Date.now() % stepMs) + 300));
  }
  operator.lastStep = Math.floor(Date.now() / stepMs);
  return totpCode(operator.secret, Date.now());
}

/** Signs an operator in at #/admin/sign-in in a fresh desktop browser context. */
async function signInOperator(operator: Operator): Promise<Page> {
  await open("/admin/sign-in", "en", desktop);
  await page.getByTestId("admin-sign-in").waitFor();
  await page.getByTestId("admin-email").fill(operator.email);
  await page.getByTestId("admin-password").fill(operator.password);
  await page.getByTestId("admin-code").fill(await freshCode(operator));
  await page.getByTestId("admin-sign-in-submit").click();
  await poll(() => page.getByTestId("admin-whoami").textContent()).toContain(`${operator.id}`);
  return page;
}

/** Fills an action form's reason and submits it. */
async function act(
  scope: ReturnType<Page["getByTestId"]>,
  testId: string,
  reason: string,
  waitDone = true,
) {
  const form = scope.getByTestId(testId);
  const reasonField = form.getByTestId(`${testId}-reason`);
  // Forms whose own fields are the reason (an identity refusal) are given "" and have none.
  if (reason) await reasonField.fill(reason);
  await form.getByTestId(`${testId}-submit`).click();
  if (waitDone) await form.getByTestId(`${testId}-done`).waitFor();
}

let firstAdmin: Operator;
let withdrawer: SessionData;
let withdrawAddressId: string;

describe("back office", () => {
  it("bootstraps the first admin, who signs in with a code and reviews identity", async () => {
    // Users and money first: once a named operator exists the bootstrap token (which the
    // suite's helpers use for the outbox and deposits) is retired everywhere.
    const user = await newUser();
    withdrawer = await newUser();
    await credit(withdrawer.user.id, "USDT", "500");
    const saved = await api<{ address: { addressId: string } }>(
      "POST",
      "/api/v1/wallet/withdraw-addresses",
      { network: "ethereum", address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", remark: "" },
      withdrawer.token,
    );
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    withdrawAddressId = saved.json.data.address.addressId;

    // Bootstrap token → first admin → confirm the authenticator, in the back office itself.
    await open("/admin/bootstrap", "en", desktop);
    await page.getByTestId("admin-bootstrap").waitFor();
    const email = `admin-${Date.now()}@example.com`;
    const password = "operator password 1";
    await page.getByTestId("admin-bootstrap-token").fill(operatorToken);
    await page.getByTestId("admin-bootstrap-email").fill(email);
    await page.getByTestId("admin-bootstrap-name").fill("Ada Admin");
    await page.getByTestId("admin-bootstrap-password").fill(password);
    await page.getByRole("button", { name: admin.bootstrap.submit }).click();
    await page.getByTestId("operator-qr").waitFor();
    const secret = (await page.getByTestId("operator-totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expectAccessible("admin bootstrap enrolment");
    firstAdmin = { id: "", email, password, secret, lastStep: 0 };
    await page.getByTestId("admin-confirm-code").fill(await freshCode(firstAdmin));
    await page.getByRole("button", { name: admin.confirm.submit }).click();
    await page.getByTestId("admin-confirmed").waitFor();
    // The bootstrap token creates no second admin.
    const again = await api(
      "POST",
      "/api/v1/operator/bootstrap",
      { email: "other@example.com", displayName: "Other", password },
      operatorToken,
    );
    expect(again.status).not.toBe(200);

    // A user submits identity details.
    await open("/identity");
    await signIn(user);
    await page.locator("#identity-title").waitFor();
    await page.getByTestId("identity-country").selectOption("SE");
    await page.getByTestId("identity-name").locator("input").fill("Greta Svensson");
    await page.getByTestId("identity-document-type").selectOption("passport");
    await page.getByTestId("identity-number").locator("input").fill("AB1234567");
    await page.getByTestId("identity-submit").click();
    await poll(() => page.getByTestId("identity-state").textContent()).toContain(
      en.identity.states.under_review,
    );
    const userScreen = currentScreen();

    // The operator signs in (password + code) and refuses it with a reason from the list.
    const signedIn = await signInOperator({ ...firstAdmin, id: "" });
    const me = await signedIn.evaluate(() => sessionStorage.getItem("candor.operatorSession"));
    firstAdmin.id = (JSON.parse(me!) as { operator: { id: string } }).operator.id;
    firstAdmin.lastStep = Math.floor(Date.now() / stepMs);
    await expectAccessible("admin users");
    await page.getByTestId("admin-menu-identity").click();
    const row = page.locator(`[data-testid="admin-identity-row"][data-user="${user.user.id}"]`);
    await row.waitFor();
    await expectAccessible("admin identity queue");
    await row.getByRole("link").first().click();
    await page.getByTestId("admin-identity-detail").waitFor();
    await page.getByTestId("admin-identity-refusal-reason").selectOption("name_mismatch");
    await expectAccessible("admin identity review");
    await page.screenshot({ path: path.join(artifactsDir, "admin-identity.png"), fullPage: true });
    await act(page.getByTestId("admin-identity-detail"), "admin-identity-reject", "", false);
    await poll(() => page.getByTestId("admin-identity-state-value").textContent()).toBe(
      admin.identityStates.not_approved,
    );
    const adminScreen = currentScreen();

    // The user sees the reason and resubmits.
    returnTo(userScreen);
    await page.reload();
    await poll(() => page.getByTestId("identity-reason").textContent()).toContain(
      en.identity.reasons.name_mismatch,
    );
    await page.getByTestId("identity-country").selectOption("SE");
    await page.getByTestId("identity-name").locator("input").fill("Greta Maria Svensson");
    await page.getByTestId("identity-number").locator("input").fill("AB1234567");
    await page.getByTestId("identity-submit").click();
    await poll(() => page.getByTestId("identity-state").textContent()).toContain(
      en.identity.states.under_review,
    );

    // The operator passes the new submission, with a reason for the audit log.
    returnTo(adminScreen);
    await page.getByTestId("admin-menu-identity").click();
    await page.reload();
    await row.waitFor();
    await row.getByRole("link").first().click();
    await page.getByTestId("admin-identity-detail").waitFor();
    await act(
      page.getByTestId("admin-identity-detail"),
      "admin-identity-approve",
      "Name and passport number match the document",
      false,
    );
    await poll(() => page.getByTestId("admin-identity-state-value").textContent()).toBe(
      admin.identityStates.passed,
    );

    returnTo(userScreen);
    await page.reload();
    await poll(() => page.getByTestId("identity-state").textContent()).toContain(
      en.identity.passed.basic,
    );

    // The audit log names the operator and the reason.
    returnTo(adminScreen);
    await page.getByTestId("admin-menu-audit").click();
    await poll(() => page.getByTestId("admin-audit-row").allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Name and passport number match the document"),
      ]),
    );
    await expectAccessible("admin audit log");
  }, 240_000);

  it("needs a second, different operator to co-approve a large withdrawal", async () => {
    expect(firstAdmin?.id, "the first test created the admin").toBeTruthy();
    // The admin creates a finance operator in the back office; the QR code shows once.
    await signInOperator(firstAdmin);
    await page.getByTestId("admin-menu-operators").click();
    const financeEmail = `finance-${Date.now()}@example.com`;
    const financePassword = "finance password 1";
    await page.getByTestId("admin-operator-email").fill(financeEmail);
    await page.getByTestId("admin-operator-name").fill("Fiona Finance");
    await page.getByTestId("admin-operator-password").fill(financePassword);
    await page.getByTestId("admin-operator-role").selectOption("finance");
    await act(
      page.getByTestId("admin-operators"),
      "admin-operator-create",
      "Second approver",
      false,
    );
    await page.getByTestId("operator-qr").waitFor();
    await expectAccessible("admin operators");
    const financeSecret = (await page.getByTestId("operator-totp-secret").textContent())!.trim();
    const firstScreen = currentScreen();

    // The new operator confirms the authenticator app at #/admin/confirm.
    const finance: Operator = {
      id: "",
      email: financeEmail,
      password: financePassword,
      secret: financeSecret,
      lastStep: 0,
    };
    await open("/admin/confirm", "en", desktop);
    await page.getByTestId("admin-confirm-email").fill(financeEmail);
    await page.getByTestId("admin-confirm-password").fill(financePassword);
    await page.getByTestId("admin-confirm-code").fill(await freshCode(finance));
    await page.getByRole("button", { name: admin.confirm.submit }).click();
    await page.getByTestId("admin-confirmed").waitFor();

    // The user (funded before the bootstrap) asks to withdraw 100 USDT, above the 50 USDT
    // two-person limit.
    const user = withdrawer;
    await new Promise((resolve) => setTimeout(resolve, withdrawAddressLockMs + 500));
    const requested = await api<{ withdrawalId: string }>(
      "POST",
      "/api/v1/wallet/withdrawals",
      {
        requestId: `admin-test-${Date.now()}`,
        addressId: withdrawAddressId,
        asset: "USDT",
        amount: "100",
        tradePassword: "correct horse 1",
      },
      user.token,
    );
    expect(requested.status, JSON.stringify(requested.json)).toBe(200);
    const withdrawalId = requested.json.data.withdrawalId;
    const card = () =>
      page.locator(`[data-testid="admin-withdrawal"][data-withdrawal="${withdrawalId}"]`);

    // The admin approves: one of two; the admin cannot approve it again.
    returnTo(firstScreen);
    await page.getByTestId("admin-menu-withdrawals").click();
    await card().waitFor();
    await poll(() => card().getByTestId("admin-withdrawal-approvals").textContent()).toBe("0 of 2");
    await expectAccessible("admin withdrawals");
    // The form goes once the list shows the approval, so the approval count is what is awaited.
    await act(card(), "admin-withdrawal-approve", "Address saved a week ago, amount usual", false);
    await poll(() => card().getByTestId("admin-withdrawal-approvals").textContent()).toBe("1 of 2");
    await card().getByTestId("admin-withdrawal-waiting").waitFor();
    expect(await card().getByTestId("admin-withdrawal-approve").count()).toBe(0);
    await page.screenshot({
      path: path.join(artifactsDir, "admin-withdrawals.png"),
      fullPage: true,
    });
    const twice = await api(
      "POST",
      `/api/v1/operator/withdrawals/${withdrawalId}/approve`,
      { reason: "approving twice" },
      JSON.parse((await page.evaluate(() => sessionStorage.getItem("candor.operatorSession")))!)
        .token as string,
    );
    expect(twice.json.error).toBe("withdrawal_same_operator");

    // The finance operator co-approves, marks it sent and completes it.
    await signInOperator(finance);
    finance.id = (
      JSON.parse(
        (await page.evaluate(() => sessionStorage.getItem("candor.operatorSession")))!,
      ) as {
        operator: { id: string };
      }
    ).operator.id;
    expect(finance.id).not.toBe(firstAdmin.id);
    await page.getByTestId("admin-menu-withdrawals").click();
    await card().waitFor();
    await poll(() => card().getByTestId("admin-withdrawal-approved-by").textContent()).toContain(
      firstAdmin.id,
    );
    await act(card(), "admin-withdrawal-approve", "Second check of the destination address", false);
    await poll(() => card().count()).toBe(0);
    await page.getByTestId("admin-withdrawal-status").selectOption("approved");
    await card().waitFor();
    await card()
      .getByTestId("admin-withdrawal-tx-hash")
      .fill(`0x${"7a".repeat(32)}`);
    await act(card(), "admin-withdrawal-sent", "Paid from the hot wallet", false);
    await poll(() => card().count()).toBe(0);
    await page.getByTestId("admin-withdrawal-status").selectOption("sent");
    await card().waitFor();
    await act(card(), "admin-withdrawal-complete", "Twelve confirmations seen", false);
    await poll(() => card().count()).toBe(0);

    // The user's own history names both operators.
    await open("/assets/withdraw");
    await signIn(user);
    await poll(() => page.getByTestId("withdrawal-status").first().textContent()).toBe(
      en.wallet.withdraw.states.completed,
    );
    const steps = (await page.getByTestId("withdrawal-steps").first().textContent()) ?? "";
    expect(steps).toContain(`${en.wallet.withdraw.operator} ${firstAdmin.id}`);
    expect(steps).toContain(`${en.wallet.withdraw.operator} ${finance.id}`);
    await page.goto(`${server.url}/#/assets/statement`);
    await poll(() => page.getByTestId("statement-line").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(finance.id)]),
    );

    // The admin disables the finance operator (with a reason): the list says so at once.
    await signInOperator(firstAdmin);
    await page.getByTestId("admin-menu-operators").click();
    await page.getByTestId(`admin-operator-disable-${finance.id}`).click();
    await act(
      page.getByTestId("admin-operators"),
      "admin-operator-disable",
      "Left the team",
      false,
    );
    const row = page.getByTestId("admin-operator-list").locator("tr", { hasText: financeEmail });
    await poll(() => row.textContent()).toContain(admin.operators.disabled);
    expect(await page.getByTestId(`admin-operator-disable-${finance.id}`).count()).toBe(0);

    // The admin lets them back in with a new password; a new QR code shows once, and the
    // operator confirms it before signing in under the same id.
    await page.getByTestId(`admin-operator-enable-${finance.id}`).click();
    const returningPassword = "finance password 2";
    await page.getByTestId("admin-operator-enable-password").fill(returningPassword);
    await act(
      page.getByTestId("admin-operators"),
      "admin-operator-enable",
      "Back from leave",
      false,
    );
    await page.getByTestId("operator-qr").waitFor();
    const returningSecret = (await page.getByTestId("operator-totp-secret").textContent())!.trim();
    expect(returningSecret).not.toBe(financeSecret);
    await poll(() => row.textContent()).toContain(admin.users.active);
    const returning: Operator = {
      ...finance,
      password: returningPassword,
      secret: returningSecret,
    };
    await open("/admin/confirm", "en", desktop);
    await page.getByTestId("admin-confirm-email").fill(financeEmail);
    await page.getByTestId("admin-confirm-password").fill(returningPassword);
    await page.getByTestId("admin-confirm-code").fill(await freshCode(returning));
    await page.getByRole("button", { name: admin.confirm.submit }).click();
    await page.getByTestId("admin-confirmed").waitFor();
    await signInOperator(returning);
  }, 300_000);

  it("changes a spot market's fees and a withdrawal's limits for later requests", async () => {
    expect(firstAdmin?.id, "the first test created the admin").toBeTruthy();
    const markets = await api<{ items: { marketId: string; feeBpsMaker: number; feeBpsTaker: number }[] }>("GET", "/api/v1/spot/markets"); // prettier-ignore
    // The last market, put back afterwards: the suite's server is shared.
    const market = markets.json.data.items.at(-1)!;
    await signInOperator(firstAdmin);
    await page.getByTestId("admin-menu-markets").click();
    const row = page.getByTestId(`admin-spot-fees-${market.marketId}`);
    await row.waitFor();
    await expectAccessible("admin markets and countries");
    await row.getByRole("button").click();
    const form = page.getByTestId("admin-market-terms-form");
    await form.getByTestId("admin-market-terms-maker").fill("7");
    await form.getByTestId("admin-market-terms-taker").fill("33");
    await act(
      page.getByTestId("admin-markets"),
      "admin-market-terms-form",
      "Fee schedule 2027",
      false,
    );
    await poll(() => row.textContent()).toContain("33");
    const after = await api<{ items: { marketId: string; feeBpsMaker: number; feeBpsTaker: number }[] }>("GET", "/api/v1/spot/markets"); // prettier-ignore
    expect(after.json.data.items.find((m) => m.marketId === market.marketId)).toMatchObject({
      feeBpsMaker: 7,
      feeBpsTaker: 33,
    });
    const token = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem("candor.operatorSession")))!,
    ).token as string;
    const restored = await api(
      "PUT",
      `/api/v1/operator/spot/markets/${market.marketId}/fees`,
      { feeBpsMaker: market.feeBpsMaker, feeBpsTaker: market.feeBpsTaker, reason: "Test done" },
      token,
    );
    expect(restored.status).toBe(200);

    // The limits on the same page: a withdrawal's fee, which users see at once.
    const limitRow = page.getByTestId("admin-limits-withdrawal-USDT-bsc");
    await limitRow.waitFor();
    const before = (await limitRow.textContent()) ?? "";
    await limitRow.getByRole("button").click();
    const limitForm = page.getByTestId("admin-limit-form");
    await limitForm.getByTestId("admin-limit-minimum").fill("12.5");
    await limitForm.getByTestId("admin-limit-fee").fill("12.5");
    // The minimum must be above the fee: the server refuses in the operator's language.
    await limitForm.getByTestId("admin-limit-form-reason").fill("BSC fee schedule 2027");
    await limitForm.getByTestId("admin-limit-form-submit").click();
    await poll(() => limitForm.getByTestId("admin-limit-form-error").textContent()).toBe(
      "A withdrawal's minimum must be above its fee",
    );
    await limitForm.getByTestId("admin-limit-fee").fill("1.5");
    await act(page.getByTestId("admin-limits"), "admin-limit-form", "BSC fee schedule 2027", false);
    await poll(() => limitRow.textContent()).toContain("12.5");
    await expectAccessible("admin limits");
    const settings = await api<{ withdrawals: { network: string; minimum: string; fee: string }[] }>("GET", "/api/v1/settings"); // prettier-ignore
    expect(settings.json.data.withdrawals).toContainEqual({
      asset: "USDT",
      network: "bsc",
      minimum: "12.5",
      fee: "1.5",
    });
    // Put back: the suite's server is shared.
    const restoredLimit = await api(
      "POST",
      "/api/v1/operator/limits",
      {
        kind: "withdrawal",
        asset: "USDT",
        network: "bsc",
        minimum: "10",
        fee: "1",
        reason: "Test done",
      },
      token,
    );
    expect(restoredLimit.status).toBe(200);
    await page.reload();
    await poll(() => limitRow.textContent()).toBe(before);
  }, 120_000);

  it("publishes a banner with an image; the home page shows it until it is withdrawn", async () => {
    expect(firstAdmin?.id, "the first test created the admin").toBeTruthy();
    await signInOperator(firstAdmin);
    await page.getByTestId("admin-menu-content").click();
    const section = page.getByTestId("admin-banners");
    await section.waitFor();
    const title = "Stocks: the US session is open";
    await section.getByTestId("admin-banner-title").fill(title);
    await section.getByTestId("admin-banner-image").setInputFiles({
      name: "banner.png",
      mimeType: "image/png",
      buffer: await sharp({
        create: { width: 320, height: 100, channels: 3, background: { r: 20, g: 120, b: 200 } },
      })
        .png()
        .toBuffer(),
    });
    await act(section, "admin-banner-publish", "Stocks campaign");
    await poll(() => section.getByTestId("admin-banner-row").first().textContent()).toContain(
      `${title} · -- · ${admin.banners.imageShort} 320×100`,
    );
    const token = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem("candor.operatorSession")))!,
    ).token as string;

    // Anyone sees it on the home page: the image loads, decorative beside its text.
    await open("/");
    const banner = page
      .getByTestId("home-banners")
      .getByRole("listitem")
      .filter({ hasText: title });
    const image = banner.getByTestId("home-banner-image");
    await image.waitFor();
    await poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    expect(await image.getAttribute("alt")).toBe("");
    await expectAccessible("home with an image banner");
    await page.screenshot({ path: path.join(artifactsDir, "home-banner-image.png") });

    // Withdrawn (the suite's server is shared): the image is no longer public.
    const listed = await api<{ items: { id: string; title: string }[] }>("GET", "/api/v1/banners");
    const bannerId = listed.json.data.items.find((b) => b.title === title)!.id;
    const withdrawn = await api(
      "POST",
      `/api/v1/operator/banners/${bannerId}/withdraw`,
      { reason: "Test done" },
      token,
    );
    expect(withdrawn.status).toBe(200);
    const gone = await fetch(`${server.url}/api/v1/banners/${bannerId}/image`);
    expect(gone.status).toBe(404);
  }, 120_000);
});
