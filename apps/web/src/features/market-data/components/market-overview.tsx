import type { AssetClass } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFavourites } from "../../../lib/favourites.ts";
import { assetClasses, fetchInstruments, marketDataKeys } from "../api/market-data-api.ts";
import { useTickers } from "../api/use-tickers.ts";
import { InstrumentList, SimulatedLabel } from "./instrument-list.tsx";

/** How many instruments of each class the home page shows. */
const perClass = 3;

/** Home: the user's favourites first (when any), then the first instruments of each class. */
export function MarketOverview() {
  const { t } = useTranslation();
  const favouriteIds = useFavourites();
  const all = useQuery({
    queryKey: marketDataKeys.instruments({ limit: 100 }),
    queryFn: () => fetchInstruments({ limit: 100 }),
    enabled: favouriteIds.length > 0,
  });
  const favourites = useMemo(
    () => (all.data ?? []).filter((instrument) => favouriteIds.includes(instrument.id)),
    [all.data, favouriteIds],
  );
  const overview = useQuery({
    queryKey: marketDataKeys.overview(),
    queryFn: async () => {
      const lists = await Promise.all(
        assetClasses.map((assetClass) => fetchInstruments({ assetClass, limit: perClass })),
      );
      return assetClasses.map((assetClass, i) => ({
        assetClass,
        instruments: (lists[i] ?? []).slice(0, perClass),
      }));
    },
  });
  const ids = useMemo(
    () => [
      ...new Set([
        ...favourites.map((i) => i.id),
        ...(overview.data ?? []).flatMap((group) => group.instruments.map((i) => i.id)),
      ]),
    ],
    [overview.data, favourites],
  );
  const { tickers } = useTickers(ids);
  return (
    <section aria-labelledby="overview-title" className="overview">
      <h2 id="overview-title">{t("home.overview")}</h2>
      <SimulatedLabel show={[...tickers.values()].some((x) => x.source === "simulated")} />
      {overview.isPending ? <LoadingState /> : null}
      {overview.isError ? (
        <ErrorState message={overview.error.message} onRetry={() => void overview.refetch()} />
      ) : null}
      {favourites.length > 0 ? (
        <div data-testid="home-favourites">
          <h3 className="group-title">
            <Link to="/quotation?tab=favourites">{t("markets.favourites")}</Link>
          </h3>
          <InstrumentList instruments={favourites} tickers={tickers} />
        </div>
      ) : null}
      {overview.data?.map((group) =>
        group.instruments.length === 0 ? null : (
          <div key={group.assetClass}>
            <h3 className="group-title">
              <Link to={`/quotation?tab=${group.assetClass satisfies AssetClass}`}>
                {t(`markets.class.${group.assetClass}`)}
              </Link>
            </h3>
            <InstrumentList instruments={group.instruments} tickers={tickers} />
          </div>
        ),
      )}
    </section>
  );
}
