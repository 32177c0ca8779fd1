import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chainStatement, type StatementLine } from "@candor/proof";
import { artifactsDir, launchPersistentBrowser } from "../harness.ts";
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
} from "./trading-suite.ts";

/**
 * Verifiable by the user (issue 24), in one server: the proof of liabilities — a funded user
 * checks in the browser that their balance is in the published root, and a proof altered on
 * its way from the server fails — and the installable app (manifest, service worker, offline
 * page, nothing from the API cached).
 */
useSharedTradingSuite();

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
    const published = await api(
      "POST",
      "/api/v1/operator/proof/liabilities",
      undefined,
      operatorToken,
    );
    expect(published.status, JSON.stringify(published.json)).toBe(200);
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

describe("verifiable statement", () => {
  it("checks the whole statement in the browser against the published tree, in Swedish", async () => {
    const t = texts("sv");
    const session = await newUser();
    await credit(session.user.id, "USDT", "250.5");
    await credit(session.user.id, "BTC", "0.01");
    await api("POST", "/api/v1/operator/proof/liabilities", undefined, operatorToken);
    await open("/proof", "sv");
    await signIn(session);
    await page.getByTestId("statement-check").click();
    const verified = page.getByTestId("statement-verified");
    await verified.waitFor();
    await poll(() => verified.textContent()).toContain(t.proof.statement.verified);
    await page.getByTestId("statement-tree-matches").waitFor();
    await expectAccessible("statement check sv");

    // A second check finds everything the first one saw still there.
    await page.getByTestId("statement-check").click();
    await page.getByTestId("statement-kept").waitFor();

    // The CSV download carries the same postings.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByText(t.proof.statement.download).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^candor-statement-real-\d+\.csv$/);
    // Saved through Playwright: a Chromium shared over a connection keeps no local path.
    const saved = path.join(artifactsDir, download.suggestedFilename());
    await download.saveAs(saved);
    const csv = readFileSync(saved, "utf8");
    expect(csv.split("\r\n")[0]).toMatch(/^posting_seq,sequence,/);
    expect(csv).toContain(",250.5,250.5,false,deposit,");
  });

  it("catches a statement altered on the way, and a history that changed since", async () => {
    const session = await newUser();
    await credit(session.user.id, "USDT", "40");
    await credit(session.user.id, "BTC", "0.5");
    await open("/proof");
    await signIn(session);
    await page.getByTestId("statement-check").click();
    await page.getByTestId("statement-verified").waitFor();

    const url = "**/api/v1/wallet/statement/export?format=json";
    // A posting's amount grows on its way from the server: the chain no longer holds.
    await page.route(url, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.lines[0].amount = "41";
      body.data.lines[0].balanceAfter = "41";
      await route.fulfill({ response, json: body });
    });
    await page.getByTestId("statement-check").click();
    await page.getByTestId("statement-failed").waitFor();
    await poll(() => page.getByTestId("statement-failed").textContent()).toContain("line 1");

    // The server rewrites history consistently (the first deposit gone, the chain rebuilt):
    // this browser remembers what it saw and says so.
    await page.unroute(url);
    await page.route(url, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const kept = body.data.lines.slice(1).map((line: StatementLine) => ({
        ...line,
        units: 50_000_000n,
      }));
      const rechained = chainStatement(body.data.userId, body.data.mode, kept, () => 8);
      body.data.lines = rechained.lines;
      body.data.head = rechained.head;
      body.data.balances = body.data.balances.map((b: { asset: string }) =>
        b.asset === "USDT" ? { ...b, amount: "0" } : b,
      );
      await route.fulfill({ response, json: body });
    });
    await page.getByTestId("statement-check").click();
    await page.getByTestId("statement-changed").waitFor();
    await page.unroute(url);
  });
});

describe("transparency", () => {
  it("shows what is owed and what system accounts hold, in French, and passes axe", async () => {
    const t = texts("fr");
    const session = await newUser();
    await credit(session.user.id, "USDT", "5");
    await open("/transparency", "fr");
    await page.getByTestId("owed").waitFor();
    await poll(() => page.getByTestId("owed").textContent()).toContain("USDT");
    await poll(() => page.getByTestId("system-accounts").textContent()).toContain(
      t.names.account.external,
    );
    // Spot traders' results and Candor's own accounts over time, from the ledger's postings.
    await poll(() => page.getByTestId("spot-results").textContent()).toContain(
      t.proof.transparency.spotTitle.replace("{{days}}", "90"),
    );
    await poll(() => page.getByTestId("system-history").textContent()).toContain(
      t.proof.transparency.ago30,
    );
    await page.getByTestId("seconds-results").waitFor();
    await expectAccessible("transparency fr");
  });
});

describe("tape viewer", () => {
  it("shows a recorded tick with its neighbours, in German, and passes axe", async () => {
    const t = texts("de");
    type Tick = { instrumentId: string; tickId: string; price: string; sequence: string };
    let ticks: Tick[] = [];
    await poll(async () => {
      const tape = await api<{ ticks: Tick[] }>("GET", "/api/v1/tape?from=1");
      ticks = tape.json.data.ticks;
      return ticks.length;
    }).toBeGreaterThan(2);
    const tick = ticks[Math.floor(ticks.length / 2)]!;
    await open(`/tape/${tick.instrumentId}/${encodeURIComponent(tick.tickId)}`, "de");
    await page.getByTestId("tick-facts").waitFor();
    await poll(() => page.getByTestId("tick-facts").textContent()).toContain(tick.tickId);
    await poll(() => page.locator(".tick-current").textContent()).toContain(tick.sequence);
    await page.getByRole("heading", { name: t.tape.neighbours }).waitFor();
    await expectAccessible("tape viewer de");
  });
});

describe("installable app", () => {
  it("passes Chromium's installability check and registers the service worker", async () => {
    // A real profile: Chromium never offers to install from an incognito context.
    const profile = mkdtempSync(path.join(tmpdir(), "candor-pwa-"));
    const context = await launchPersistentBrowser(profile);
    try {
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(`${server.url}/`);
      const scriptUrl = await tab.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active?.scriptURL ?? "";
      });
      expect(scriptUrl).toBe(`${server.url}/sw.js`);
      const cdp = await context.newCDPSession(tab);
      const manifest = await cdp.send("Page.getAppManifest");
      expect(manifest.errors).toEqual([]);
      expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
      await poll(
        async () => (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors,
      ).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it("shows the offline page in the app's language without a server, and caches no API answer", async () => {
    const t = texts("de");
    await open("/quotation", "de");
    await page.evaluate(() => navigator.serviceWorker.ready);
    // Controlled from the next navigation on; let the app load its data once through it.
    await page.reload();
    await page.waitForLoadState("networkidle");
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    });
    expect(cached.some((url) => url.endsWith("/offline.html"))).toBe(true);
    expect(cached.filter((url) => new URL(url).pathname.startsWith("/api/"))).toEqual([]);

    await page.context().setOffline(true);
    await page.goto(`${server.url}/?offline`);
    await poll(() => page.locator("h1").textContent()).toBe(t.pwa.offlineTitle);
    await poll(() => page.locator("#retry").textContent()).toBe(t.pwa.offlineRetry);
    await expectAccessible("offline de");
    await page.context().setOffline(false);
  });
});
