import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { totpCode } from "../../apps/server/src/modules/auth/totp.ts";
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
  useTradingSuite,
} from "./trading-suite.ts";

/**
 * Issue 23's back-office screens for the programmes, in German: an admin edits a VIP level so
 * that a user's balance reaches it, adds an agent level (the user's agent view shows its terms),
 * defines a deposit-bonus activity and funds the promotion account; the user then sees the level
 * on the VIP tab and the activity on the home page.
 */
useTradingSuite();

const desktop = { width: 1280, height: 900 };
const de = texts("de");
const adminDe = (
  await import("../../apps/web/src/locales/admin/de.json", { with: { type: "json" } })
).default;
const stepMs = 30_000;

/** A TOTP code of a step not used yet (the server accepts each step once). */
async function freshCode(secret: string, lastStep: { value: number }): Promise<string> {
  if (Math.floor(Date.now() / stepMs) <= lastStep.value) {
    await new Promise((resolve) => setTimeout(resolve, stepMs - (Date.now() % stepMs) + 300));
  }
  lastStep.value = Math.floor(Date.now() / stepMs);
  return totpCode(secret, Date.now());
}

/** POSTs JSON as is: sign-up calls of operators carry no reason (the suite's `api` adds one). */
async function postPlain<T>(url: string, body: object, token?: string) {
  const response = await fetch(`${server.url}${url}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as { data: T } };
}

/**
 * Fills an action form's reason and submits it; waits for "done", or, for a form that closes
 * when done (`closes`), for it to be gone.
 */
async function act(testId: string, reason: string, closes = false) {
  const form = page.getByTestId(testId);
  await form.getByTestId(`${testId}-reason`).fill(reason);
  await form.getByTestId(`${testId}-submit`).click();
  if (closes) await form.waitFor({ state: "detached" });
  else await form.getByTestId(`${testId}-done`).waitFor();
}

/** A `datetime-local` value of the browser's own time zone, `offsetMs` from now. */
const localTime = (p: Page, offsetMs: number) =>
  p.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, offsetMs);

describe("back office: VIP levels, agent levels and activities", () => {
  it("edits a VIP level, adds an agent level, defines and funds an activity; the user sees them (de)", async () => {
    // Users, money and the first VIP levels first: a named operator retires the bootstrap token.
    const user = await newUser();
    await credit(user.user.id, "USDT", "1000");
    for (const level of [
      { level: 0, feeDiscountBps: 0 },
      { level: 1, minVolume: "1000000", feeDiscountBps: 1_000 },
    ]) {
      const set = await api(
        "PUT",
        "/api/v1/operator/vip/levels",
        { mode: "real", asset: "USDT", ...level, reason: "VIP launch" },
        operatorToken,
      );
      expect(set.status, JSON.stringify(set.json)).toBe(200);
    }
    const email = `programmes-${Date.now()}@example.com`;
    const password = "operator password 1";
    const enrolled = await postPlain<{ totpSecret: string }>(
      "/api/v1/operator/bootstrap",
      { email, displayName: "Ada Admin", password },
      operatorToken,
    );
    expect(enrolled.status, JSON.stringify(enrolled.json)).toBe(200);
    const secret = enrolled.json.data.totpSecret;
    const lastStep = { value: 0 };
    const confirmed = await postPlain("/api/v1/operator/totp/confirm", {
      email,
      password,
      code: await freshCode(secret, lastStep),
    });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);

    await open("/admin/sign-in", "de", desktop);
    await page.getByTestId("admin-email").fill(email);
    await page.getByTestId("admin-password").fill(password);
    await page.getByTestId("admin-code").fill(await freshCode(secret, lastStep));
    await page.getByTestId("admin-sign-in-submit").click();
    await page.getByTestId("admin-whoami").waitFor();
    await page.getByTestId("admin-menu-programmes").click();
    await page.getByTestId("admin-programmes").waitFor();
    expect(await page.getByTestId("admin-menu-programmes").textContent()).toBe(
      adminDe.menu.programmes,
    );

    // VIP: level 1 now also reached by a balance of 500 USDT, with a 25 % discount.
    await page.getByTestId("admin-vip-level-real-1").waitFor();
    await page
      .getByTestId("admin-vip-level-real-1")
      .getByRole("button", { name: adminDe.common.edit })
      .click();
    await page.getByTestId("admin-vip-form-minBalance").fill("500");
    await page.getByTestId("admin-vip-form-feeDiscountBps").fill("2500");
    await act("admin-vip-form", "balance path for VIP 1", true);
    await poll(() => page.getByTestId("admin-vip-level-real-1").textContent()).toContain("2500");
    expect(await page.getByTestId("admin-vip-level-real-1").textContent()).toContain("500");

    // Agent levels: none yet; the admin adds LV1 of the real mode, measured in USDT.
    expect(await page.getByTestId("admin-agent-levels-real").textContent()).toContain(
      adminDe.programmes.agents.none,
    );
    await page.getByTestId("admin-agent-new").click();
    await page.getByTestId("admin-agent-form-level").fill("1");
    await page.getByTestId("admin-agent-form-asset").fill("USDT");
    await page.getByTestId("admin-agent-form-upgradeMembers").fill("3");
    await page.getByTestId("admin-agent-form-upgradeVolume").fill("5000");
    await page.getByTestId("admin-agent-form-keepMembers").fill("1");
    await page.getByTestId("admin-agent-form-keepVolume").fill("1000");
    await page.getByTestId("admin-agent-form-spotBps").fill("1500");
    await page.getByTestId("admin-agent-form-perpBps").fill("1750");
    await page.getByTestId("admin-agent-form-stocksBps").fill("1250");
    await act("admin-agent-form", "agent programme launch", true);
    const agentRow = page.getByTestId("admin-agent-level-real-1");
    await agentRow.waitFor();
    const agentCells = await agentRow.getByRole("cell").allTextContents();
    expect(agentCells.slice(0, 8)).toEqual([
      adminDe.programmes.agents.levelName.replace("{{level}}", "1"),
      "3",
      expect.stringContaining("5"),
      "1",
      expect.stringContaining("1"),
      "1500",
      "1750",
      "1250",
    ]);
    expect(await page.getByTestId("admin-agent-levels-real").textContent()).toContain("USDT");
    expect(await page.getByTestId("admin-agent-levels-demo").textContent()).toContain(
      adminDe.programmes.agents.none,
    );
    // The user's agent view carries the same terms.
    const agentMe = await api<{
      asset: string | null;
      levels: { level: number; upgradeVolume: string; rebateBps: Record<string, number> }[];
    }>("GET", "/api/v1/agents/me", undefined, user.token);
    expect(agentMe.status, JSON.stringify(agentMe.json)).toBe(200);
    expect(agentMe.json.data.asset).toBe("USDT");
    expect(agentMe.json.data.levels).toEqual([
      {
        level: 1,
        upgradeMembers: 3,
        upgradeVolume: "5000",
        keepMembers: 1,
        keepVolume: "1000",
        rebateBps: { spot: 1_500, perp: 1_750, stocks: 1_250 },
      },
    ]);

    // A new activity, open now for 30 days, then the money that backs its bonuses.
    const activityId = `admin-${Date.now()}`;
    await page.getByTestId("admin-activity-new").click();
    await page.getByTestId("admin-activity-form-id").fill(activityId);
    await page.getByTestId("admin-activity-form-minDeposit").fill("100");
    await page.getByTestId("admin-activity-form-bonus").fill("6");
    await page.getByTestId("admin-activity-form-capacity").fill("3");
    await page.getByTestId("admin-activity-form-startsAt").fill(await localTime(page, -3_600_000));
    await page
      .getByTestId("admin-activity-form-endsAt")
      .fill(await localTime(page, 30 * 86_400_000));
    await act("admin-activity-form", "winter campaign", true);
    const row = page.getByTestId(`admin-activity-${activityId}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(adminDe.programmes.activities.status.open);
    await page.getByTestId("admin-promotion-fund-amount").fill("12");
    await page.getByTestId("admin-promotion-fund-reference").fill(`bank-${activityId}`);
    await act("admin-promotion-fund", "campaign budget");
    await poll(() => page.getByTestId("admin-promotion-fund-available").textContent()).toContain(
      "12",
    );
    await poll(() => page.getByTestId("admin-promotion-real").textContent()).toContain("12");
    await expectAccessible("back office programmes");
    await page.screenshot({
      path: path.join(artifactsDir, "admin-programmes.png"),
      fullPage: true,
    });

    // The user: level 1 reached by balance, and the activity on the home page.
    await open("/vip", "de");
    await signIn(user);
    await poll(() => page.getByTestId("vip-level").textContent()).toBe(
      de.vip.levelName.replace("{{level}}", "1"),
    );
    expect(await page.getByTestId("vip-levels").textContent()).toContain("25");
    await page.goto(page.url().replace(/#.*$/, "#/"));
    const card = page.getByTestId("home-activity").filter({ hasText: "6 USDT" });
    await card.waitFor();
    expect(await card.textContent()).toContain(de.activity.state.bookable);
  }, 150_000);
});
