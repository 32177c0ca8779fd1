import path from "node:path";
import { pathToFileURL } from "node:url";
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
  server,
  poll,
  signIn,
  texts,
  useTradingSuite,
} from "./trading-suite.ts";

/**
 * Issue 23, agents, in German: the operator sets an agent level; a friend invited by the agent
 * trades; at the UTC day boundary the kernel's recount gives the agent LV1; the friend trades
 * again and the agent sees the agent rebate out of that fee on the agent statistics page, and
 * the friend on the my-team page. The suite's server starts 300 s before a UTC midnight (a
 * test-only clock preload, tests/browser/clock-shift.mjs), so the boundary comes during the test;
 * once the page before the boundary is checked, a signal moves the server's clock forward to 5 s
 * before that midnight, rather than the test waiting out the rest of the 300 s.
 */
useTradingSuite({
  NODE_OPTIONS: `--import ${pathToFileURL(path.join(import.meta.dirname, "clock-shift.mjs")).href}`,
  CANDOR_TEST_MIDNIGHT_IN_S: "300",
  CANDOR_TEST_MIDNIGHT_JUMP_TO_S: "5",
});

interface AgentMe {
  level: number;
  team: { members: number; validMembersToday: number; lastDay: unknown };
  earnings: { asset: string; product: string; rebates: { today: string } }[];
}

describe("agents", () => {
  const de = texts("de");

  it("reaches LV1 after the day boundary and shows the agent rebate (de)", async () => {
    const agent = await newUser();
    const invite = await api<{ inviteCode: string }>(
      "GET",
      "/api/v1/invitations/me",
      undefined,
      agent.token,
    );
    const friend = await newUser(invite.json.data.inviteCode);
    const seller = await newUser();
    await credit(friend.user.id, "USDT", "1000");
    await credit(seller.user.id, "BTC", "1");
    const level = await api(
      "PUT",
      "/api/v1/operator/agents/levels",
      {
        mode: "real",
        level: 1,
        asset: "USDT",
        upgradeMembers: 1,
        upgradeVolume: "1",
        rebateBps: { spot: 5_000, perp: 5_000, stocks: 5_000 },
        reason: "browser test agent programme",
      },
      operatorToken,
    );
    expect(level.status, JSON.stringify(level.json)).toBe(200);

    // The friend buys 0.001 BTC from the seller at the last price: taker, the fee in BTC.
    const ticker = await api<{ last: string }>("GET", "/api/v1/market/instruments/BTCUSDT/ticker");
    const [whole, fraction = ""] = ticker.json.data.last.split(".");
    const price = `${whole}.${(fraction + "00").slice(0, 2)}`;
    let orders = 0;
    const trade = async () => {
      for (const [side, session] of [
        ["sell", seller],
        ["buy", friend],
      ] as const) {
        const placed = await api(
          "POST",
          "/api/v1/spot/orders",
          {
            clientOrderId: `agent-${side}-${Date.now()}-${++orders}`,
            instrumentId: "BTCUSDT",
            side,
            type: "limit",
            price,
            quantity: "0.001",
            tradePassword: "correct horse 1",
          },
          session.token,
        );
        expect(placed.status, JSON.stringify(placed.json)).toBe(200);
      }
    };
    const me = async () =>
      (await api<AgentMe>("GET", "/api/v1/agents/me", undefined, agent.token)).json.data;
    await trade();
    const before = await me();
    expect(before.level).toBe(0);
    expect(before.team).toMatchObject({ members: 1, validMembersToday: 1, lastDay: null });

    // The agent page before the boundary: no level yet, one valid member today.
    await open("/invite", "de");
    await signIn(agent);
    await page.getByTestId("invite-agent-link").click();
    await page.locator("#agent-title").waitFor();
    expect(await page.locator("#agent-title").textContent()).toBe(de.agents.title);
    expect(await page.getByTestId("agent-level").textContent()).toBe(de.agents.noLevel);
    expect(await page.getByTestId("agent-valid").textContent()).toBe("1");
    await page.getByTestId("agent-progress").waitFor();

    // The UTC day ends (the server's clock, moved on to 5 s before it): the recount gives LV1.
    server.process!.kill("SIGUSR2");
    await poll(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        return (await me()).level;
      },
      { timeout: 300_000 },
    ).toBe(1);

    // The next fee pays the agent half of it (no invitation share is set here).
    await trade();
    await poll(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const row = (await me()).earnings.find((e) => e.product === "spot");
        return row !== undefined && row.rebates.today !== "0";
      },
      { timeout: 30_000 },
    ).toBe(true);
    await page.reload();
    await poll(() => page.getByTestId("agent-level").textContent()).toBe(
      de.agents.levelName.replace("{{level}}", "1"),
    );
    const earnings = page.getByTestId("agent-earnings-spot");
    await earnings.waitFor();
    expect(await earnings.textContent()).toContain(de.agents.product.spot);
    expect(await page.getByTestId("agent-rebate-today-spot").textContent()).not.toBe("0");
    expect(await page.getByTestId("agent-history").textContent()).toContain(
      de.agents.levelName.replace("{{level}}", "1"),
    );
    await expectAccessible("agent page");
    await page.screenshot({ path: path.join(artifactsDir, "agent.png"), fullPage: true });

    // My team: the friend, masked, a valid member today.
    await page.getByTestId("agent-team-link").click();
    await page.getByTestId("team-members").waitFor();
    expect(await page.getByTestId("team-members").textContent()).toMatch(/\+46\*{4}\d\d/);
    expect(await page.getByTestId("team-members").textContent()).toContain(de.agents.valid);
    await expectAccessible("my team page");
  }, 420_000);
});
