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

  it("opens a notice's detail from the legacy detail page, the list without a good id", () => {
    expect(redirectForLegacyPath("/pages/assets/xiaoxitongzhiDetails?id=42")).toBe("/notices/42");
    expect(redirectForLegacyPath("/pages/assets/xiaoxitongzhiDetails?id=../x")).toBe(
      "/notices?id=../x",
    );
    expect(redirectForLegacyPath("/pages/assets/xiaoxitongzhiDetails")).toBe("/notices");
  });

  it("leaves other paths alone", () => {
    expect(redirectForLegacyPath("/settings")).toBeUndefined();
    expect(redirectForLegacyPath("/pages/index/nope")).toBeUndefined();
  });

  it("maps only to readable routes, never to another legacy path", () => {
    for (const target of Object.values(legacyRedirects)) expect(target).not.toMatch(/^\/pages\//);
  });
});
