import type { AssetClass, InstrumentView, TickerView } from "@candor/contract";
import { Selector, Tabs } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { compareDecimal } from "../../../lib/decimal-text.ts";
import { useFavourites } from "../../../lib/favourites.ts";
import { assetClasses, fetchInstruments, marketDataKeys } from "../api/market-data-api.ts";
import { useTickers } from "../api/use-tickers.ts";
import { InstrumentList, SimulatedLabel } from "./instrument-list.tsx";

type SortKey = "default" | "change" | "volume";

function sortInstruments(
  instruments: readonly InstrumentView[],
  tickers: ReadonlyMap<string, TickerView>,
  sort: SortKey,
): InstrumentView[] {
  if (sort === "default") return [...instruments];
  const field = sort === "change" ? "changePercent24h" : "volume24h";
  // Highest first; instruments without a ticker yet go last.
  return [...instruments].sort((a, b) =>
    compareDecimal(tickers.get(b.id)?.[field] ?? "x", tickers.get(a.id)?.[field] ?? "x"),
  );
}

/** Quotes by asset class, sortable by change or volume, live over the WebSocket. */
export function QuotationPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const favourites = useFavourites();
  const hasFavourites = favourites.length > 0;
  const wanted = searchParams.get("tab") ?? "";
  // A Favourites tab first when there are any, and opened by default then (issue 18).
  const tab: AssetClass | "favourites" = (assetClasses as readonly string[]).includes(wanted)
    ? (wanted as AssetClass)
    : hasFavourites
      ? "favourites"
      : "crypto";
  const [sort, setSort] = useState<SortKey>("default");
  const filter = tab === "favourites" ? { limit: 100 } : { assetClass: tab, limit: 100 };
  const listed = useQuery({
    queryKey: marketDataKeys.instruments(filter),
    queryFn: () => fetchInstruments(filter),
  });
  const instruments = {
    ...listed,
    data:
      tab === "favourites"
        ? (listed.data ?? []).filter((i) => favourites.includes(i.id))
        : listed.data,
  };
  const ids = useMemo(() => (instruments.data ?? []).map((i) => i.id), [instruments.data]);
  const { tickers } = useTickers(ids);
  const sorted = useMemo(
    () => sortInstruments(instruments.data ?? [], tickers, sort),
    [instruments.data, tickers, sort],
  );
  const simulated = [...tickers.values()].some((ticker) => ticker.source === "simulated");

  return (
    <section className="page" aria-labelledby="quotation-title">
      <h1 id="quotation-title">{t("markets.title")}</h1>
      <Tabs activeKey={tab} onChange={(key) => setSearchParams({ tab: key }, { replace: true })}>
        {hasFavourites ? <Tabs.Tab key="favourites" title={t("markets.favourites")} /> : null}
        {assetClasses.map((assetClass) => (
          <Tabs.Tab key={assetClass} title={t(`markets.class.${assetClass}`)} />
        ))}
      </Tabs>
      <div className="sort-row">
        <span id="sort-label">{t("markets.sortBy")}</span>
        <Selector<SortKey>
          aria-labelledby="sort-label"
          showCheckMark={false}
          columns={3}
          value={[sort]}
          onChange={(value) => setSort(value[0] ?? "default")}
          options={[
            { label: t("markets.sortDefault"), value: "default" },
            { label: t("markets.sortChange"), value: "change" },
            { label: t("markets.sortVolume"), value: "volume" },
          ]}
        />
      </div>
      <SimulatedLabel show={simulated} />
      {instruments.isPending ? <LoadingState /> : null}
      {instruments.isError ? (
        <ErrorState
          message={instruments.error.message}
          onRetry={() => void instruments.refetch()}
        />
      ) : null}
      {instruments.isSuccess && sorted.length === 0 ? <EmptyState /> : null}
      {instruments.isSuccess && sorted.length > 0 ? (
        <InstrumentList instruments={sorted} tickers={tickers} />
      ) : null}
    </section>
  );
}
