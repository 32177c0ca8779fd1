import { describe, expect, it } from "vitest";
import { legacyRedirects, redirectForLegacyPath } from "./legacy-routes.ts";

describe("legacy spec paths", () => {
  it("redirects each listed page to a readable route", () => {
    expect(redirectForLegacyPath("/pages/index/index")).toBe("/");
    expect(redirectForLegacyPath("/pages/login/login")).toBe("/login");
    expect(redirectForLegacyPath("/pages/assets/shezhi")).toBe("/settings");
    expect(redirectForLegacyPath("/pages/index/web")).toBe("/wallet/info");
  });

  it("keeps the query and ignores a trailing slash", () => {
    expect(redirectForLegacyPath("/pages/index/quotation/?tab=stock")).toBe("/quotation?tab=stock");
  });

  it("leaves other paths alone", () => {
    expect(redirectForLegacyPath("/settings")).toBeUndefined();
    expect(redirectForLegacyPath("/pages/index/nope")).toBeUndefined();
  });

  it("maps only to readable routes, never to another legacy path", () => {
    for (const target of Object.values(legacyRedirects)) expect(target).not.toMatch(/^\/pages\//);
  });
});
