import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { locales } from "@candor/contract";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
/** Every folder of locale files: the web app's texts and the API's shared messages. */
const localeDirs = [
  "apps/web/src/locales",
  "apps/web/src/locales/admin",
  "packages/contract/src/locales",
];

/**
 * Keys whose text is rightly the same as English in some locales: names, tickers and words
 * that the language borrows unchanged ("Server" in German). Anything else identical to English
 * is an untranslated string.
 */
const sameAsEnglish: Record<string, "*" | string[]> = JSON.parse(
  readFileSync(path.join(root, "tests/locale-same-as-english.json"), "utf8"),
);

function flatten(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (child && typeof child === "object") for (const e of flatten(child, full)) out.set(...e);
    else out.set(full, String(child));
  }
  return out;
}

const read = (dir: string, locale: string) =>
  flatten(JSON.parse(readFileSync(path.join(root, dir, `${locale}.json`), "utf8")));

describe.each(localeDirs)("locales in %s", (dir) => {
  it("has exactly the 12 locales", () => {
    const files = readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".json"));
    expect(files.map((f) => f.replace(/\.json$/, "")).sort()).toEqual([...locales].sort());
  });

  const english = read(dir, "en");
  describe.each(locales.filter((l) => l !== "en"))("%s", (locale) => {
    const translated = read(dir, locale);

    it("has every English key and no extra ones", () => {
      expect([...english.keys()].filter((k) => !translated.has(k))).toEqual([]);
      expect([...translated.keys()].filter((k) => !english.has(k))).toEqual([]);
    });

    it("translates every text, save names and loanwords listed as such", () => {
      const untranslated = [...english].filter(([key, text]) => {
        if (translated.get(key) !== text) return false;
        const allowed = sameAsEnglish[key];
        return !(allowed === "*" || allowed?.includes(locale));
      });
      expect(untranslated.map(([key]) => key)).toEqual([]);
    });

    it("keeps every {{placeholder}} of English", () => {
      for (const [key, text] of english) {
        const placeholders = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
        expect(placeholders(translated.get(key) ?? ""), key).toEqual(placeholders(text));
      }
    });
  });
});
