import { SearchBar } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { fetchInstruments, marketDataKeys } from "../api/market-data-api.ts";
import { useTickers } from "../api/use-tickers.ts";
import { InstrumentList, SimulatedLabel } from "./instrument-list.tsx";

/** Search instruments of every class by symbol or name. */
export function SearchPage() {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const q = text.trim().slice(0, 40);
  const results = useQuery({
    queryKey: marketDataKeys.instruments({ q, limit: 50 }),
    queryFn: () => fetchInstruments({ q, limit: 50 }),
    enabled: q.length > 0,
  });
  const ids = useMemo(() => (results.data ?? []).map((i) => i.id), [results.data]);
  const { tickers } = useTickers(ids);
  return (
    <section className="page" aria-labelledby="search-title">
      <h1 id="search-title">{t("search.title")}</h1>
      <SearchBar
        placeholder={t("search.placeholder")}
        onSearch={setText}
        onChange={setText}
        aria-label={t("search.placeholder")}
      />
      <SimulatedLabel show={[...tickers.values()].some((x) => x.source === "simulated")} />
      {q.length === 0 ? <p className="hint">{t("search.hint")}</p> : null}
      {q.length > 0 && results.isPending ? <LoadingState /> : null}
      {results.isError ? <ErrorState message={results.error.message} /> : null}
      {results.isSuccess && results.data.length === 0 ? (
        <EmptyState text={t("search.none")} />
      ) : null}
      {results.isSuccess && results.data.length > 0 ? (
        <InstrumentList instruments={results.data} tickers={tickers} />
      ) : null}
    </section>
  );
}
