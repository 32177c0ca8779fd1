import type { Locale } from "@candor/contract/locales";
import i18n from "i18next";
import { useEffect, useState } from "react";
import type adminEn from "../../../locales/admin/en.json";

/** The back office's texts: their own namespace, loaded with the admin chunk only. */
export type AdminMessages = typeof adminEn;

export const adminNamespace = "admin";

const loaders = import.meta.glob<{ default: AdminMessages }>("../../../locales/admin/*.json");

/** Loads the back office's texts of `locale` (and English, the fallback) once. */
export async function loadAdminTexts(locale: string): Promise<void> {
  const wanted = locale === "en" ? ["en"] : ["en", locale];
  await Promise.all(
    wanted.map(async (name) => {
      if (i18n.hasResourceBundle(name, adminNamespace)) return;
      const load = loaders[`../../../locales/admin/${name}.json`];
      if (!load) return;
      const texts = (await load()).default;
      i18n.addResourceBundle(name, adminNamespace, texts, true, true);
    }),
  );
}

/**
 * Re-renders when the language changes, once the back office's texts of the new language are
 * there (the app's own `setLocale` loads only the app's texts). Returns the current language.
 */
export function useAdminLanguage(): string {
  const [language, setLanguage] = useState(i18n.language);
  useEffect(() => {
    const onChange = (next: string) => {
      void loadAdminTexts(next).then(() => setLanguage(next));
    };
    i18n.on("languageChanged", onChange);
    return () => i18n.off("languageChanged", onChange);
  }, []);
  return language;
}

export type { Locale };
