import type { Messages } from "@candor/contract";
import {
  bcp47ByLocale,
  defaultLocale,
  locales,
  matchLocale,
  type Locale,
} from "@candor/contract/locales";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import en from "../locales/en.json";

const storageKey = "candor.locale";

/** The web app's own texts; the API's error texts come from @candor/contract. */
export type WebMessages = typeof en;

const loaders = import.meta.glob<{ default: WebMessages }>("../locales/*.json");
// The API's messages (error texts) live in the contract; each locale loads when first used, so
// the home route does not carry all twelve (the budget).
const serverLoaders = import.meta.glob<{ default: Messages }>(
  "../../../../packages/contract/src/locales/*.json",
);

async function loadResources(locale: Locale) {
  const [web, server] = await Promise.all([
    locale === "en" ? en : loaders[`../locales/${locale}.json`]!().then((m) => m.default),
    serverLoaders[`../../../../packages/contract/src/locales/${locale}.json`]!().then(
      (m) => m.default,
    ),
  ]);
  return { ...web, errors: { ...server.errors, ...web.errors } };
}

function initialLocale(): Locale {
  const stored = localStorage.getItem(storageKey);
  const fromStorage = stored ? matchLocale(stored) : undefined;
  if (fromStorage) return fromStorage;
  for (const tag of navigator.languages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return defaultLocale;
}

/** Switches the interface language, remembers it, and loads its texts on first use. */
export async function setLocale(locale: Locale) {
  if (!i18n.hasResourceBundle(locale, "translation")) {
    i18n.addResourceBundle(locale, "translation", await loadResources(locale));
  }
  localStorage.setItem(storageKey, locale);
  document.documentElement.lang = bcp47ByLocale[locale];
  await i18n.changeLanguage(locale);
}

void i18n.use(initReactI18next).init({
  lng: "en",
  fallbackLng: "en",
  supportedLngs: [...locales],
  resources: { en: { translation: await loadResources("en") } },
  interpolation: { escapeValue: false },
  // English is the fallback; only a key English lacks too shows "no trans" (DESIGN §4).
  parseMissingKeyHandler: () => "no trans",
  returnNull: false,
});
await setLocale(initialLocale());

export default i18n;
