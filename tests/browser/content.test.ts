import { describe, expect, it } from "vitest";
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
 * News and notices (issue 23): the operator publishes; readers see headlines on the home page,
 * news by category in their language with read counts, and an unread badge that clears as
 * they open notices.
 */
useSharedTradingSuite();

describe("news and notices", () => {
  it("shows news in German, counts a signed-in reader once, and clears the unread badge", async () => {
    const t = texts("de");
    const published = await api<{ id: string }>(
      "POST",
      "/api/v1/operator/news",
      {
        category: "crypto",
        symbol: "BTCUSDT",
        texts: {
          en: { title: "Bitcoin week", body: "What moved." },
          de: { title: "Bitcoin-Woche", body: "Was sich bewegte." },
        },
      },
      operatorToken,
    );
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const notice = await api<{ id: string }>(
      "POST",
      "/api/v1/operator/notices",
      { texts: { en: { title: "Maintenance tonight", body: "From 02:00 UTC." } } },
      operatorToken,
    );
    expect(notice.status, JSON.stringify(notice.json)).toBe(200);

    const session = await newUser();
    await open("/", "de");
    await signIn(session);
    await poll(() => page.getByTestId("news-headlines").textContent()).toContain("Bitcoin-Woche");
    // The welcome notice and the new one are unread. (Exact: this is the only file on the shared
    // server that publishes notices; a file that publishes more needs a server of its own.)
    await poll(() => page.getByTestId("notices-unread-badge").textContent()).toBe("2");
    await expectAccessible("home with news de");

    await page.getByText(t.news.more).click();
    await page.getByRole("tab", { name: t.news.categories.crypto }).click();
    await poll(() => page.getByTestId("news-list").textContent()).toContain("Bitcoin-Woche");
    await page.getByText("Bitcoin-Woche").click();
    await poll(() => page.getByTestId("news-meta").textContent()).toContain(
      t.news.reads.replace("{{count}}", "1"),
    );
    await expectAccessible("news detail de");
    // Opened again: still one reader.
    await page.reload();
    await poll(() => page.getByTestId("news-meta").textContent()).toContain(
      t.news.reads.replace("{{count}}", "1"),
    );

    await page.goto(page.url().replace(/#.*$/, `#/notices/${notice.json.data.id}`));
    await page.getByText("Maintenance tonight").first().waitFor();
    await page.goto(page.url().replace(/#.*$/, "#/notices"));
    await poll(() => page.getByTestId("notices-unread").textContent()).toBe(
      t.notices.unread.replace("{{count}}", "1"),
    );
    await expectAccessible("notices with unread de");
  });
});
