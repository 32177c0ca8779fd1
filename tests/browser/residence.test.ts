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
 * Issue 17, the rest of the security centre, in Spanish: a user picks the United States on
 * `/choose-location` by searching its Spanish name, sees that seconds contracts are not offered
 * there (on `/open-location` and above the product), sets an anti-phishing code with the trade
 * password and finds a failed and a successful sign-in in the sign-in history.
 */
useTradingSuite({ COUNTRY_PRODUCT_BLOCKS: "seconds:US;perp:US,GB" });

describe("country of residence, anti-phishing code and sign-in history", () => {
  const es = texts("es");
  const fill = (template: string, values: Record<string, string>) =>
    template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? "");

  it("picks a country, sees a product switched off, sets a code and reads sign-ins (es)", async () => {
    const user = await newUser();
    // A wrong password first: the history shows it as failed.
    const failed = await api("POST", "/api/v1/auth/login", {
      account: user.user.username,
      password: "not the password 1",
    });
    expect(failed.status).toBe(401);

    await open("/choose-location", "es");
    await signIn(user);
    await page.locator("#choose-location-title").waitFor();
    await poll(() => page.getByTestId("current-country").textContent()).toBe(es.residence.none);
    await page.getByTestId("country-search").locator("input").fill("estados un");
    await poll(() => page.locator(".country-list li").count()).toBe(1);
    await expectAccessible("choose location");
    await page.screenshot({ path: path.join(artifactsDir, "choose-location.png"), fullPage: true });
    await page.getByTestId("country-US").click();

    // The first choice is saved at once; the country page says what it opens.
    await page.locator("#open-location-title").waitFor();
    await poll(() => page.getByTestId("residence-country").textContent()).toBe(
      fill(es.residence.current, { country: "Estados Unidos" }),
    );
    await poll(() => page.getByTestId("availability-seconds").textContent()).toContain(
      fill(es.residence.offCountry, { country: "Estados Unidos" }),
    );
    await poll(() => page.getByTestId("availability-stocks").textContent()).toContain(
      es.residence.available,
    );
    await expect(page.getByTestId("residence-disclosure").textContent()).resolves.toBe(
      es.residence.disclosure,
    );
    await expectAccessible("open location");

    // Above the product itself.
    await page.goto(`${new URL(page.url()).origin}/#/options`);
    await poll(() => page.getByTestId("product-blocked-seconds").textContent()).toContain(
      fill(es.residence.offCountry, { country: "Estados Unidos" }),
    );
    // The server refuses it too, in the user's language.
    const refused = await api(
      "POST",
      "/api/v1/seconds/contracts?lang=es",
      {
        requestId: "browser-us-seconds-1",
        instrumentId: "BTCUSDT",
        periodS: 30,
        direction: "up",
        stake: "10",
      },
      user.token,
    );
    expect(refused.json).toMatchObject({
      error: "product_unavailable_in_country",
      message: "Este producto no se ofrece en tu país de residencia",
    });

    // The security centre: anti-phishing code with the trade password, then sign-in history.
    await page.goto(`${new URL(page.url()).origin}/#/security`);
    await page.locator("#security-title").waitFor();
    await poll(() => page.getByTestId("anti-phishing-current").textContent()).toBe(
      es.security.antiPhishing.none,
    );
    await page.getByTestId("anti-phishing-code").locator("input").fill("Colibri7");
    await page.getByTestId("anti-phishing-proof").locator("input").fill("correct horse 1");
    await page.getByTestId("anti-phishing-save").click();
    await poll(() => page.getByTestId("anti-phishing-current").textContent()).toBe(
      fill(es.security.antiPhishing.current, { code: "Colibri7" }),
    );
    const history = page.getByTestId("sign-in-history");
    await poll(() => history.textContent()).toContain(es.security.signIns.method.register);
    await poll(() => page.getByTestId("sign-in-failed").first().textContent()).toBe(
      es.security.signIns.failedPassword,
    );
    await expectAccessible("security centre with sign-in history");
    await page.screenshot({
      path: path.join(artifactsDir, "security-sign-ins.png"),
      fullPage: true,
    });
  });
});
