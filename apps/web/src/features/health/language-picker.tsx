import { locales, nativeNameByLocale, type Locale } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { setLocale } from "../../lib/i18n.ts";

export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <label>
      {t("settings.language")}{" "}
      <select
        value={i18n.language}
        onChange={(event) => void setLocale(event.target.value as Locale)}
      >
        {locales.map((locale) => (
          <option key={locale} value={locale}>
            {nativeNameByLocale[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
