import type { ErrorCode } from "./errors.ts";
import type { Locale } from "./locales.ts";
import en from "./locales/en.json" with { type: "json" };
import zhHant from "./locales/zh-Hant.json" with { type: "json" };
import jp from "./locales/jp.json" with { type: "json" };
import kr from "./locales/kr.json" with { type: "json" };
import th from "./locales/th.json" with { type: "json" };
import es from "./locales/es.json" with { type: "json" };
import pt from "./locales/pt.json" with { type: "json" };
import de from "./locales/de.json" with { type: "json" };
import fr from "./locales/fr.json" with { type: "json" };
import sv from "./locales/sv.json" with { type: "json" };
import it from "./locales/it.json" with { type: "json" };
import ru from "./locales/ru.json" with { type: "json" };

/** Server messages shared by the API and the web app: errors and success texts, per locale. */
export type Messages = typeof en;

/** English is the source; the locale check keeps the other eleven complete. */
export const messagesByLocale: Record<Locale, Messages> = {
  en,
  "zh-Hant": zhHant,
  jp,
  kr,
  th,
  es,
  pt,
  de,
  fr,
  sv,
  it,
  ru,
};

/** The message for an error code in a locale, falling back to English (DESIGN §4). */
export function errorMessage(
  locale: Locale,
  code: ErrorCode,
  params?: Readonly<Record<string, string>>,
): string {
  const text = messagesByLocale[locale].errors[code] ?? messagesByLocale.en.errors[code];
  if (params === undefined) return text;
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole);
}
