import i18n from "i18next";
import { describe, expect, it } from "vitest";
import { errorKey, knownErrorKey } from "./i18n-keys.ts";

describe("typed translation keys", () => {
  it("does not compile a key that English lacks (checked by tsc)", () => {
    // @ts-expect-error "wrong.key" is not a key of locales/en.json.
    const wrong = () => i18n.t("wrong.key");
    const right = () => i18n.t("common.retry");
    expect([typeof wrong, typeof right]).toEqual(["function", "function"]);
  });

  it("maps an error code to its text's key, unknown codes to internal_error", () => {
    const known = new Set(["errors.market_closed", "errors.network"]);
    const exists = (key: string) => known.has(key);
    expect(errorKey("market_closed", exists)).toBe("errors.market_closed");
    expect(errorKey("network", exists)).toBe("errors.network");
    expect(errorKey("no_such_code", exists)).toBe("errors.internal_error");
    expect(knownErrorKey("market_closed", exists)).toBe("errors.market_closed");
    expect(knownErrorKey("no_such_code", exists)).toBeNull();
  });
});
