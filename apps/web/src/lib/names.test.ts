import i18n from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import de from "../locales/de.json";
import en from "../locales/en.json";
import { accountName, displayNickname, instrumentName } from "./names.ts";

beforeAll(async () => {
  await i18n.init({
    lng: "de",
    fallbackLng: "en",
    resources: { de: { translation: de }, en: { translation: en } },
  });
});

const names = (en: string, zh: string) => ({ en, "zh-Hant": zh });

describe("names by id", () => {
  it("translates commodity and metal names; keeps the server's brand names otherwise", () => {
    expect(instrumentName({ id: "XAGUSD", names: names("Silver", "白銀") }, i18n.t, "de")).toBe(
      "Silber",
    );
    expect(instrumentName({ id: "WTI", names: names("WTI crude oil", "x") }, i18n.t, "de")).toBe(
      "Rohöl WTI",
    );
    expect(instrumentName({ id: "AAPL", names: names("Apple", "蘋果") }, i18n.t, "de")).toBe(
      "Apple",
    );
    expect(instrumentName({ id: "AAPL", names: names("Apple", "蘋果") }, i18n.t, "zh-Hant")).toBe(
      "蘋果",
    );
  });

  it("names system accounts and the demo user in the interface language", () => {
    expect(accountName("system:demo_faucet", i18n.t)).toBe("Demo-Guthaben");
    expect(accountName("self", i18n.t)).toBe("Ihr eigenes Konto");
    expect(accountName("system:something_new", i18n.t)).toBe("system:something_new");
    expect(displayNickname({ nickname: "Demo", username: "demo-1", demoOnly: true }, i18n.t)).toBe(
      "Demo-Händler",
    );
    // A real user who chose "Demo" as a nickname keeps it.
    expect(displayNickname({ nickname: "Demo", username: "a@b.c" }, i18n.t)).toBe("Demo");
  });
});
