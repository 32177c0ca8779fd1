import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  expectAccessible,
  newUser,
  open,
  page,
  poll,
  signIn,
  texts,
  useTradingSuite,
} from "./trading-suite.ts";

/**
 * Issue 23, invitations, in French: the inviter's page shows the id, code, link and QR code;
 * the link opens registration with the code filled in; a friend registered with the code shows
 * up, masked, in the inviter's records. No rebate figures are shown (rebates are not built).
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
    await newUser(inviteCode);

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
    expect(await page.locator("body").textContent()).not.toMatch(/rebate|remise|commission/i);
    await expectAccessible("invite page");
    await page.screenshot({ path: path.join(artifactsDir, "invite.png"), fullPage: true });

    await open(`/register?invite=${inviteCode}`, "fr");
    await poll(() => page.getByTestId("invite-code-input").locator("input").inputValue()).toBe(
      inviteCode,
    );
  });
});
