/** The 12 interface languages, by the codes the specification uses. English is the fallback. */
export const locales = [
  "en",
  "zh-Hant",
  "jp",
  "kr",
  "th",
  "es",
  "pt",
  "de",
  "fr",
  "sv",
  "it",
  "ru",
] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** BCP 47 tags for each locale, for `Intl` formatting and the `lang` attribute. */
export const bcp47ByLocale: Record<Locale, string> = {
  en: "en",
  "zh-Hant": "zh-Hant",
  jp: "ja",
  kr: "ko",
  th: "th",
  es: "es",
  pt: "pt",
  de: "de",
  fr: "fr",
  sv: "sv",
  it: "it",
  ru: "ru",
};

/** Each locale's name in its own language, for the language picker. */
export const nativeNameByLocale: Record<Locale, string> = {
  en: "English",
  "zh-Hant": "繁體中文",
  jp: "日本語",
  kr: "한국어",
  th: "ไทย",
  es: "Español",
  pt: "Português",
  de: "Deutsch",
  fr: "Français",
  sv: "Svenska",
  it: "Italiano",
  ru: "Русский",
};

const aliases: Record<string, Locale> = {
  ja: "jp",
  ko: "kr",
  zh: "zh-Hant",
  "zh-tw": "zh-Hant",
  "zh-hk": "zh-Hant",
  "zh-hant": "zh-Hant",
};

/** Maps one language tag ("de-CH", "ja", "zh-TW", "kr") to a locale, or undefined. */
export function matchLocale(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase();
  if (lower === "") return undefined;
  const exact = locales.find((l) => l.toLowerCase() === lower) ?? aliases[lower];
  if (exact) return exact;
  const primary = lower.split("-")[0]!;
  return locales.find((l) => l.toLowerCase() === primary) ?? aliases[primary];
}

/**
 * Picks the locale of a request: an explicit `X-Lang` wins, then the `Accept-Language` list in
 * order of quality, then English.
 */
export function resolveLocale(
  xLang: string | undefined,
  acceptLanguage: string | undefined,
): Locale {
  if (xLang) {
    const match = matchLocale(xLang);
    if (match) return match;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(",")
      .map((part, index) => {
        const [tag = "", ...params] = part.split(";");
        const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
        return { tag, quality: q ? Number(q.slice(2)) || 0 : 1, index };
      })
      .sort((a, b) => b.quality - a.quality || a.index - b.index);
    for (const { tag } of ranked) {
      const match = matchLocale(tag);
      if (match) return match;
    }
  }
  return defaultLocale;
}
