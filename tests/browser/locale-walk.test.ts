import { readFileSync } from "node:fs";
import path from "node:path";
import { locales } from "@candor/contract/locales";
import { describe, expect, it } from "vitest";
import { artifactsDir } from "../harness.ts";
import {
  api,
  currentScreen,
  open,
  page,
  server,
  texts,
  useTradingSuite,
  type SessionData,
} from "./trading-suite.ts";

/**
 * Issue 18: every route in all 12 locales on a small phone (360×740). Fails on a raw key, an
 * English word on a non-English page (brand names and tickers aside), horizontal overflow, a
 * clipped label or placeholder, and console errors. Screenshots of the main screens in en, de,
 * jp and th are kept (test-results/walk-*.png) to show real CJK and Thai text.
 */
useTradingSuite();

const root = path.resolve(import.meta.dirname, "../..");
const smallPhone = { width: 360, height: 740 };

/** Routes seen signed out (the auth screens), then signed in as a demo user (the rest). */
const signedOutRoutes = ["/login", "/register", "/forgot-password", "/wallet"];
const signedInRoutes = [
  "/",
  "/quotation",
  "/search",
  "/notices",
  "/settings",
  "/coin-coin",
  "/trade",
  "/options",
  "/options/orders",
  "/savings",
  "/stocks",
  "/stocks/AAPL",
  "/stocks/orders",
  "/loans",
  "/loans/mine",
  "/assets",
  "/assets/statement",
  "/assets/account/fund",
  "/assets/transfer",
  "/assets/exchange",
  "/assets/withdraw",
  "/assets/bank-deposit",
  "/notices/1",
  "/news",
  "/vip",
  "/activity",
  "/side",
  "/wallet/info",
  "/proof",
  "/transparency",
  "/security",
  "/identity",
  "/no-such-page",
];
const screenshotted = new Set(["/", "/coin-coin", "/assets", "/settings", "/register"]);
const screenshotLocales = new Set(["en", "de", "jp", "th"]);

/** Words that are the same in every language: brand names, tickers, units. */
const allowedWords = new Set(
  [
    "Candor",
    "USDT",
    "Binance",
    "OKX",
    "Tether",
    "Ethereum",
    "Bitcoin",
    "WalletConnect",
    "MetaMask",
    "TradingView",
    "PostgreSQL",
    "PGlite",
    "VIP",
    // "open source" is the loanword French and Italian notices use.
    "open",
    "source",
  ].map((word) => word.toLowerCase()),
);

type Texts = { [key: string]: string | Texts };
function leaves(node: Texts, prefix = ""): [string, string][] {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`),
  );
}
const sameAsEnglish: Record<string, "*" | string[]> = JSON.parse(
  readFileSync(path.join(root, "tests/locale-same-as-english.json"), "utf8"),
);
/**
 * Latin words of four letters or more, whole (French "branché" is not English "branch");
 * all-capital ones are tickers and ids (BRENT, USDT).
 */
const words = (text: string) =>
  (text.match(/\p{sc=Latin}[\p{sc=Latin}'-]{3,}/gu) ?? []).filter(
    (word) => word !== word.toUpperCase(),
  );
const english = leaves(texts("en"));
const namespaces = [...new Set(english.map(([key]) => key.split(".")[0]!))];

/** Latin words of the English texts that the locale's own texts never use. */
function englishOnlyWords(locale: string): Set<string> {
  // Every word the locale's own texts use is its word (Swedish "Server" is Swedish too).
  const own = new Set(
    leaves(texts(locale)).flatMap(([, text]) => words(text).map((word) => word.toLowerCase())),
  );
  const result = new Set<string>();
  for (const [key, text] of english) {
    const allowed = sameAsEnglish[key];
    if (allowed === "*" || allowed?.includes(locale)) continue;
    for (const word of words(text)) {
      const lower = word.toLowerCase();
      if (!own.has(lower) && !allowedWords.has(lower)) result.add(lower);
    }
  }
  return result;
}

interface Finding {
  kind: string;
  detail: string;
}

/** What is wrong on the current screen, measured in the page. */
async function inspect(): Promise<{ text: string[]; findings: Finding[] }> {
  return page.evaluate(() => {
    const findings: { kind: string; detail: string }[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      findings.push({ kind: "overflow", detail: `page ${root.scrollWidth} > ${root.clientWidth}` });
    }
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
    };
    const label = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join(".")} "${(
        element.textContent ?? ""
      )
        .trim()
        .slice(0, 40)}"`;
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || !visible(parent)) continue;
      if (parent.closest(".visually-hidden, script, style, noscript")) continue;
      texts.push(text);
      if (seen.has(parent)) continue;
      seen.add(parent);
      // A text element is clipped when its content is wider than its box and the overflow is
      // not shown (ellipsis, hidden): the user cannot read the end of it.
      const style = getComputedStyle(parent);
      const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
      if (clips && parent.scrollWidth > parent.clientWidth + 1 && style.overflowX !== "auto") {
        findings.push({ kind: "clipped", detail: label(parent) });
      }
    }
    // Placeholders: measured with the input's font against its inner width.
    const canvas = document.createElement("canvas").getContext("2d")!;
    for (const input of document.querySelectorAll("input[placeholder], textarea[placeholder]")) {
      const element = input as HTMLInputElement;
      if (!element.placeholder || !visible(element)) continue;
      const style = getComputedStyle(element);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const inner =
        element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = canvas.measureText(element.placeholder).width;
      if (width > inner + 1) {
        findings.push({ kind: "clipped placeholder", detail: `"${element.placeholder}"` });
      }
    }
    // Labels of native selects (the theme value, time in force): the chosen option must fit.
    for (const select of document.querySelectorAll("select")) {
      if (!visible(select)) continue;
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const chosen = select.selectedOptions[0]?.textContent ?? "";
      // Room for the arrow: about 20 px in Chromium.
      const inner =
        select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      if (canvas.measureText(chosen).width > inner + 1) {
        findings.push({ kind: "clipped select", detail: `"${chosen}"` });
      }
    }
    return { text: texts, findings };
  });
}

async function walk(
  locale: string,
  routes: string[],
  problems: string[],
  consoleErrors: string[],
  rawKey: RegExp,
  englishWords: Set<string>,
  allowedNames: Set<string>,
) {
  const network = watchRequests();
  for (const route of routes) {
    await page.evaluate((hash) => (window.location.hash = hash), route);
    // Lazy pages and first data: wait until no request is in flight, then until nothing says
    // "loading".
    await network.quiet();
    await page
      .locator(".adm-loading, .state-loading")
      .first()
      .waitFor({ state: "detached", timeout: 5_000 })
      .catch(() => undefined);
    const { text, findings } = await inspect();
    for (const finding of findings)
      problems.push(`${locale} ${route}: ${finding.kind} ${finding.detail}`);
    for (const line of text) {
      if (rawKey.test(line) || /no trans/i.test(line)) {
        problems.push(`${locale} ${route}: raw key "${line}"`);
      }
      if (locale === "en") continue;
      if (allowedNames.has(line)) continue;
      const untranslated = words(line).filter((word) => englishWords.has(word.toLowerCase()));
      if (untranslated.length > 0) {
        problems.push(`${locale} ${route}: English "${line}" (${untranslated.join(", ")})`);
      }
    }
    if (screenshotLocales.has(locale) && screenshotted.has(route)) {
      const name = route === "/" ? "home" : route.slice(1).replaceAll("/", "-");
      await page.screenshot({ path: path.join(artifactsDir, `walk-${name}-${locale}.png`) });
    }
  }
  network.stop();
  void consoleErrors;
}

/**
 * The page's requests in flight (lazy route chunks, first data). `quiet` resolves once none
 * has been in flight for 250 ms (at least 250 ms after it is called, so the route has rendered
 * and started its requests; at most 8 s, for a page that polls). WebSockets are not requests.
 */
function watchRequests() {
  const watched = page;
  let inFlight = 0;
  let changedMs = Date.now();
  const started = () => {
    inFlight++;
    changedMs = Date.now();
  };
  const ended = () => {
    inFlight--;
    changedMs = Date.now();
  };
  watched.on("request", started);
  watched.on("requestfinished", ended);
  watched.on("requestfailed", ended);
  const quietMs = 250;
  return {
    async quiet() {
      const calledMs = Date.now();
      changedMs = Math.max(changedMs, calledMs);
      while (Date.now() - calledMs < 8_000) {
        await watched.waitForTimeout(50);
        if (inFlight <= 0 && Date.now() - changedMs >= quietMs) return;
      }
    },
    stop() {
      watched.off("request", started);
      watched.off("requestfinished", ended);
      watched.off("requestfailed", ended);
    },
  };
}

describe("every route in every locale at 360×740", () => {
  it.each([...locales])(
    "%s: no raw key, no English, no overflow, nothing clipped, no console error",
    async (locale) => {
      const rawKey = new RegExp(`^(${namespaces.join("|")})\\.[A-Za-z0-9_.]+$`);
      const englishWords = locale === "en" ? new Set<string>() : englishOnlyWords(locale);
      // Brand names the server sends that we do not translate (stocks, most crypto).
      const instruments = await api<{ id: string; names: { en: string } }[]>(
        "GET",
        "/api/v1/market/instruments?limit=100",
      );
      const translated = Object.keys(
        (texts("en") as { names: { instrument: object } }).names.instrument,
      );
      // Savings plans are named by the operator, in the operator's words.
      const plans = await api<{ items: { name: string }[] }>("GET", "/api/v1/savings/plans");
      const allowedNames = new Set([
        ...instruments.json.data.filter((i) => !translated.includes(i.id)).map((i) => i.names.en),
        ...plans.json.data.items.map((p) => p.name),
      ]);
      const problems: string[] = [];
      const consoleErrors: string[] = [];
      await open("/login", locale, smallPhone);
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(`${page.url()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
      await walk(
        locale,
        signedOutRoutes,
        problems,
        consoleErrors,
        rawKey,
        englishWords,
        allowedNames,
      );
      const demo = await api<SessionData>("POST", "/api/v1/auth/demo", {});
      expect(demo.status).toBe(200);
      // Signed in as the app is: the session cookie (HttpOnly) and the cached user.
      await currentScreen().context.addCookies([
        { name: "candor_session", value: demo.json.data.token, url: server.url, httpOnly: true },
      ]);
      await page.evaluate(
        ({ user }) => {
          const entry = (value: unknown) =>
            JSON.stringify({ value, startMs: Date.now(), lifetimeSeconds: 604_800 });
          localStorage.setItem(
            "candor.userInfo",
            entry({ ...user, is_virtual: 1, demoOnly: true }),
          );
        },
        { user: demo.json.data.user },
      );
      await page.reload();
      await walk(
        locale,
        signedInRoutes,
        problems,
        consoleErrors,
        rawKey,
        englishWords,
        allowedNames,
      );
      expect(problems, problems.join("\n")).toEqual([]);
      expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
      void server;
    },
    240_000,
  );
});

describe("favourites", () => {
  it("stars a market on quotes: a Favourites tab comes first, and home lists it first", async () => {
    await open("/quotation?tab=metal", "de", smallPhone);
    const silver = page.getByTestId("instrument-row").filter({ hasText: "XAG" });
    await silver.getByTestId("favourite-star").click();
    await expect
      .poll(() => silver.getByTestId("favourite-star").getAttribute("aria-pressed"))
      .toBe("true");
    const tabs = page.getByRole("tab");
    await expect.poll(() => tabs.first().textContent()).toBe(texts("de").markets.favourites);
    await page.evaluate(() => (window.location.hash = "/"));
    const favourites = page.getByTestId("home-favourites");
    await expect.poll(() => favourites.textContent(), { timeout: 15_000 }).toContain("Silber");
    // The class lists below load after the favourites; wait for them, so the page no longer
    // moves under the click (a click during that shift can land on another row's star).
    await expect
      .poll(() => page.locator(".overview .group-title").count(), { timeout: 15_000 })
      .toBeGreaterThan(1);
    await expect.poll(() => page.locator(".overview [role=status]").count()).toBe(0);
    // Unstarred again, the section goes away (and nothing else was starred).
    await favourites.getByTestId("favourite-star").click();
    await expect.poll(() => page.getByTestId("home-favourites").count()).toBe(0);
  });
});
