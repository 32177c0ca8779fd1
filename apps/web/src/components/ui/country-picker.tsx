import { Input } from "antd-mobile";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { countryOptions } from "../../lib/countries.ts";

/** Letters only, lower-cased and without accents: "Österreich" matches "oster". */
function fold(text: string, language: string) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase(language);
}

/**
 * The spec's country picker (`/choose-location`): a search box and the countries named in the
 * user's language (`Intl.DisplayNames`), matched by name or by their two-letter code.
 */
export function CountryPicker({
  selected,
  onPick,
}: {
  selected: string | null;
  onPick: (code: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState("");
  const options = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const wanted = fold(query.trim(), i18n.language);
  const shown = wanted
    ? options.filter(
        (option) =>
          fold(option.name, i18n.language).includes(wanted) || option.code.toLowerCase() === wanted,
      )
    : options;
  return (
    <div className="country-picker">
      <Input
        value={query}
        onChange={setQuery}
        placeholder={t("residence.search")}
        aria-label={t("residence.search")}
        data-testid="country-search"
        maxLength={60}
      />
      {shown.length === 0 ? (
        <p className="hint" role="status">
          {t("residence.noMatch")}
        </p>
      ) : (
        <ul className="country-list" aria-label={t("residence.countries")}>
          {shown.map((option) => (
            <li key={option.code}>
              <button
                type="button"
                className="link-button"
                aria-pressed={option.code === selected}
                data-testid={`country-${option.code}`}
                onClick={() => onPick(option.code)}
              >
                {option.name}
                {option.code === selected ? " ✓" : ""}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
